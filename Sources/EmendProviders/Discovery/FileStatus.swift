import Glibc

/// What stat(2) says about a path: the cache key (mtime, size) and the permission bits.
struct FileStatus: Equatable, Sendable {
    var mode: UInt32
    var size: Int64
    /// Modification time in nanoseconds since the epoch.
    var modified: Int64

    /// The status of `path`, following symbolic links; nil if it does not exist.
    static func of(_ path: String) -> FileStatus? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return FileStatus(st)
    }

    /// The status of `path` itself, not following a symbolic link.
    static func ofLink(_ path: String) -> FileStatus? {
        var st = stat()
        guard lstat(path, &st) == 0 else { return nil }
        return FileStatus(st)
    }

    private init(_ st: stat) {
        mode = UInt32(st.st_mode)
        size = Int64(st.st_size)
        modified = Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
    }

    var isRegularFile: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFREG) }
    var isDirectory: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFDIR) }
    var isSymbolicLink: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFLNK) }

    /// True when the group or other users may write it.
    var isWritableByOthers: Bool { mode & UInt32(S_IWGRP | S_IWOTH) != 0 }

    /// The permission bits in octal, e.g. "0775".
    var permissions: String {
        let octal = String(mode & 0o7777, radix: 8)
        return String(repeating: "0", count: max(0, 4 - octal.count)) + octal
    }
}
