import Glibc

/// Replaces a file's contents all at once: the new bytes go to a temporary file in the same
/// directory, which is flushed to disk and renamed over the file, so a reader (or a crash,
/// or a kill) sees either the old file or the new one, never a half-written one. The
/// temporary file is removed on every failure. Watched signals wait until it is done.
enum AtomicFile {
    /// Writes `bytes` to `path`. `expected`: the file's status when it was read; if the file
    /// changed since, nothing is written (someone else edited it meanwhile).
    static func write(_ bytes: [UInt8], to path: String, expected: stat?) throws(CLIFailure) {
        try Signals.deferred { () throws(CLIFailure) in try writeNow(bytes, to: path, expected: expected) }
    }

    private static func writeNow(_ bytes: [UInt8], to path: String, expected: stat?) throws(CLIFailure) {
        // Write through a symlink to its target, keeping the link.
        let target = resolvedPath(path)
        var current = stat()
        let exists = stat(target, &current) == 0
        if let expected, exists {
            let changed = current.st_ino != expected.st_ino || current.st_size != expected.st_size
                || current.st_mtim.tv_sec != expected.st_mtim.tv_sec || current.st_mtim.tv_nsec != expected.st_mtim.tv_nsec
            if changed {
                throw .usage("\(path) changed on disk while emend worked; nothing was written. Run the command again")
            }
        }
        let directory = Paths.directory(of: target)
        var template = Array((Paths.join(directory, ".\(Paths.baseName(of: target)).emend-XXXXXX")).utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw .usage("\(path): cannot write a temporary file in \(directory): \(String(cString: strerror(errno))); nothing was written")
        }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        var closed = false
        func fail(_ what: String) -> CLIFailure {
            let why = String(cString: strerror(errno))
            if !closed { close(fd) }
            unlink(temporary)
            return .usage("\(path): \(what): \(why); the file was left as it was")
        }
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, bytes.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                throw fail("cannot write")
            }
            offset += n
        }
        // Keep the file's permissions (and owner, where allowed).
        if exists {
            _ = fchmod(fd, current.st_mode & 0o7777)
            _ = fchown(fd, current.st_uid, current.st_gid)
        }
        guard fsync(fd) == 0 else { throw fail("cannot flush to disk") }
        guard close(fd) == 0 else { closed = true; throw fail("cannot close") }
        closed = true
        guard rename(temporary, target) == 0 else { throw fail("cannot replace the file") }
        // Make the rename itself durable.
        let dirfd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dirfd >= 0 {
            _ = fsync(dirfd)
            close(dirfd)
        }
    }

    /// The file a symlink points to (followed all the way), else `path`.
    static func resolvedPath(_ path: String) -> String {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK else { return path }
        guard let real = realpath(path, nil) else { return path }
        defer { free(real) }
        return String(cString: real)
    }
}
