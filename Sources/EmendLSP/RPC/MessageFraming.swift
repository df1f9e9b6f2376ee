import Glibc

/// What the reader got from the stream: a message body, a framing error the server answers
/// with a parse error (then goes on with the next message), or the end of input.
public enum FramedInput: Sendable {
    case body([UInt8])
    case broken(String)
    case end
}

/// Reads LSP base-protocol frames (`Content-Length: N\r\n` headers, a blank line, N bytes)
/// from a file descriptor. Why its own buffer: a frame may arrive in pieces or several in one
/// read, and the body is kept as bytes so invalid UTF-8 is reported, not replaced.
public final class FrameReader {
    private let fd: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEnd = false
    /// A frame larger than this is refused (the document limit of a sane editor is far below).
    public static let maximumBody = 512 * 1024 * 1024

    public init(fd: Int32) { self.fd = fd }

    /// Blocks until a whole frame (or the end) is there.
    public func next() -> FramedInput {
        while true {
            if let header = headerEnd() {
                let headerText = String(decoding: buffer[start..<header.lowerBound], as: UTF8.self)
                switch Self.contentLength(headerText) {
                case .failure(let problem):
                    start = header.upperBound
                    return .broken(problem.reason)
                case .success(let length):
                    guard length <= Self.maximumBody else {
                        start = header.upperBound
                        return .broken("Content-Length \(length) is larger than \(Self.maximumBody)")
                    }
                    while buffer.count - header.upperBound < length && !atEnd { fill() }
                    guard buffer.count - header.upperBound >= length else { return .end }
                    let body = Array(buffer[header.upperBound..<header.upperBound + length])
                    start = header.upperBound + length
                    compact()
                    return .body(body)
                }
            }
            if atEnd { return .end }
            fill()
        }
    }

    /// The range of the "\r\n\r\n" that ends the headers starting at `start`.
    private func headerEnd() -> Range<Int>? {
        var i = start
        while i + 3 < buffer.count {
            if buffer[i] == 0x0D && buffer[i + 1] == 0x0A && buffer[i + 2] == 0x0D && buffer[i + 3] == 0x0A {
                return i..<(i + 4)
            }
            i += 1
        }
        return nil
    }

    static func contentLength(_ headers: String) -> Result<Int, FrameProblem> {
        var length: Int?
        for line in headers.split(separator: "\r\n", omittingEmptySubsequences: true) {
            guard let colon = line.firstIndex(of: ":") else { return .failure(FrameProblem(reason: "header line without ':': \(line)")) }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].drop(while: { $0 == " " || $0 == "\t" })
            if name == "content-length" {
                guard let parsed = Int(value.trimmingSuffix(" ")), parsed >= 0 else {
                    return .failure(FrameProblem(reason: "Content-Length is not a number: \(value)"))
                }
                length = parsed
            }
        }
        guard let length else { return .failure(FrameProblem(reason: "a frame without Content-Length")) }
        return .success(length)
    }

    private func fill() {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { atEnd = true; return }
            buffer.append(contentsOf: chunk[..<n])
            return
        }
    }

    private func compact() {
        if start > 1 << 20 || start == buffer.count {
            buffer.removeFirst(start)
            start = 0
        }
    }
}

extension Substring {
    fileprivate func trimmingSuffix(_ character: Character) -> Substring {
        var s = self
        while s.last == character { s = s.dropLast() }
        return s
    }
}

/// Writes frames to a file descriptor. One writer per process; callers serialise (only the
/// server's loop writes).
public final class FrameWriter {
    private let fd: Int32
    public init(fd: Int32) { self.fd = fd }

    /// Writes one message; false when the client went away (a closed pipe).
    @discardableResult
    public func send(_ message: JSON) -> Bool {
        send(bytes: JSONWriter.bytes(message))
    }

    /// Writes one message already encoded as JSON (header and body in two writes: no copy
    /// of a megabyte of diagnostics just to put a line in front of it).
    @discardableResult
    public func send(bytes body: [UInt8]) -> Bool {
        writeAll(Array("Content-Length: \(body.count)\r\n\r\n".utf8)) && writeAll(body)
    }

    private func writeAll(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            offset += n
        }
        return true
    }
}

/// Why a frame's headers cannot be read.
struct FrameProblem: Error {
    let reason: String
}
