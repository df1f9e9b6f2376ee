import Foundation
import XCTest

/// The test side of a language server's JSON-RPC over two pipes, in LSP's framing
/// (`Content-Length` headers), with Foundation's JSON: an implementation independent of the
/// server's own. A thread reads everything the server sends into an inbox; `wait` takes the
/// first message that matches. Requests the server sends are answered at once (`answers`).
/// The LSP tests' client and the CLI tests' language servers through the service both speak
/// through it, so that the framing is written once.
public final class LSPConnection: @unchecked Sendable {
    /// The server reads its reading end; `send` writes to it.
    public let toServer = Pipe()
    /// The server writes to its writing end; the thread started by `startReading` reads it.
    public let fromServer = Pipe()
    private let lock = NSCondition()
    private var inbox: [[String: Any]] = []
    private var ended = false
    private var nextID = 1
    private var answersByMethod: [String: Any] = [:]

    public init() {}

    /// Results for requests from the server, by method (default: null).
    public var answers: [String: Any] {
        get {
            lock.lock()
            defer { lock.unlock() }
            return answersByMethod
        }
        set {
            lock.lock()
            answersByMethod = newValue
            lock.unlock()
        }
    }

    /// Starts the thread that reads the server's frames until its output ends.
    public func startReading() {
        Thread { [self] in readLoop() }.start()
    }

    private func readLoop() {
        let handle = fromServer.fileHandleForReading
        var buffer: [UInt8] = []
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            buffer += chunk
            while let (message, used) = LSPConnection.frame(in: buffer) {
                buffer.removeFirst(used)
                if let method = message["method"] as? String, let id = message["id"] {
                    send(["jsonrpc": "2.0", "id": id, "result": answers[method] ?? NSNull()])
                }
                lock.lock()
                inbox.append(message)
                lock.broadcast()
                lock.unlock()
            }
        }
        lock.lock()
        ended = true
        lock.broadcast()
        lock.unlock()
    }

    /// One frame parsed from the front of `buffer`, with the bytes it used; nil while it is
    /// incomplete. A frame without Content-Length or whose body is not JSON fails the test.
    public static func frame(in buffer: [UInt8]) -> ([String: Any], Int)? {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = (0..<max(0, buffer.count - 3)).first(where: { Array(buffer[$0..<$0 + 4]) == separator }) else { return nil }
        let header = String(decoding: buffer[..<end], as: UTF8.self)
        guard let lengthLine = header.split(separator: "\r\n").first(where: { $0.lowercased().hasPrefix("content-length:") }),
              let length = Int(lengthLine.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) else {
            XCTFail("a frame without Content-Length: \(header)")
            return nil
        }
        guard buffer.count >= end + 4 + length else { return nil }
        let body = Data(buffer[(end + 4)..<(end + 4 + length)])
        guard let message = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] else {
            XCTFail("not JSON: \(String(decoding: body, as: UTF8.self))")
            return nil
        }
        return (message, end + 4 + length)
    }

    /// `object` as JSON behind its Content-Length header.
    public static func framed(_ object: Any) -> [UInt8] {
        let body = try! JSONSerialization.data(withJSONObject: object)
        return Array("Content-Length: \(body.count)\r\n\r\n".utf8) + Array(body)
    }

    // MARK: Sending

    public func closeInput() { try? toServer.fileHandleForWriting.close() }

    public func sendRaw(_ bytes: [UInt8]) {
        toServer.fileHandleForWriting.write(Data(bytes))
    }

    public func send(_ object: [String: Any]) { sendRaw(LSPConnection.framed(object)) }

    /// Sends a request and returns its id.
    @discardableResult
    public func request(_ method: String, _ params: Any = NSNull()) -> Int {
        lock.lock()
        let id = nextID
        nextID += 1
        lock.unlock()
        send(["jsonrpc": "2.0", "id": id, "method": method, "params": params])
        return id
    }

    public func notify(_ method: String, _ params: Any = NSNull()) {
        send(["jsonrpc": "2.0", "method": method, "params": params])
    }

    // MARK: Receiving

    /// The first message (in arrival order) that matches, taken out of the inbox; nil (and a
    /// failure) when none came within `timeout` seconds or the server's output ended.
    public func wait(_ what: String, timeout: TimeInterval, file: StaticString = #filePath, line: UInt = #line,
                     _ matches: ([String: Any]) -> Bool) -> [String: Any]? {
        let deadline = Date().addingTimeInterval(timeout)
        lock.lock()
        defer { lock.unlock() }
        while true {
            if let index = inbox.firstIndex(where: matches) { return inbox.remove(at: index) }
            if ended || !lock.wait(until: deadline) {
                XCTFail("no \(what) within \(timeout) s; inbox: \(inbox.map { "\($0)".prefix(300) })", file: file, line: line)
                return nil
            }
        }
    }

    /// The response to the request `id`.
    public func response(_ id: Int, timeout: TimeInterval, file: StaticString = #filePath, line: UInt = #line) -> [String: Any]? {
        wait("response to \(id)", timeout: timeout, file: file, line: line) { ($0["id"] as? Int) == id && $0["method"] == nil }
    }

    /// The first textDocument/publishDiagnostics for `uri` at `version` whose diagnostics pass
    /// `accept`: the whole message.
    public func publication(_ uri: String, version: Int, timeout: TimeInterval, file: StaticString = #filePath, line: UInt = #line,
                            accept: @escaping ([Any]) -> Bool = { _ in true }) -> [String: Any]? {
        wait("diagnostics of \(uri) v\(version)", timeout: timeout, file: file, line: line) { message in
            guard message["method"] as? String == "textDocument/publishDiagnostics",
                  let params = message["params"] as? [String: Any] else { return false }
            return params["uri"] as? String == uri && params["version"] as? Int == version
                && accept((params["diagnostics"] as? [Any]) ?? [])
        }
    }

    /// Messages received and not taken, right now.
    public var pending: [[String: Any]] {
        lock.lock()
        defer { lock.unlock() }
        return inbox
    }
}
