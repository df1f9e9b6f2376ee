import EmendTestSupport
import Foundation
import Glibc
import XCTest

/// A small LSP client for tests: it starts the built `emend lsp` (emend-cli next to the
/// test bundle) with private XDG directories and only the built-in fixture provider, and
/// speaks JSON-RPC to it through an LSPConnection (EmendTestSupport: Foundation's JSON, an
/// implementation independent of the server's own). Everything the server sends is kept in
/// an inbox; `wait` takes the first message that matches. Requests the server sends are
/// answered at once (`answers`).
final class LSPTestClient: @unchecked Sendable {
    static let executable: String = {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        var directory = URL(fileURLWithPath: String(decoding: buffer[..<max(count, 0)].map { UInt8(bitPattern: $0) }, as: UTF8.self))
            .deletingLastPathComponent()
        for _ in 0..<3 where !FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent("emend-cli").path) {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("emend-cli").path
    }()

    let root: String
    /// The server process; nil when the server runs in this process (`inProcess`).
    let process: Process?
    private let connection = LSPConnection()
    private let lock = NSCondition()
    private var inProcessStatus: Int32?

    /// Results for requests from the server, by method (default: null).
    var answers: [String: Any] {
        get { connection.answers }
        set { connection.answers = newValue }
    }

    static func sandboxEnvironment(root: String) -> [String: String] {
        [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "HOME": root + "/home", "XDG_CONFIG_HOME": root + "/config", "XDG_DATA_HOME": root + "/data",
            "XDG_CACHE_HOME": root + "/cache", "XDG_STATE_HOME": root + "/state", "EMEND_PROVIDER_PATH": "", "LANG": "C.UTF-8",
            "EMEND_SERVICE": "off", "EMEND_TEST_FIXTURE": "1",
        ]
    }

    static func makeRoot() -> String {
        let root = NSTemporaryDirectory() + "emend-lsp-test-\(UUID().uuidString)"
        try! FileManager.default.createDirectory(atPath: root + "/config/emend", withIntermediateDirectories: true)
        return root
    }

    /// Starts the built `emend lsp`.
    init(environment extra: [String: String] = [:]) {
        root = LSPTestClient.makeRoot()
        var environment = LSPTestClient.sandboxEnvironment(root: root)
        for (key, value) in extra { environment[key] = value }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: LSPTestClient.executable)
        process.arguments = ["lsp"]
        process.environment = environment
        process.standardInput = connection.toServer
        process.standardOutput = connection.fromServer
        process.standardError = FileHandle.standardError
        try! process.run()
        self.process = process
        connection.startReading()
    }

    /// Runs `serve(inputFD, outputFD, root)` on a thread of this process: a server built by
    /// the test (its own providers) over pipes; it returns the exit status.
    init(inProcess serve: @escaping @Sendable (Int32, Int32, String) -> Int32) {
        root = LSPTestClient.makeRoot()
        process = nil
        let (inputFD, outputFD, root) = (connection.toServer.fileHandleForReading.fileDescriptor,
                                         connection.fromServer.fileHandleForWriting.fileDescriptor, self.root)
        let server = Thread { [self] in
            let status = serve(inputFD, outputFD, root)
            lock.lock()
            inProcessStatus = status
            lock.broadcast()
            lock.unlock()
            try? connection.fromServer.fileHandleForWriting.close()
        }
        server.start()
        connection.startReading()
    }

    deinit {
        if let process, process.isRunning { process.terminate() }
        try? FileManager.default.removeItem(atPath: root)
    }

    static func framed(_ object: Any) -> [UInt8] { LSPConnection.framed(object) }

    // MARK: Sending

    func closeInput() { connection.closeInput() }

    func sendRaw(_ bytes: [UInt8]) { connection.sendRaw(bytes) }

    func send(_ object: [String: Any]) { connection.send(object) }

    @discardableResult
    func request(_ method: String, _ params: Any = NSNull()) -> Int { connection.request(method, params) }

    func notify(_ method: String, _ params: Any = NSNull()) { connection.notify(method, params) }

    // MARK: Receiving

    /// The first message (in arrival order) that matches, taken out of the inbox.
    func wait(_ what: String, timeout: TimeInterval = 30, file: StaticString = #filePath, line: UInt = #line,
              _ matches: ([String: Any]) -> Bool) -> [String: Any]? {
        connection.wait(what, timeout: timeout, file: file, line: line, matches)
    }

    func response(_ id: Int, file: StaticString = #filePath, line: UInt = #line) -> [String: Any]? {
        connection.response(id, timeout: 30, file: file, line: line)
    }

    func call(_ method: String, _ params: Any = NSNull(), file: StaticString = #filePath, line: UInt = #line) -> [String: Any]? {
        response(request(method, params), file: file, line: line)
    }

    /// The diagnostics published for `uri` at `version`.
    func diagnostics(_ uri: String, version: Int, file: StaticString = #filePath, line: UInt = #line) -> [[String: Any]] {
        let message = connection.publication(uri, version: version, timeout: 30, file: file, line: line)
        return (message?["params"] as? [String: Any])?["diagnostics"] as? [[String: Any]] ?? []
    }

    /// Messages received and not taken, right now.
    var pending: [[String: Any]] { connection.pending }

    /// The text of the next window/showMessage, which must be a warning (type 2).
    func warning(file: StaticString = #filePath, line: UInt = #line) -> String {
        let message = wait("window/showMessage", file: file, line: line) { $0["method"] as? String == "window/showMessage" }
        let params = message?["params"] as? [String: Any]
        XCTAssertEqual(params?["type"] as? Int, 2, "a warning", file: file, line: line)
        return params?["message"] as? String ?? ""
    }

    // MARK: Conveniences

    @discardableResult
    func initialize(encodings: [String]? = nil, resolve: Bool = true, progress: Bool = false, configuration: Bool = false,
                    options: Any? = nil) -> [String: Any] {
        var capabilities: [String: Any] = [
            "textDocument": ["codeAction": resolve ? ["resolveSupport": ["properties": ["edit"]]] : [String: Any]()],
            "window": ["workDoneProgress": progress],
            "workspace": ["configuration": configuration],
        ]
        if let encodings { capabilities["general"] = ["positionEncodings": encodings] }
        var params: [String: Any] = ["processId": NSNull(), "rootUri": NSNull(), "capabilities": capabilities]
        if let options { params["initializationOptions"] = options }
        let result = call("initialize", params)?["result"] as? [String: Any] ?? [:]
        notify("initialized", [String: Any]())
        return result
    }

    func open(_ uri: String, _ text: String, language: String = "plaintext", version: Int = 1) {
        notify("textDocument/didOpen", ["textDocument": ["uri": uri, "languageId": language, "version": version, "text": text]])
    }

    func change(_ uri: String, version: Int, _ changes: [[String: Any]]) {
        notify("textDocument/didChange", ["textDocument": ["uri": uri, "version": version], "contentChanges": changes])
    }

    /// shutdown, exit, and the exit status.
    func shutdownAndExit(file: StaticString = #filePath, line: UInt = #line) -> Int32 {
        let reply = call("shutdown", file: file, line: line)
        XCTAssertTrue(reply?["result"] is NSNull, "shutdown answers null", file: file, line: line)
        notify("exit")
        return waitForExit()
    }

    func waitForExit(timeout: TimeInterval = 20) -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        guard let process else {
            lock.lock()
            defer { lock.unlock() }
            while inProcessStatus == nil && lock.wait(until: deadline) {}
            XCTAssertNotNil(inProcessStatus, "the server did not end")
            return inProcessStatus ?? -1
        }
        while process.isRunning && Date() < deadline { usleep(5_000) }
        if process.isRunning {
            XCTFail("the server did not exit")
            process.terminate()
        }
        process.waitUntilExit()
        return process.terminationStatus
    }
}

/// LSP positions and ranges as plain values, for comparisons.
func position(_ value: Any?) -> [Int] {
    let p = value as? [String: Any] ?? [:]
    return [p["line"] as? Int ?? -1, p["character"] as? Int ?? -1]
}

func rangeOf(_ value: Any?) -> [[Int]] {
    let r = value as? [String: Any] ?? [:]
    return [position(r["start"]), position(r["end"])]
}

func lspRange(_ l1: Int, _ c1: Int, _ l2: Int, _ c2: Int) -> [String: Any] {
    ["start": ["line": l1, "character": c1], "end": ["line": l2, "character": c2]]
}
