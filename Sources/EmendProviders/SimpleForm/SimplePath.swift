import Glibc

/// Path arithmetic for manifests: absolute paths and the manifest's directory.
enum SimplePath {
    /// `path` made absolute against the working directory, without "." components or
    /// repeated slashes (".." is kept: it is resolved by the kernel, after symlinks).
    static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return clean(path) }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return clean(path) }
        let cwd = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return clean(cwd + "/" + path)
    }

    /// The directory holding `path` (an absolute path).
    static func directory(of path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "." }
        let dir = String(path[..<slash])
        return dir.isEmpty ? "/" : dir
    }

    /// `relative` resolved against `directory` (kept as is when absolute).
    static func resolve(_ relative: String, in directory: String) -> String {
        relative.hasPrefix("/") ? clean(relative) : clean(directory + "/" + relative)
    }

    private static func clean(_ path: String) -> String {
        let parts = path.split(separator: "/").filter { $0 != "." }
        return "/" + parts.joined(separator: "/")
    }
}
