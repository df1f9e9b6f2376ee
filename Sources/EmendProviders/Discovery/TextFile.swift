import Glibc

/// Whole-file reads and atomic writes with open/read/write/rename.
enum TextFile {
    /// Why a read failed.
    enum ReadError: Error, Equatable {
        case missing
        case failed(String)
    }

    /// The bytes of `path` as UTF-8 text (invalid bytes repaired).
    static func read(_ path: String) -> Result<String, ReadError> {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            return errno == ENOENT ? .failure(.missing) : .failure(.failed(String(cString: strerror(errno))))
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count > 0 { bytes += buffer[0..<count]; continue }
            if count == 0 { break }
            if errno == EINTR { continue }
            return .failure(.failed(String(cString: strerror(errno))))
        }
        return .success(String(decoding: bytes, as: UTF8.self))
    }

    /// Writes `text` to a temporary file next to `path` and renames it over `path`, so that
    /// readers see the old file or the new one, never half of one. Creates missing
    /// directories. Returns false on failure (the old file is left as it was).
    @discardableResult
    static func writeAtomically(_ text: String, to path: String, mode: mode_t = 0o644) -> Bool {
        makeDirectories(PermissionCheck.parent(of: path))
        let temporary = "\(path).tmp.\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { return false }
        var ok = true
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let count = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { ok = false; break }
            bytes = bytes.dropFirst(count)
        }
        if close(fd) != 0 { ok = false }
        if ok && rename(temporary, path) == 0 { return true }
        unlink(temporary)
        return false
    }

    /// mkdir -p (new directories get mode 0700).
    static func makeDirectories(_ path: String) {
        guard !path.isEmpty, path != "/", FileStatus.of(path) == nil else { return }
        makeDirectories(PermissionCheck.parent(of: path))
        mkdir(path, 0o700)
    }
}
