import Glibc

/// This machine's names (`SystemNames.listed`) kept in a file between processes, valid while
/// none of the directories they were listed from has changed (each directory's modification
/// time, which adding, removing or renaming an entry changes, and the `PATH` they came from).
/// Why: each `emend proofread` and language server listed dpkg's 3,000-odd package lists, the
/// manual's 3,000-odd pages and every executable on `PATH` (an access call each) the first time
/// a spelling flag asked about a name: a sixth of a warm one-line proofread's CPU. What the
/// cache cannot see: a file on `PATH` made executable or not in place (its directory keeps its
/// time); a new package, command or page is seen at once.
///
/// The file: `emend-system-names 1`, one `TAB`-separated line per directory (its path and its
/// time, or `-` when it is missing), a line `path TAB <PATH>`, a line `--`, then one name a line.
struct SystemNamesCache {
    let file: String?

    /// `$XDG_CACHE_HOME/emend/system-names` (default `~/.cache/emend/system-names`), or nil.
    static func standardFile(environment: (String) -> String? = { getenv($0).map { String(cString: $0) } }) -> String? {
        if let cache = environment("XDG_CACHE_HOME"), cache.hasPrefix("/") { return cache + "/emend/system-names" }
        guard let home = environment("HOME"), home.hasPrefix("/") else { return nil }
        return home + "/.cache/emend/system-names"
    }

    /// The names from the file when it is still valid for these directories, else listed now
    /// and written to the file (a file that cannot be written only costs the next process the listing).
    func names(packageDirectory: String, path: String, manualDirectories: [String]) -> Set<String> {
        sortedNames(packageDirectory: packageDirectory, path: path, manualDirectories: manualDirectories).set
    }

    /// `names`, as the sorted lines of the file (no set is built: see `SortedNames`).
    func sortedNames(packageDirectory: String, path: String, manualDirectories: [String]) -> SortedNames {
        let directories = [packageDirectory] + path.split(separator: ":").filter { !$0.isEmpty }.map(String.init) + manualDirectories
        let header = (["emend-system-names 1"] + directories.map { "\($0)\t\(Self.stamp(of: $0))" } + ["path\t\(path)", "--"])
            .joined(separator: "\n") + "\n"
        if let file, let bytes = SystemFiles.bytes(of: file), bytes.starts(with: header.utf8) {
            return SortedNames(lines: bytes[header.utf8.count...])
        }
        let names = SortedNames(SystemNames.listed(packageDirectory: packageDirectory, path: path, manualDirectories: manualDirectories))
        // A directory changed within the last second may change again within the same tick of
        // the file system's clock, unseen: its listing is not kept.
        let recent = directories.contains { Int64(Self.stamp(of: $0)).map { $0 > Self.now() - 1_000_000_000 } ?? false }
        if let file, !recent { Self.write(bytes: Array(header.utf8) + names.lines, to: file) }
        return names
    }

    /// A directory's modification time in nanoseconds, or `-`.
    static func stamp(of directory: String) -> String {
        var info = stat()
        guard stat(directory, &info) == 0 else { return "-" }
        return "\(Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec))"
    }

    /// The time of day in nanoseconds (what file times count).
    static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    /// Writes `text` to a temporary file beside `path` and renames it over `path` (so that a
    /// process reading it sees the old file or the new one whole); makes the directory.
    static func write(_ text: String, to path: String) {
        write(bytes: Array(text.utf8), to: path)
    }

    /// Writes `bytes` as `write(_:to:)` writes a text.
    static func write(bytes: [UInt8], to path: String) {
        guard let slash = path.lastIndex(of: "/") else { return }
        let directory = String(path[..<slash])
        if directory.hasSuffix("/emend") { _ = mkdir(String(directory.dropLast(6)), 0o700) }
        _ = mkdir(directory, 0o700)
        let temporary = "\(path).\(getpid()).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        var bytes = bytes[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { break }
            bytes = bytes.dropFirst(written)
        }
        close(fd)
        if bytes.isEmpty && rename(temporary, path) == 0 { return }
        unlink(temporary)
    }
}
