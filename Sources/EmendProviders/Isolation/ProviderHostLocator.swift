import Glibc

/// Where `emend-provider-host` is, found the way libemend finds `emend-scan`:
/// `$EMEND_PROVIDER_HOST`, else `<libdir>/emend/emend-provider-host` (an install), else
/// `<libdir>/emend-provider-host` (a build directory), else next to the running executable
/// (`swift test` and the `emend` command in a build directory).
public enum ProviderHostLocator {
    public static let executableName = "emend-provider-host"

    /// The first candidate that is executable; nil when there is none.
    public static func locate(environment: [String: String], libraryDirectory: String?) -> String? {
        if let explicit = environment["EMEND_PROVIDER_HOST"], !explicit.isEmpty { return explicit }
        var candidates: [String] = []
        if let dir = libraryDirectory {
            candidates += ["\(dir)/emend/\(executableName)", "\(dir)/\(executableName)"]
        }
        if let dir = executableDirectory() { candidates.append("\(dir)/\(executableName)") }
        return candidates.first { access($0, X_OK) == 0 }
    }

    /// The directory of /proc/self/exe.
    private static func executableDirectory() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        let path = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let slash = path.lastIndex(of: "/") else { return nil }
        return String(path[..<slash])
    }
}
