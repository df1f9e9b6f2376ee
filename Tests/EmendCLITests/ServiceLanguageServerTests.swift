import EmendTestSupport
import Foundation
import Glibc
import XCTest

/// `emend lsp` through the per-user checker service, with real processes only: two language
/// servers and an `emend proofread` share one service (the same service pid, the same warm
/// host, the checker started once), and a language server whose service was killed starts a
/// new one and its next check succeeds.
final class ServiceLanguageServerTests: XCTestCase {
    private var sandboxes: [CLISandbox] = []
    private var servers: [LanguageServerProcess] = []

    override func tearDown() {
        for server in servers { server.stop() }
        servers = []
        for sandbox in sandboxes { sandbox.run(["service", "stop"]) }
        sandboxes = []
        super.tearDown()
    }

    /// The replay checker (a "teh" → "the" edit) with a service in the sandbox's own runtime directory.
    private func serviceSandbox() throws -> CLISandbox {
        let sandbox = try ReplayChecker.sandbox([("teh", "the", "spelling", "R1", "typo")])
        sandboxes.append(sandbox)
        sandbox.environment["EMEND_SERVICE"] = "on"
        sandbox.environment["XDG_RUNTIME_DIR"] = sandbox.root + "/run"
        sandbox.write("a.txt", "I saw teh cat.\n")
        return sandbox
    }

    /// The pids of the replay checker processes of this sandbox (their command line names its
    /// edits table), from /proc.
    private func checkers(_ sandbox: CLISandbox) -> [Int32] {
        let table = sandbox.root + "/edits.json"
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> Int32? in
            guard let pid = Int32(entry), let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { return nil }
            let arguments = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            return arguments.contains(where: { $0.hasSuffix("replay_checker.py") }) && arguments.contains(table) ? pid : nil
        }
    }

    /// The service's pid and the pid of the process provider's host, from `emend service status`.
    private func service(_ sandbox: CLISandbox, file: StaticString = #filePath, line: UInt = #line) -> (pid: Int32, host: Int32?)? {
        let result = sandbox.run(["service", "status"])
        guard result.status == 0 else { return nil }
        var pid: Int32 = 0, host: Int32?
        for row in result.stdout.split(separator: "\n") {
            if row.hasPrefix("pid "), let value = Int32(row.dropFirst(4).prefix(while: \.isNumber)) { pid = value }
            if row.hasPrefix("host org.emend.process:"), let range = row.range(of: ": pid ") {
                host = Int32(row[range.upperBound...].prefix(while: \.isNumber))
            }
        }
        return (pid, host)
    }

    private func assertTypoFound(_ diagnostics: [[String: Any]]?, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        let found = (diagnostics ?? []).contains { diagnostic in
            let range = diagnostic["range"] as? [String: Any]
            let start = range?["start"] as? [String: Any], end = range?["end"] as? [String: Any]
            return start?["line"] as? Int == 0 && start?["character"] as? Int == 6 && end?["character"] as? Int == 9
        }
        XCTAssertTrue(found, "\(what): no diagnostic on \"teh\": \(diagnostics ?? [])", file: file, line: line)
    }

    func testTwoLanguageServersAndTheCommandShareOneServiceThatIsRestartedWhenKilled() throws {
        let sandbox = try serviceSandbox()
        let uri = "file://" + sandbox.path("a.txt")

        let first = try LanguageServerProcess(sandbox)
        servers.append(first)
        first.initialize()
        first.open(uri, "I saw teh cat.\n")
        assertTypoFound(first.diagnostics(uri, version: 1), "the first language server")
        let service = try XCTUnwrap(self.service(sandbox), "the first language server left no service")
        let host = try XCTUnwrap(service.host, "the service holds no host for the checker")
        XCTAssertNotEqual(service.pid, first.pid, "the checkers run in the language server, not in a service")

        let second = try LanguageServerProcess(sandbox)
        servers.append(second)
        second.initialize()
        second.open(uri, "I saw teh cat.\n")
        assertTypoFound(second.diagnostics(uri, version: 1), "the second language server")

        let command = sandbox.run(["proofread", "a.txt"])
        XCTAssertEqual(command.status, 1, command.stderr)
        XCTAssertTrue(command.stdout.contains("a.txt:1:7: spelling: typo [R1]"), command.stdout + command.stderr)

        let shared = try XCTUnwrap(self.service(sandbox))
        XCTAssertEqual(shared.pid, service.pid, "a second service was started")
        XCTAssertEqual(shared.host, host, "the warm host was not shared")
        let checker = checkers(sandbox)
        XCTAssertEqual(checker.count, 1, "not one checker process for the three front ends: \(checker)")

        // The service is killed: the next check of each language server starts a new one
        // (only one between them) and succeeds.
        XCTAssertEqual(kill(service.pid, SIGKILL), 0)
        first.change(uri, version: 2, text: "Then teh dog.\n")
        let afterKill = first.diagnostics(uri, version: 2)
        let found = (afterKill ?? []).contains { (($0["range"] as? [String: Any])?["start"] as? [String: Any])?["character"] as? Int == 5 }
        XCTAssertTrue(found, "no diagnostic after the service was killed: \(afterKill ?? [])")
        let restarted = try XCTUnwrap(self.service(sandbox), "no service after the restart")
        XCTAssertNotEqual(restarted.pid, service.pid)

        second.change(uri, version: 2, text: "I saw teh cat.\n")
        assertTypoFound(second.diagnostics(uri, version: 2), "the second language server after the restart")
        let after = try XCTUnwrap(self.service(sandbox))
        XCTAssertEqual(after.pid, restarted.pid, "the language servers did not meet in the new service")
        let newChecker = checkers(sandbox)
        XCTAssertEqual(newChecker.count, 1, "not one checker process after the restart: \(newChecker)")
        XCTAssertNotEqual(newChecker, checker, "the killed service's checker is still the one that answers")

        XCTAssertEqual(first.shutdownAndExit(), 0)
        XCTAssertEqual(second.shutdownAndExit(), 0)
        XCTAssertNotNil(self.service(sandbox), "the service ended with its front ends (it waits for its idle time)")
    }
}

/// A real `emend lsp` process over pipes, with the sandbox's environment, spoken to through
/// an LSPConnection (EmendTestSupport: the LSP tests' framing and inbox).
final class LanguageServerProcess: @unchecked Sendable {
    private let process = Process()
    private let connection = LSPConnection()
    private let timeout: TimeInterval = 60

    var pid: Int32 { process.processIdentifier }

    init(_ sandbox: CLISandbox) throws {
        process.executableURL = URL(fileURLWithPath: CLISandbox.executable)
        process.arguments = ["lsp"]
        process.environment = sandbox.environment
        process.currentDirectoryURL = URL(fileURLWithPath: sandbox.root + "/work")
        process.standardInput = connection.toServer
        process.standardOutput = connection.fromServer
        process.standardError = FileHandle.standardError
        try process.run()
        connection.startReading()
    }

    func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    private func request(_ method: String, _ params: Any) -> [String: Any]? {
        connection.response(connection.request(method, params), timeout: timeout)
    }

    func initialize() {
        _ = request("initialize", ["processId": NSNull(), "rootUri": NSNull(), "capabilities": [String: Any]()])
        connection.notify("initialized", [String: Any]())
    }

    func open(_ uri: String, _ text: String) {
        connection.notify("textDocument/didOpen", ["textDocument": ["uri": uri, "languageId": "plaintext", "version": 1, "text": text]])
    }

    func change(_ uri: String, version: Int, text: String) {
        connection.notify("textDocument/didChange", ["textDocument": ["uri": uri, "version": version], "contentChanges": [["text": text]]])
    }

    /// The diagnostics of the last publication for `uri` at `version` that has any (a server
    /// may first publish the edited paragraph, or nothing while it checks).
    func diagnostics(_ uri: String, version: Int, file: StaticString = #filePath, line: UInt = #line) -> [[String: Any]]? {
        let message = connection.publication(uri, version: version, timeout: timeout, file: file, line: line) { !$0.isEmpty }
        return (message?["params"] as? [String: Any])?["diagnostics"] as? [[String: Any]]
    }

    /// shutdown, exit, and the exit status.
    func shutdownAndExit() -> Int32 {
        _ = request("shutdown", NSNull())
        connection.notify("exit", NSNull())
        process.waitUntilExit()
        return process.terminationStatus
    }
}
