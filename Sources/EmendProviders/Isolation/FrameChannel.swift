import CEmendSystem
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
    /// A pidfd of the process on the other side (-1: none): when it ends, the channel ends
    /// once what it sent is read, even if a child of it still holds its end open.
    private let watched: Int32

    init(fd: Int32, frameLimit: Int = maximumFrameBytes, watching pidfd: Int32 = -1) {
        self.fd = fd
        self.frameLimit = frameLimit
        self.watched = pidfd
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
                    throw .violation(ProtocolViolation(length <= maximumFrameBytes
                        ? "a frame of \(length) bytes, over the \(frameLimit) its limits allow (max_result_bytes plus framing)"
                        : "a frame of \(length) bytes"))
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
            if start == buffer.count && buffer.capacity > 1 << 20 {
                buffer = [] // a large frame's memory goes back once it is consumed
            } else {
                buffer.removeFirst(start)
            }
            start = 0
        }
        let ended = try waitForInput()
        let chunk = 64 * 1024
        let old = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: chunk))
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress! + old, chunk, ended ? Int32(MSG_DONTWAIT) : 0) }
            if count < 0 && errno == EINTR { continue }
            buffer.removeLast(chunk - max(count, 0))
            if count <= 0 { throw .closed }
            return
        }
    }

    /// Waits until the socket has bytes or the watched process ended; true for the latter
    /// (then only what is already in the socket is read).
    private func waitForInput() throws(End) -> Bool {
        guard watched >= 0 else { return false }
        var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: watched, events: Int16(POLLIN), revents: 0)]
        while true {
            let ready = poll(&fds, 2, -1)
            if ready < 0 && errno == EINTR { continue }
            if ready < 0 { throw .closed }
            if fds[0].revents != 0 { return false }
            return true
        }
    }
}
