import Glibc
import EmendCore
import EmendText

/// Reads a manifest file into a String.
enum SimpleFile {
    /// Manifests are small; anything larger is not one.
    static let maximumBytes = 1 << 20

    /// The file's text, which must be UTF-8 and at most `maximumBytes`.
    static func read(_ path: String) throws(EmendError) -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw EmendError(.notFound, "\(path): cannot open: \(reason(errno))") }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw EmendError(.invalidArgument, "\(path): cannot read: \(reason(errno))")
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
            guard bytes.count <= maximumBytes else {
                throw EmendError(.invalidArgument, "\(path): larger than \(maximumBytes) bytes; not a manifest")
            }
        }
        switch UTF8Validation.decode(bytes) {
        case .success(let text): return text
        case .failure(let bad): throw EmendError(.invalidUTF8, "\(path): not UTF-8 (byte \(bad.byteOffset))")
        }
    }

    private static func reason(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }
}
