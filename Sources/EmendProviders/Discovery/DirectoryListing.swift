import Glibc

/// The provider files directly inside one directory (no recursion).
enum DirectoryListing {
    /// Names ending in `.so` or `.toml`, hidden names skipped, sorted by byte order; nil when
    /// the directory cannot be read.
    static func providerFiles(in directory: String) -> [String]? {
        guard let dir = opendir(directory) else { return nil }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: &entry.pointee.d_name) { bytes in
                String(cString: bytes.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            guard !name.hasPrefix(".") else { continue }
            if name.hasSuffix(".so") || name.hasSuffix(".toml") { names.append(name) }
        }
        return names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }
}
