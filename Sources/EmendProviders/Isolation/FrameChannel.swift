import Glibc

/// One end of the provider host's socketpair: whole writes (never SIGPIPE: a host that died
/// must not kill the editor) and frame-by-frame reads from a buffer that is refilled with
/// large reads, so a burst of small frames costs few system calls.
final class FrameChannel: @unchecked Sendable {
    let fd: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    /// The largest frame this side accepts.
    private let frameLimit: Int

    init(fd: Int32, frameLimit: Int = maximumFrameBytes) {
        self.fd = fd
        self.frameLimit = frameLimit
    }

    /// Writes all of `bytes`; false when the other side is gone.
    func write(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { raw in
            var sent = 0
            while sent < raw.count {
                let count = send(fd, raw.baseAddress! + sent, raw.count - sent, Int32(MSG_NOSIGNAL))
                if count < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                sent += count
            }
            return true
        }
    }

    /// How reading stopped.
    enum End: Error {
        /// The other side closed the channel (or it failed).
        case closed
        case violation(ProtocolViolation)
    }

    /// Blocks for the next frame and hands its type and payload to `body` (the payload is
    /// valid only inside it).
    func next<T>(_ body: (UInt8, UnsafeRawBufferPointer) throws(ProtocolViolation) -> T) throws(End) -> T {
        while true {
            let available = buffer.count - start
            if available >= 4 {
                let length = buffer.withUnsafeBytes { raw in
                    (0..<4).reduce(0) { $0 | Int(raw[start + $1]) << (8 * $1) }
                }
                guard length >= 1, length <= frameLimit else {
                    throw .violation(ProtocolViolation("a frame of \(length) bytes"))
                }
                if available >= 4 + length {
                    let frameStart = start + 4
                    start += 4 + length
                    let result = buffer.withUnsafeBytes { raw in
                        Result { () throws(ProtocolViolation) -> T in
                            try body(raw[frameStart], UnsafeRawBufferPointer(rebasing: raw[(frameStart + 1)..<(frameStart + length)]))
                        }
                    }
                    switch result {
                    case .success(let value): return value
                    case .failure(let violation): throw .violation(violation)
                    }
                }
            }
            try fill()
        }
    }

    /// Reads more bytes, dropping what was consumed.
    private func fill() throws(End) {
        if start > 0 {
            buffer.removeFirst(start)
            start = 0
        }
        let chunk = 64 * 1024
        let old = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: chunk))
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress! + old, chunk) }
            if count < 0 && errno == EINTR { continue }
            buffer.removeLast(chunk - max(count, 0))
            if count <= 0 { throw .closed }
            return
        }
    }
}
