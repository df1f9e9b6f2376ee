import Foundation
import Glibc
import XCTest
import EmendTestSupport

/// The per-user checker service through the real `emend` command, a real plugin found by
/// discovery (the process provider running the replay checker) and real processes: each test
/// has a runtime directory of its own (so its own service) and stops it at the end.
final class ServiceTests: XCTestCase {
    private var sandboxes: [CLISandbox] = []

    override func tearDown() {
        for sandbox in sandboxes { sandbox.run(["service", "stop"]) }
        sandboxes = []
        super.tearDown()
    }

    /// A sandbox whose `emend` proofreads with the replay checker (a "teh" → "the" edit)
    /// through a service in its own runtime directory.
    private func serviceSandbox(config: String = "") throws -> CLISandbox {
        let sandbox = try ReplayChecker.sandbox([("teh", "the", "spelling", "R1", "typo")], config: config)
        sandbox.environment["EMEND_SERVICE"] = "on"
        sandbox.environment["XDG_RUNTIME_DIR"] = sandbox.root + "/run"
        sandbox.write("a.txt", "I saw teh cat.\n")
        sandboxes.append(sandbox)
        return sandbox
    }

    private var socketPath: (CLISandbox) -> String { { $0.root + "/run/emend/service.sock" } }

    /// The service's status: its pid, its identity line and each host's pid by provider id.
    private func status(_ sandbox: CLISandbox) -> (pid: Int32, identity: String, hosts: [String: Int32], text: String)? {
        let result = sandbox.run(["service", "status"])
        guard result.status == 0 else { return nil }
        var pid: Int32 = 0, identity = "", hosts: [String: Int32] = [:]
        for line in result.stdout.split(separator: "\n") {
            if line.hasPrefix("pid "), let value = Int32(line.dropFirst(4).prefix(while: \.isNumber)) { pid = value }
            if line.hasPrefix("identity: ") { identity = String(line.dropFirst(10)) }
            if line.hasPrefix("host "), let colon = line.firstIndex(of: ":"),
               let range = line.range(of: ": pid "), let value = Int32(line[range.upperBound...].prefix(while: \.isNumber)) {
                hosts[String(line[line.index(line.startIndex, offsetBy: 5)..<colon])] = value
            }
        }
        return (pid, identity, hosts, result.stdout)
    }

    private func assertFindsTypo(_ result: CLISandbox.Result, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(result.status, 1, result.stderr, file: file, line: line)
        XCTAssertTrue(result.stdout.contains("a.txt:1:7: spelling: typo [R1]"), result.stdout + result.stderr, file: file, line: line)
    }

    func testTwoFrontEndsShareOneServiceAndItsWarmHost() throws {
        let sandbox = try serviceSandbox()
        let cold = Date()
        assertFindsTypo(sandbox.run(["proofread", "a.txt"]))
        let coldSeconds = Date().timeIntervalSince(cold)
        let first = try XCTUnwrap(status(sandbox), "the first run left no service")
        let host = try XCTUnwrap(first.hosts["org.emend.process"], first.text)
        // Two front ends at once, then one more: all in the same service, on the same host.
        let a = sandbox.launch(["proofread", "a.txt"]), b = sandbox.launch(["proofread", "a.txt"])
        a.process.waitUntilExit()
        b.process.waitUntilExit()
        assertFindsTypo(a.result())
        assertFindsTypo(b.result())
        let warm = Date()
        assertFindsTypo(sandbox.run(["proofread", "a.txt"]))
        let warmSeconds = Date().timeIntervalSince(warm)
        let later = try XCTUnwrap(status(sandbox))
        XCTAssertEqual(later.pid, first.pid, "a second service was started")
        XCTAssertEqual(later.hosts["org.emend.process"], host, "the warm host was not reused:\n\(later.text)")
        XCTAssertTrue(later.text.contains("4 served"), later.text)
        print("service: cold run \(Int(coldSeconds * 1000)) ms, warm run \(Int(warmSeconds * 1000)) ms")
    }

    /// An editor's language server and a terminal's command differ in variables no checker
    /// reads (TERM: an editor's child has "dumb", a terminal "xterm-256color"); they share
    /// the one host all the same (their hosts were keyed on it: two of each checker).
    func testFrontEndsWhoseTerminalsDifferShareTheHost() throws {
        let sandbox = try serviceSandbox()
        sandbox.environment["TERM"] = "xterm-256color"
        assertFindsTypo(sandbox.run(["proofread", "a.txt"]))
        sandbox.environment["TERM"] = "dumb"
        assertFindsTypo(sandbox.run(["proofread", "a.txt"]))
        let later = try XCTUnwrap(status(sandbox))
        let hosts = later.text.split(separator: "\n").filter { $0.hasPrefix("host org.emend.process:") }
        XCTAssertEqual(hosts.count, 1, later.text)
    }

    func testAKilledServiceIsRestartedAndTheRunSucceeds() throws {
        let sandbox = try serviceSandbox()
        assertFindsTypo(sandbox.run(["proofread", "a.txt"]))
        let first = try XCTUnwrap(status(sandbox))
        XCTAssertEqual(kill(first.pid, SIGKILL), 0)
        // Its socket stays behind, with no one listening.
        XCTAssertTrue(FileManager.default.fileExists(atPath: socketPath(sandbox)))
        assertFindsTypo(sandbox.run(["proofread", "a.txt"]))
        let second = try XCTUnwrap(status(sandbox), "no service after the restart")
        XCTAssertNotEqual(second.pid, first.pid)
        XCTAssertNotNil(second.hosts["org.emend.process"], second.text)
    }

    /// The service dies while a run is in the host it held: the front end starts a new
    /// service and runs it again, once, and says what happened.
    func testAServiceKilledDuringARunIsRestartedAndTheRunIsRetried() throws {
        let sandbox = try serviceSandbox()
        // The replay checker behind a wrapper that takes two seconds to start, so that the
        // first run is still in the host when the service is killed.
        let wrapper = sandbox.write("slow.py", "import time, runpy, sys\ntime.sleep(2)\nsys.argv = sys.argv[1:]\nrunpy.run_path(sys.argv[0], run_name=\"__main__\")\n")
        let config = sandbox.root + "/config/emend/config.toml"
        let text = try String(contentsOfFile: config, encoding: .utf8)
            .replacingOccurrences(of: "command = \"python3 -u '", with: "command = \"python3 -u '\(wrapper)' '")
        try text.write(toFile: config, atomically: true, encoding: .utf8)
        sandbox.environment["EMEND_LOG"] = "1"
        let running = sandbox.launch(["proofread", "a.txt"])
        var first: (pid: Int32, identity: String, hosts: [String: Int32], text: String)?
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if let now = status(sandbox), now.text.contains("1 run(s) in flight") { first = now; break }
            usleep(20_000)
        }
        let dying = try XCTUnwrap(first, "the run never reached the service's host")
        XCTAssertEqual(kill(dying.pid, SIGKILL), 0)
        running.process.waitUntilExit()
        let result = running.result()
        assertFindsTypo(result)
        XCTAssertTrue(result.stderr.contains("ended with the emend checker service that held it"), result.stderr)
        let second = try XCTUnwrap(status(sandbox), "no service after the retry")
        XCTAssertNotEqual(second.pid, dying.pid)
    }

    func testAnUpgradeReplacesAServiceOfAnotherBuild() throws {
        let sandbox = try serviceSandbox()
        // Another build of the host: another file, so another identity.
        let host = URL(fileURLWithPath: CLISandbox.executable).deletingLastPathComponent().appendingPathComponent("emend-provider-host").path
        let old = sandbox.root + "/old-emend-provider-host"
        try FileManager.default.copyItem(atPath: host, toPath: old)
        let environment = sandbox.environment
        sandbox.environment["EMEND_PROVIDER_HOST"] = old
        assertFindsTypo(sandbox.run(["proofread", "a.txt"]))
        sandbox.environment = environment
        let before = try XCTUnwrap(status(sandbox))
        XCTAssertTrue(before.identity.contains(old), before.text)

        assertFindsTypo(sandbox.run(["proofread", "a.txt"]))
        let after = try XCTUnwrap(status(sandbox))
        XCTAssertNotEqual(after.pid, before.pid, "the old service kept serving")
        XCTAssertFalse(after.identity.contains(old), after.text)
        XCTAssertTrue(after.identity.contains(host) || after.identity.contains("/emend-provider-host "), after.text)
    }

    func testTheServiceExitsAfterItsIdleTime() throws {
        let sandbox = try serviceSandbox(config: "[service]\nidle_timeout_ms = 300")
        assertFindsTypo(sandbox.run(["proofread", "a.txt"]))
        let deadline = Date().addingTimeInterval(20)
        while FileManager.default.fileExists(atPath: socketPath(sandbox)) && Date() < deadline { usleep(20_000) }
        XCTAssertFalse(FileManager.default.fileExists(atPath: socketPath(sandbox)), "the idle service did not exit")
        XCTAssertNil(status(sandbox))
    }

    func testEMEND_SERVICE_offRunsTheHostsInTheProcess() throws {
        let sandbox = try serviceSandbox()
        sandbox.environment["EMEND_SERVICE"] = "off"
        assertFindsTypo(sandbox.run(["proofread", "a.txt"]))
        XCTAssertFalse(FileManager.default.fileExists(atPath: socketPath(sandbox)), "a service was started")
        XCTAssertEqual(sandbox.run(["service", "status"]).status, 1)
    }

    /// Another uid that reaches the socket (its directory opened up on purpose) is hung up
    /// on before it gets a word: the service checks the peer's credentials, not only the
    /// directory's mode. The same request from this uid is answered.
    func testASecondUsersConnectionIsRefused() throws {
        guard getuid() == 0 else { throw XCTSkip("needs root to connect as another uid") }
        let sandbox = try serviceSandbox()
        assertFindsTypo(sandbox.run(["proofread", "a.txt"]))
        let socket = socketPath(sandbox)
        XCTAssertEqual(chmod(sandbox.root, 0o755), 0)
        XCTAssertEqual(chmod(sandbox.root + "/run", 0o755), 0)
        XCTAssertEqual(chmod(sandbox.root + "/run/emend", 0o755), 0)
        XCTAssertEqual(chmod(socket, 0o777), 0)
        // HELLO asking for the status: protocol 1, an empty identity, purpose 2. The connect
        // itself must work (the filesystem lets the other uid in); what it gets back is the test.
        let probe = """
            import os, socket, struct, sys
            if sys.argv[2] != "same":
                os.setgid(65534); os.setuid(65534)
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(sys.argv[1])
            data = b""
            try:
                s.sendall(struct.pack("<IBIIB", 10, 16, 1, 0, 2))
                while True:
                    chunk = s.recv(4096)
                    if not chunk: break
                    data += chunk
            except (BrokenPipeError, ConnectionResetError):
                pass
            print(len(data))
            """
        let same = try TestProcess.shell("python3 -c '\(probe)' '\(socket)' same")
        XCTAssertGreaterThan(Int(same.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0, 0, "the user's own request was not answered")
        let other = try TestProcess.shell("python3 -c '\(probe)' '\(socket)' other")
        XCTAssertEqual(other.trimmingCharacters(in: .whitespacesAndNewlines), "0", "another uid got an answer")
        XCTAssertNotNil(status(sandbox), "the service went away")
    }
}
