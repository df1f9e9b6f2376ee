import Foundation
import XCTest
import EmendCore
@testable import EmendProviders
import EmendTestSupport

/// Builds the plugins of providers/ with their build.sh (once per test process) and runs
/// helper commands for the process and Harper provider tests.
enum ProcessPlugins {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var built: [String: String] = [:]

    /// providers/process/build.sh: the generic org.emend.process plugin.
    static func generic() throws -> String { try build("process", "process.so") }

    /// providers/harper/build.sh: org.emend.harper, the same code with Harper's command built in.
    static func harper() throws -> String { try build("harper", "harper.so") }
    static func lingoTweaker() throws -> String { try build("lingotweaker", "lingotweaker.so") }

    private static func build(_ provider: String, _ file: String) throws -> String {
        try lock.withLock {
            if let path = built[provider] { return path }
            try TestProcess.run("/bin/sh", ["\(PluginBuilder.repoRoot)/providers/\(provider)/build.sh", PluginBuilder.directory])
            let path = "\(PluginBuilder.directory)/\(file)"
            built[provider] = path
            return path
        }
    }

    /// The absolute path of python3 (no PATH shims between the plugin and the interpreter).
    static let python: String = {
        (try? TestProcess.run("python3", ["-c", "import sys; print(sys.executable)"]))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? "python3"
    }()

    /// A word for a command setting: single-quoted as process.c splits it.
    static func quote(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// The command that runs Tests/Fixtures/process/fake_checker.py.
    static var fakeChecker: String {
        "\(quote(python)) -u \(quote(PluginBuilder.repoRoot + "/Tests/Fixtures/process/fake_checker.py"))"
    }

    /// Waits until `condition` holds or `seconds` pass; returns whether it held.
    @discardableResult
    static func wait(seconds: Double, until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            if Date() >= deadline { return false }
            usleep(10_000)
        }
        return true
    }
}

/// The process provider (providers/process) driven through PluginProvider with a fake checker
/// in Python (Tests/Fixtures/process/fake_checker.py): JSON lines both ways, streamed output,
/// cancel, restarts with back-off, the time limit, stderr in the log, and what the host
/// refuses of the checker's output.
final class ProcessProviderTests: XCTestCase {
    private var path: String { get throws { try ProcessPlugins.generic() } }

    private func provider(settings: [(key: String, value: String)]? = nil,
                          logs: PluginLogCollector = PluginLogCollector()) throws -> PluginProvider {
        PluginProvider(record: try PluginLibrary.load(path: try path).record,
                       settings: settings ?? [(key: "command", value: ProcessPlugins.fakeChecker)], logger: logs.logger)
    }

    private func request(_ text: String = "x", prompt: String? = nil, selection: Range<Int>? = nil,
                         protected: [Range<Int>] = [], language: String = "en-US", previous: String? = nil) -> ProviderRequest {
        ProviderRequest(tool: .proofread, text: text, selection: selection ?? 0..<text.utf8.count, protectedRanges: protected,
                        prompt: prompt, previousResult: previous, language: language)
    }

    /// The checker's process id, asked through a run.
    private func pid(_ provider: PluginProvider, file: StaticString = #filePath, line: UInt = #line) -> Int32? {
        let sink = PluginTestSink()
        XCTAssertEqual(provider.run(request(prompt: "pid"), sink: sink), .finished, file: file, line: line)
        return Int32(sink.text)
    }

    private func isRunning(_ pid: Int32) -> Bool { kill(pid, 0) == 0 }

    /// A cancelled run: the host's own "cancelled", or the plugin's finish with EMEND_E_CANCELLED
    /// when that came first (a refused emit already told the plugin).
    private func assertCancelled(_ outcome: ProviderOutcome, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue([.failed("cancelled"), .failed("org.emend.process: cancelled")].contains(outcome), "\(outcome)", file: file, line: line)
    }

    // MARK: JSON lines

    func testEditsArriveForAProofread() throws {
        let provider = try provider()
        let text = "Fix teh typo, leave `teh` alone, then teh end."
        let sink = PluginTestSink()
        XCTAssertEqual(provider.run(request(text, protected: [byteRange(of: "`teh`", in: text)]), sink: sink), .finished)
        let why = "\"teh\" is a typo for \"the\""
        XCTAssertEqual(sink.edits, [
            ProviderEdit(range: byteRange(of: "teh typo", in: text).lowerBound..<byteRange(of: "teh typo", in: text).lowerBound + 3,
                         replacement: "the", explanation: why, category: "spelling", ruleID: "FAKE_TEH"),
            ProviderEdit(range: byteRange(of: "teh end", in: text).lowerBound..<byteRange(of: "teh end", in: text).lowerBound + 3,
                         replacement: "the", explanation: why, category: "spelling", ruleID: "FAKE_TEH"),
        ])
    }

    func testTheRequestRoundTripsThroughJSON() throws {
        let provider = try provider()
        let text = "Quote \" backslash \\ slash / tab \t newline \n bell \u{07} nul \u{0} é 中文 😀 end"
        let selection = byteRange(of: "é 中文 😀", in: text)
        let protected = byteRange(of: "中文", in: text)
        let prompt = "echo ✓ \"quoted\" \\ 😀"
        let sink = PluginTestSink()
        XCTAssertEqual(provider.run(request(text, prompt: prompt, selection: selection, protected: [protected],
                                            language: "de-CH", previous: "before ✓"), sink: sink), .finished)
        XCTAssertEqual(sink.texts.count, 1)
        let echoed = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(sink.text.utf8)) as? [String: Any])
        XCTAssertEqual(Set(echoed.keys), ["id", "tool", "text", "selection", "language", "protected", "prompt", "previous"])
        XCTAssertEqual(echoed["id"] as? Int, 1)
        XCTAssertEqual(echoed["tool"] as? String, "proofread")
        XCTAssertEqual(echoed["text"] as? String, text)
        XCTAssertEqual(echoed["selection"] as? [Int], [selection.lowerBound, selection.upperBound])
        XCTAssertEqual(echoed["protected"] as? [[Int]], [[protected.lowerBound, protected.upperBound]])
        XCTAssertEqual(echoed["language"] as? String, "de-CH")
        XCTAssertEqual(echoed["prompt"] as? String, prompt)
        XCTAssertEqual(echoed["previous"] as? String, "before ✓")

        // Ids grow; a request without prompt or protected text sends null and [].
        let second = PluginTestSink()
        XCTAssertEqual(provider.run(request("plain", prompt: "echo"), sink: second), .finished)
        let again = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(second.text.utf8)) as? [String: Any])
        XCTAssertEqual(again["id"] as? Int, 2)
        XCTAssertEqual(again["protected"] as? [[Int]], [])
        XCTAssertTrue(again["previous"] is NSNull)
    }

    func testTextIsStreamedInPieces() throws {
        let provider = try provider()
        let sink = PluginTestSink()
        XCTAssertEqual(provider.run(request(prompt: "stream:5:20"), sink: sink), .finished)
        XCTAssertEqual(sink.texts, ["w0 ", "w1 ", "w2 ", "w3 ", "w4 "])
    }

    func testCommandIsSplitWithoutAShell() throws {
        let command = ProcessPlugins.fakeChecker + " 'two words' \"say \\\"hi\\\" \\\\o/\" back\\ slash $HOME '*' 'it'\\''s' ''"
        let provider = try provider(settings: [(key: "command", value: command)])
        let sink = PluginTestSink()
        XCTAssertEqual(provider.run(request(prompt: "argv"), sink: sink), .finished)
        let argv = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(sink.text.utf8)) as? [String])
        XCTAssertEqual(argv, ["two words", "say \"hi\" \\o/", "back slash", "$HOME", "*", "it's", ""])
    }

    /// `arguments` adds words after the command's (options for a checker whose command is
    /// built in, such as Harper's), split as the command is; blank adds nothing.
    func testArgumentsAreAddedAfterTheCommand() throws {
        func argv(_ arguments: String) throws -> [String] {
            let provider = try provider(settings: [(key: "command", value: ProcessPlugins.fakeChecker + " one"),
                                                   (key: "arguments", value: arguments)])
            let sink = PluginTestSink()
            XCTAssertEqual(provider.run(request(prompt: "argv"), sink: sink), .finished)
            return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(sink.text.utf8)) as? [String])
        }
        XCTAssertEqual(try argv("'two words' three"), ["one", "two words", "three"])
        XCTAssertEqual(try argv("  "), ["one"])
        XCTAssertEqual(try createFailure([(key: "command", value: ProcessPlugins.fakeChecker), (key: "arguments", value: "--x 'open")]),
                       "\(try path): create failed with EMEND_E_INVALID_ARGUMENT: arguments \"--x 'open\" cannot be split into words: "
                       + "a ' quote is not closed")
    }

    // MARK: one warm process

    func testOneProcessServesEveryRun() throws {
        let logs = PluginLogCollector()
        let provider = try provider(logs: logs)
        var sinks: [PluginTestSink] = []
        var pids: Set<Int32> = []
        for _ in 0..<5 {
            let sink = PluginTestSink()
            XCTAssertEqual(provider.run(request(prompt: "pid"), sink: sink), .finished)
            pids.insert(try XCTUnwrap(Int32(sink.text)))
            sinks.append(sink)
        }
        XCTAssertEqual(pids.count, 1)
        let lines = sinks.flatMap(\.logs) + logs.all
        XCTAssertEqual(lines.filter { $0.contains("started the checker") }.count, 1, "\(lines)")
        XCTAssertTrue(sinks[0].logs.contains { $0.hasPrefix("org.emend.process: info: started the checker (pid \(pids.first!)): ") },
                      "\(sinks[0].logs)")
    }

    func testTheChildStartsOnTheFirstRunAndStopsWithTheProvider() throws {
        let logs = PluginLogCollector()
        var pid: Int32?
        do {
            let provider = try provider(logs: logs)
            usleep(200_000)
            XCTAssertTrue(logs.all.isEmpty, "nothing starts before a run: \(logs.all)")
            pid = self.pid(provider)
            XCTAssertTrue(isRunning(try XCTUnwrap(pid)))
        }
        XCTAssertFalse(isRunning(try XCTUnwrap(pid)), "the checker is gone once the provider is")
        XCTAssertTrue(logs.all.contains("org.emend.process: info: stderr: fake: stdin closed, leaving"), "\(logs.all)")
    }

    // MARK: cancel

    func testCancelStopsTheRunAtOnceAndTellsTheChecker() throws {
        let logs = PluginLogCollector()
        let provider = try provider(logs: logs)
        let before = pid(provider)
        let sink = PluginTestSink(cancelAfterTexts: 3)
        let started = Date()
        assertCancelled(provider.run(request(prompt: "stream:100:30"), sink: sink))
        XCTAssertLessThan(Date().timeIntervalSince(started), 0.8)
        XCTAssertGreaterThanOrEqual(sink.texts.count, 3)
        XCTAssertLessThan(sink.texts.count, 10)
        XCTAssertTrue(ProcessPlugins.wait(seconds: 3) { logs.all.contains { $0.contains("stderr: fake: stopped request 2 after") } },
                      "the checker saw {\"cancel\":2}: \(logs.all)")
        let delivered = sink.texts.count
        XCTAssertEqual(pid(provider), before, "the same process serves the next run")
        XCTAssertEqual(sink.texts.count, delivered, "nothing arrives after the run returned")
    }

    func testACheckerThatIgnoresCancelIsStoppedAtTheTimeLimit() throws {
        let logs = PluginLogCollector()
        let provider = try provider(settings: [(key: "command", value: ProcessPlugins.fakeChecker), (key: "timeout_ms", value: "1000")],
                                    logs: logs)
        let before = try XCTUnwrap(pid(provider))
        let started = Date()
        assertCancelled(provider.run(request(prompt: "ignore-cancel:200:20"), sink: PluginTestSink(cancelAfterTexts: 2)))
        XCTAssertLessThan(Date().timeIntervalSince(started), 0.5)
        // The next run waits for the checker to be free: the deaf request reaches its time limit,
        // the process is killed and a new one answers. The lines about it go to the waiting run.
        let next = PluginTestSink()
        XCTAssertEqual(provider.run(request(prompt: "pid"), sink: next), .finished)
        XCTAssertNotEqual(Int32(next.text), before)
        XCTAssertLessThan(Date().timeIntervalSince(started), 3)
        XCTAssertFalse(isRunning(before))
        XCTAssertTrue(next.logs.contains("org.emend.process: warning: the checker (pid \(before)) did not answer request 2 within 1000 ms "
                                         + "and was stopped; restarting it in 100 ms"), "\(next.logs)")
    }

    /// The time limit grows with the text, as the combined proofreader's does: timeout_ms for
    /// each 256 KB begun. The same slow answer (three pieces 500 ms apart) is past the limit
    /// of a short request and within that of a 600 KB one (three times timeout_ms).
    func testTheTimeLimitGrowsWithTheText() throws {
        let provider = try provider(settings: [(key: "command", value: ProcessPlugins.fakeChecker), (key: "timeout_ms", value: "1000")])
        let short = PluginTestSink()
        XCTAssertEqual(provider.run(request(prompt: "stream:3:500"), sink: short),
                       .failed("org.emend.process: the checker did not answer within 1000 ms (it was stopped and is restarted; "
                               + "raise timeout_ms in [providers.\"org.emend.process\"] of config.toml to give it longer)"))
        let long = PluginTestSink()
        let text = String(repeating: "Words of a long file. ", count: 600 * 1024 / 22)
        XCTAssertGreaterThan(text.utf8.count, 2 * 256 * 1024)
        XCTAssertEqual(provider.run(request(text, prompt: "stream:3:500"), sink: long), .finished, "\(long.logs)")
        XCTAssertEqual(long.text, "w0 w1 w2 ")
    }

    // MARK: crashes and the time limit

    func testACrashFailsTheRunAndTheCheckerIsRestartedWithBackOff() throws {
        let logs = PluginLogCollector()
        let provider = try provider(logs: logs)
        let first = try XCTUnwrap(pid(provider))

        let crash = PluginTestSink()
        XCTAssertEqual(provider.run(request(prompt: "crash"), sink: crash),
                       .failed("org.emend.process: the checker exited with status 3 during the request (it is restarted)"))
        XCTAssertTrue(crash.logs.contains("org.emend.process: info: stderr: fake: crashing on purpose"), "\(crash.logs)")
        XCTAssertTrue(crash.logs.contains("org.emend.process: warning: the checker (pid \(first)) exited with status 3; restarting it in 100 ms"),
                      "\(crash.logs)")

        // Crashing again at once: the run waits for the restart, and the back-off doubles.
        let started = Date()
        let again = PluginTestSink()
        XCTAssertEqual(provider.run(request(prompt: "crash"), sink: again),
                       .failed("org.emend.process: the checker exited with status 3 during the request (it is restarted)"))
        XCTAssertGreaterThan(Date().timeIntervalSince(started), 0.05)
        XCTAssertTrue(again.logs.contains { $0.hasSuffix("exited with status 3; restarting it in 200 ms") }, "\(again.logs)")

        // The next run works, in a new process.
        let afterCrashes = Date()
        let second = try XCTUnwrap(pid(provider))
        XCTAssertNotEqual(second, first)
        XCTAssertGreaterThan(Date().timeIntervalSince(afterCrashes), 0.1, "the back-off was 200 ms")
        XCTAssertFalse(isRunning(first))

        // An answered request resets the back-off.
        let third = PluginTestSink()
        XCTAssertEqual(provider.run(request(prompt: "crash"), sink: third),
                       .failed("org.emend.process: the checker exited with status 3 during the request (it is restarted)"))
        XCTAssertTrue(third.logs.contains { $0.hasSuffix("exited with status 3; restarting it in 100 ms") }, "\(third.logs)")
        XCTAssertNotNil(pid(provider))
    }

    func testACheckerThatLeavesBetweenRequestsIsRestartedInTheBackground() throws {
        let logs = PluginLogCollector()
        let provider = try provider(logs: logs)
        XCTAssertEqual(provider.run(request(prompt: "exit-idle"), sink: PluginTestSink()), .finished)
        XCTAssertTrue(ProcessPlugins.wait(seconds: 5) { logs.all.contains { $0.contains("stderr: fake checker started") } },
                      "restarted before any request asked: \(logs.all)")
        XCTAssertTrue(logs.all.contains { $0.contains("exited with status 0; restarting it in 100 ms") }, "\(logs.all)")
        XCTAssertEqual(logs.all.filter { $0.contains("info: started the checker") }.count, 1, "\(logs.all)")
        let sink = PluginTestSink()
        XCTAssertEqual(provider.run(request(prompt: "pid"), sink: sink), .finished)
        XCTAssertFalse(sink.logs.contains { $0.contains("started the checker") }, "the run found it warm: \(sink.logs)")
    }

    func testARequestPastTheTimeLimitFailsAndTheCheckerIsReplaced() throws {
        let provider = try provider(settings: [(key: "command", value: ProcessPlugins.fakeChecker), (key: "timeout_ms", value: "1000")])
        let before = try XCTUnwrap(pid(provider))
        let started = Date()
        let sink = PluginTestSink()
        XCTAssertEqual(provider.run(request(prompt: "hang"), sink: sink),
                       .failed("org.emend.process: the checker did not answer within 1000 ms (it was stopped and is restarted; "
                               + "raise timeout_ms in [providers.\"org.emend.process\"] of config.toml to give it longer)"))
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertGreaterThan(elapsed, 0.9)
        XCTAssertLessThan(elapsed, 3)
        XCTAssertTrue(sink.logs.contains("org.emend.process: info: stderr: fake: hanging"), "\(sink.logs)")
        XCTAssertTrue(sink.logs.contains { $0.hasPrefix("org.emend.process: warning: the checker (pid \(before)) did not answer request 2 within 1000 ms") },
                      "\(sink.logs)")
        XCTAssertFalse(isRunning(before))
        let after = try XCTUnwrap(pid(provider))
        XCTAssertNotEqual(after, before)
    }

    // MARK: the log

    func testStderrGoesToTheLogLineByLine() throws {
        let provider = try provider()
        let sink = PluginTestSink()
        XCTAssertEqual(provider.run(request(prompt: "stderr"), sink: sink), .finished)
        let stderr = sink.logs.filter { $0.contains(": stderr: ") }
        XCTAssertEqual(Array(stderr.suffix(3)), ["org.emend.process: info: stderr: fake: first line",
                                                 "org.emend.process: info: stderr: fake: ünïcödé line",
                                                 "org.emend.process: info: stderr: fake: third line"])
        XCTAssertTrue(stderr.first?.hasPrefix("org.emend.process: info: stderr: fake checker started (pid ") == true, "\(stderr)")
    }

    // MARK: what the checker sends against the rules

    func testBadOutputOfTheCheckerIsDroppedAndGoodOutputKept() throws {
        let path = try path
        let provider = try provider()
        let text = "héllo wörld end"
        let sink = PluginTestSink()
        XCTAssertEqual(provider.run(request(text, prompt: "bad-edits"), sink: sink), .finished)
        XCTAssertEqual(sink.edits, [ProviderEdit(range: 0..<6, replacement: "Hello", ruleID: "GOOD"),
                                    ProviderEdit(range: 7..<13, replacement: "wörld 😀", ruleID: "GOOD")])
        XCTAssertTrue(sink.texts.isEmpty)
        let host = sink.logs.filter { $0.hasPrefix(path + ": dropped") }
        XCTAssertEqual(host, [
            "\(path): dropped the edit at 7..<13: its text is not valid UTF-8 (EMEND_E_INVALID_UTF8)",
            "\(path): dropped the edit at 7..<13: its text is not valid UTF-8 (EMEND_E_INVALID_UTF8)",
            "\(path): dropped the edit at 14..<9999: it is outside the selection 0..<17 (EMEND_E_RANGE)",
            "\(path): dropped the edit at 9..<13: it splits a character (EMEND_E_RANGE)",
            "\(path): dropped the edit at 3..<5: it overlaps the earlier edit at 0..<6 (EMEND_E_RANGE)",
            "\(path): dropped emitted text that is not valid UTF-8 (4 bytes) (EMEND_E_INVALID_UTF8)",
        ])
        XCTAssertEqual(sink.logs.filter { $0.contains("warning: dropped an edit without a replacement and non-negative integer start and end") }.count,
                       3, "\(sink.logs)")
    }

    func testLinesThatAreNoAnswersAreIgnored() throws {
        let provider = try provider()
        let sink = PluginTestSink()
        XCTAssertEqual(provider.run(request(prompt: "garbage"), sink: sink), .finished)
        XCTAssertEqual(sink.texts, ["ok"])
        let warnings = sink.logs.filter { $0.contains("warning: ignored a line from the checker") }
        XCTAssertEqual(warnings.count, 3, "\(sink.logs)")
        XCTAssertTrue(warnings[0].hasSuffix(": this is not json"), warnings[0])
        XCTAssertTrue(warnings[1].contains("(no integer id)"), warnings[1])
        XCTAssertTrue(warnings[2].contains("(no edit, text, done or error)"), warnings[2])
        XCTAssertTrue(sink.logs.contains("org.emend.process: debug: ignored a line for request 99999, which is not in the checker"),
                      "\(sink.logs)")
    }

    func testAnErrorFromTheCheckerFailsTheRun() throws {
        let provider = try provider()
        XCTAssertEqual(provider.run(request(prompt: "error"), sink: PluginTestSink()), .failed("org.emend.process: the checker says no"))
        XCTAssertEqual(provider.run(request("teh", prompt: nil), sink: PluginTestSink()), .finished, "the checker goes on")
    }

    // MARK: settings

    private func createFailure(_ settings: [(key: String, value: String)]) throws -> String {
        guard case .failed(let reason) = try provider(settings: settings).run(request(), sink: PluginTestSink()) else {
            XCTFail("the run did not fail")
            return ""
        }
        return reason
    }

    func testSettingsAreChecked() throws {
        let path = try path
        XCTAssertEqual(try createFailure([]), "\(path): create failed with EMEND_E_INVALID_ARGUMENT: the setting \"command\" is required: "
                       + "the checker to run, e.g. command = \"python3 -u /path/to/checker.py\"")
        XCTAssertEqual(try createFailure([(key: "command", value: "no-such-checker-here --x")]),
                       "\(path): create failed with EMEND_E_PROVIDER: the checker \"no-such-checker-here\" is not found on PATH")
        XCTAssertEqual(try createFailure([(key: "command", value: "/nonexistent/checker")]),
                       "\(path): create failed with EMEND_E_PROVIDER: the checker \"/nonexistent/checker\" is not an executable file")
        XCTAssertEqual(try createFailure([(key: "command", value: "python3 'open")]),
                       "\(path): create failed with EMEND_E_INVALID_ARGUMENT: command \"python3 'open\" cannot be split into words: a ' quote is not closed")
        XCTAssertEqual(try createFailure([(key: "command", value: "   ")]),
                       "\(path): create failed with EMEND_E_INVALID_ARGUMENT: command \"   \" cannot be split into words: it is empty")
        XCTAssertEqual(try createFailure([(key: "command", value: "[python3, checker.py]")]),
                       "\(path): create failed with EMEND_E_INVALID_ARGUMENT: command must be a string such as \"python3 -u checker.py\", "
                       + "not an array (its quoting would be lost)")
        XCTAssertEqual(try createFailure([(key: "command", value: ProcessPlugins.fakeChecker), (key: "timeout_ms", value: "0")]),
                       "\(path): create failed with EMEND_E_INVALID_ARGUMENT: timeout_ms must be a number from 1 to 3600000, not \"0\"")
    }

    func testUnknownSettingIsLoggedAtCreate() throws {
        let logs = PluginLogCollector()
        let provider = try provider(settings: [(key: "command", value: ProcessPlugins.fakeChecker), (key: "colour", value: "blue")], logs: logs)
        XCTAssertEqual(provider.run(request("fine"), sink: PluginTestSink()), .finished)
        XCTAssertEqual(logs.all.first, "org.emend.process: warning: unknown setting \"colour\" ignored")
    }
}
