import Foundation
import XCTest
import EmendCore
@testable import EmendLSP

/// Last keystroke → updated diagnostics: the paragraph the user changed is checked ahead of
/// the rest of a long check and published the moment its findings come, and the pause before
/// a keystroke's check adapts to how fast the checkers answer.
final class KeystrokeFirstTests: XCTestCase {
    /// A checker whose runs wait for a permit, except runs of text with "Zebra" in it (the
    /// paragraph the test edits); it records the order of what it checked.
    final class GatedChecker: WritingProvider, @unchecked Sendable {
        let id = "org.emend.test.gated"
        let tools: Set<WritingTool> = [.proofread]
        private let condition = NSCondition()
        private var permits = 0
        private(set) var order: [String] = []

        func release(_ count: Int) {
            condition.lock()
            permits += count
            condition.broadcast()
            condition.unlock()
        }

        var checked: [String] {
            condition.lock()
            defer { condition.unlock() }
            return order
        }

        func run(_ request: ProviderRequest, sink: ProviderSink) -> ProviderOutcome {
            condition.lock()
            if !request.text.contains("Zebra") {
                while permits == 0 && !sink.isCancelled { _ = condition.wait(until: Date().addingTimeInterval(0.05)) }
                if permits > 0 { permits -= 1 }
            }
            order.append(request.text.contains("Zebra") ? "edited" : "batch")
            condition.unlock()
            return FixtureProvider().run(request, sink: sink)
        }
    }

    private func serverClient(_ provider: WritingProvider) -> LSPTestClient {
        LSPTestClient(inProcess: { input, output, root in
            var configuration = ServerConfiguration(version: "test", environment: LSPTestClient.sandboxEnvironment(root: root),
                                                    makeCatalog: { .success(ProviderList([provider])) })
            configuration.input = input
            configuration.output = output
            return LanguageServer(configuration: configuration).run()
        })
    }

    func testTheChangedParagraphGoesAheadOfALongCheckAndIsPublishedAtOnce() {
        let checker = GatedChecker()
        let client = serverClient(checker)
        client.initialize()   // no debounceMs: the adaptive pause
        let uri = "file:///long.txt"
        // 60 paragraphs of about 1 KB: four batches of 16 KB.
        let paragraph = String(repeating: "This sentence is fine and long enough to fill some room. ", count: 18)
        var lines = (0..<60).map { "\($0) " + paragraph }
        client.open(uri, lines.joined(separator: "\n\n"))
        // The first batch is running (and held); the others wait in the queue.
        let line = 2 * 59
        client.change(uri, version: 2, [["range": lspRange(line, 0, line, 0), "text": "Zebra wierd "]])
        lines[59] = "Zebra wierd " + lines[59]
        _ = client.call("textDocument/hover", ["textDocument": ["uri": uri], "position": ["line": 0, "character": 0]])
        checker.release(1)   // the first batch ends; nothing else may run but the edited paragraph

        let published = client.wait("diagnostics of the edited paragraph", timeout: 30) { message in
            guard message["method"] as? String == "textDocument/publishDiagnostics",
                  let params = message["params"] as? [String: Any], params["version"] as? Int == 2,
                  let diagnostics = params["diagnostics"] as? [[String: Any]] else { return false }
            return diagnostics.contains { rangeOf($0["range"]) == [[line, 6], [line, 11]] }
        }
        XCTAssertNotNil(published, "the edited paragraph was not published while the rest of the check waits")
        // It went ahead of the waiting batches: at most the first (running when it came) was checked.
        XCTAssertTrue(checker.checked.contains("edited"), "\(checker.checked)")
        XCTAssertLessThanOrEqual(checker.checked.filter { $0 == "batch" }.count, 1, "\(checker.checked)")

        checker.release(100)
        let deadline = Date().addingTimeInterval(30)
        while checker.checked.filter({ $0 == "batch" }).count < 4 && Date() < deadline { usleep(10_000) }
        XCTAssertEqual(checker.checked.filter { $0 == "batch" }.count, 4, "every batch was still checked")
        // The last publish (after the last batch) still holds it.
        let last = client.wait("the last diagnostics", timeout: 30) { message in
            message["method"] as? String == "textDocument/publishDiagnostics"
                && ((message["params"] as? [String: Any])?["diagnostics"] as? [[String: Any]])?.isEmpty == false
        }
        XCTAssertEqual(((last?["params"] as? [String: Any])?["diagnostics"] as? [[String: Any]])?.map { rangeOf($0["range"]) },
                       [[[line, 6], [line, 11]]])
        XCTAssertEqual(client.shutdownAndExit(), 0)
    }

    func testTheDebounceFollowsTheCheckersTimes() {
        var debounce = AdaptiveDebounce()
        XCTAssertTrue(debounce.isFast("a"), "nothing measured yet: at once")
        debounce.record(80, bytes: 300, for: "a")
        XCTAssertTrue(debounce.isFast("a"), "fast checkers: at every keystroke")
        debounce.record(900, bytes: 300, for: "b")
        XCTAssertFalse(debounce.isFast("b"), "slow checkers: one keystroke check at a time")
        XCTAssertTrue(debounce.isFast("a"), "measured per set of checkers")
        debounce.record(5_000, bytes: 500_000, for: "a")
        XCTAssertTrue(debounce.isFast("a"), "opening a large document is not a keystroke's check")
        for _ in 0..<20 { debounce.record(10, bytes: 300, for: "b") }
        XCTAssertTrue(debounce.isFast("b"), "checkers that got fast again are asked at every keystroke")
    }

    /// Slow checkers: keystrokes while one keystroke check is in flight are not checked one by
    /// one; the text as it is when that check answers is checked once, at once.
    func testKeystrokesDuringASlowCheckAreCheckedOnceWhenItAnswers() {
        let checker = GatedChecker()
        let client = serverClient(checker)
        client.initialize()
        let uri = "file:///short.txt"
        client.open(uri, "One tomorow.\n\nTwo here.\n")
        checker.release(1)
        XCTAssertEqual(client.diagnostics(uri, version: 1).count, 1)
        // Make the checkers look slow: keystroke checks held 500 ms each (well past the 100 ms
        // that counts as fast, however late a busy machine starts the check).
        for version in 2...4 {
            client.change(uri, version: version, [["range": lspRange(2, 0, 2, 0), "text": "x"]])
            Thread.sleep(forTimeInterval: 0.5)
            checker.release(1)
            _ = client.diagnostics(uri, version: version)
        }
        let before = checker.checked.count
        // Three quick keystrokes while the first one's check is held.
        client.change(uri, version: 5, [["range": lspRange(2, 0, 2, 0), "text": "a"]])
        client.change(uri, version: 6, [["range": lspRange(2, 0, 2, 0), "text": "b"]])
        client.change(uri, version: 7, [["range": lspRange(2, 0, 2, 0), "text": "wierd "]])
        _ = client.call("textDocument/hover", ["textDocument": ["uri": uri], "position": ["line": 0, "character": 0]])
        XCTAssertEqual(checker.checked.count, before, "the first keystroke's check is held")
        checker.release(100)
        let last = client.wait("diagnostics of version 7 with “wierd”", timeout: 30) { message in
            guard message["method"] as? String == "textDocument/publishDiagnostics",
                  let params = message["params"] as? [String: Any], params["version"] as? Int == 7,
                  let diagnostics = params["diagnostics"] as? [[String: Any]] else { return false }
            return diagnostics.contains { rangeOf($0["range"]) == [[2, 0], [2, 5]] }
        }
        XCTAssertNotNil(last)
        XCTAssertEqual(checker.checked.count - before, 2, "the first keystroke's check, then the text as it was by then: \(checker.checked)")
        XCTAssertEqual(client.shutdownAndExit(), 0)
    }

    func testAFixedDebounceStillWinsAndAutoIsTheDefault() {
        XCTAssertNil(ServerSettings().debounceMilliseconds)
        let (fixed, problems) = ServerSettings().merged(with: .object(["debounceMs": .int(40)]))
        XCTAssertEqual(fixed.debounceMilliseconds, 40)
        XCTAssertEqual(problems, [])
        XCTAssertNil(fixed.merged(with: .object(["debounceMs": .string("auto")])).0.debounceMilliseconds)
        XCTAssertEqual(ServerSettings().merged(with: .object(["debounceMs": .string("soon")])).1,
                       ["debounceMs must be a number ≥ 0 or \"auto\""])
    }
}
