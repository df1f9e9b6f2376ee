import Glibc

/// Refuses provider files and directories that other users could replace: group- or
/// other-writable files, their directories, and the targets of symbolic links.
enum PermissionCheck {
    /// Why `directory` is refused, or nil.
    static func refusal(directory: String, status: FileStatus) -> String? {
        guard status.isWritableByOthers else { return nil }
        return "directory \(directory) is writable by other users (mode \(status.permissions)); refused"
    }

    /// Why the file at `path` (with `status`, links followed) is refused, or nil.
    static func refusal(file path: String, status: FileStatus) -> String? {
        if status.isWritableByOthers {
            return "writable by other users (mode \(status.permissions)); refused"
        }
        guard FileStatus.ofLink(path)?.isSymbolicLink == true, let target = resolved(path) else { return nil }
        let directory = parent(of: target)
        if let dirStatus = FileStatus.of(directory), dirStatus.isWritableByOthers {
            return "links to \(target), in a directory writable by other users (mode \(dirStatus.permissions)); refused"
        }
        return nil
    }

    /// A library that a manifest names: the file and its directory must be safe.
    static func refusal(library path: String) -> String? {
        guard let status = FileStatus.of(path) else { return nil }
        if status.isWritableByOthers {
            return "library \(path) is writable by other users (mode \(status.permissions)); refused"
        }
        let directory = parent(of: resolved(path) ?? path)
        if let dirStatus = FileStatus.of(directory), dirStatus.isWritableByOthers {
            return "library \(path) is in a directory writable by other users (mode \(dirStatus.permissions)); refused"
        }
        return nil
    }

    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func resolved(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }
}
