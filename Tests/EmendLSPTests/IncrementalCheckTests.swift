import Foundation
import XCTest
import EmendCore
@testable import EmendLSP

/// A server in this process with a provider that records what it is asked, to see that a
/// change re-checks only the paragraphs whose text changed.
final class IncrementalCheckTests: XCTestCase {
    final class Recorder: @unchecked Sendable {
        private let lock = NSLock()
        private var texts: [String] = []
        func add(_ text: String) { lock.lock(); texts.append(text); lock.unlock() }
        func take() -> [String] { lock.lock(); defer { texts = []; lock.unlock() }; return texts }
        var count: Int { lock.lock(); defer { lock.unlock() }; return texts.count }
    }

    struct RecordingProvider: WritingProvider {
        let recorder: Recorder
        let base = FixtureProvider()
        var id: String { "org.emend.test.recording" }
        var tools: Set<WritingTool> { [.proofread] }
        func run(_ request: ProviderRequest, sink: ProviderSink) -> ProviderOutcome {
            recorder.add(request.text)
            return base.run(request, sink: sink)
        }
    }

    /// A client of a server in this process whose only provider is `provider`.
    private func serverClient(_ provider: WritingProvider) -> LSPTestClient {
        LSPTestClient(inProcess: { input, output, root in
            var configuration = ServerConfiguration(version: "test", environment: LSPTestClient.sandboxEnvironment(root: root),
                                                    makeCatalog: { .success(ProviderList([provider])) })
            configuration.input = input
            configuration.output = output
            return LanguageServer(configuration: configuration).run()
        })
    }

    func testOnlyChangedParagraphsAreCheckedAgain() {
        let recorder = Recorder()
        let client = serverClient(RecordingProvider(recorder: recorder))
        client.initialize(options: ["debounceMs": 0])
        let uri = "file:///big.txt"
        client.open(uri, "First tomorow.\n\nSecond one.\n\nThird teh.\n")
        XCTAssertEqual(client.diagnostics(uri, version: 1).count, 2)
        XCTAssertEqual(recorder.take(), ["First tomorow.\n\nSecond one.\n\nThird teh."], "one session for the units of the document")

        client.change(uri, version: 2, [["range": lspRange(2, 7, 2, 7), "text": "wierd "]])
        let second = client.diagnostics(uri, version: 2)
        XCTAssertEqual(recorder.take(), ["Second wierd one."], "only the changed paragraph")
        XCTAssertEqual(second.map { rangeOf($0["range"]) }, [[[0, 6], [0, 13]], [[2, 7], [2, 12]], [[4, 6], [4, 9]]])

        client.change(uri, version: 3, [["range": lspRange(0, 0, 0, 0), "text": "\n\n\n"]])
        let third = client.diagnostics(uri, version: 3)
        XCTAssertEqual(recorder.take(), [], "lines above a paragraph do not make it new")
        XCTAssertEqual(third.map { rangeOf($0["range"])[0][0] }, [3, 5, 7])

        client.open("file:///other.txt", "Third teh.")
        XCTAssertEqual(client.diagnostics("file:///other.txt", version: 1).count, 1)
        XCTAssertEqual(recorder.take(), [], "the same paragraph in another document comes from the cache")
        XCTAssertEqual(client.shutdownAndExit(), 0)
    }

    /// Keystrokes in a Markdown file (patched in, one paragraph re-checked and re-encoded) and
    /// line breaks (the document cut again, everything re-encoded) end with the diagnostics a
    /// fresh open of the same text gets.
    func testDiagnosticsAfterKeystrokesAreThoseOfTheSameTextOpenedAfresh() {
        let recorder = Recorder()
        let client = serverClient(RecordingProvider(recorder: recorder))
        client.initialize(options: ["debounceMs": 0])
        let uri = "file:///notes.md"
        var lines = ["# Notes on teh plan", "", "We meet tomorow at `teh cafe`.", "Then we recieve the wierd box.", "",
                     "- first item teh", "- second item", "", "Last words here."]
        client.open(uri, lines.joined(separator: "\n"), language: "markdown")
        XCTAssertEqual(client.diagnostics(uri, version: 1).count, 5)
        _ = recorder.take()

        client.change(uri, version: 2, [["range": lspRange(3, 5, 3, 5), "text": "teh "]])
        lines[3] = "Then teh we recieve the wierd box."
        _ = client.diagnostics(uri, version: 2)
        XCTAssertEqual(recorder.take(), ["We meet tomorow at `teh cafe`.\nThen teh we recieve the wierd box."], "only that paragraph")
        client.change(uri, version: 3, [["range": lspRange(8, 5, 8, 5), "text": "wierd "]])
        lines[8] = "Last wierd words here."
        _ = client.diagnostics(uri, version: 3)
        client.change(uri, version: 4, [["range": lspRange(1, 0, 1, 0), "text": "Teh new line.\n"]])
        lines.insert("Teh new line.", at: 1)
        let afterEdits = client.diagnostics(uri, version: 4)

        client.open("file:///fresh.md", lines.joined(separator: "\n"), language: "markdown")
        let fresh = client.diagnostics("file:///fresh.md", version: 1)
        XCTAssertEqual(afterEdits.map { rangeOf($0["range"]) }, fresh.map { rangeOf($0["range"]) })
        XCTAssertEqual(afterEdits.map { $0["message"] as? String }, fresh.map { $0["message"] as? String })
        XCTAssertEqual(afterEdits.count, 8)
        XCTAssertEqual(client.shutdownAndExit(), 0)
    }

    /// Fails its first run (a checker that timed out while warming up), then works.
    struct FlakyProvider: WritingProvider {
        let recorder: Recorder
        let base = FixtureProvider()
        var id: String { "org.emend.test.flaky" }
        var tools: Set<WritingTool> { [.proofread] }
        func run(_ request: ProviderRequest, sink: ProviderSink) -> ProviderOutcome {
            recorder.add(request.text)
            if recorder.count == 1 { return .failed("the checker did not answer in time") }
            return base.run(request, sink: sink)
        }
    }

    func testAFailedCheckIsTriedOnceMoreInSmallerPiecesBeforeTheUserIsTold() {
        let recorder = Recorder()
        let client = serverClient(FlakyProvider(recorder: recorder))
        client.initialize()
        client.open("file:///flaky.txt", "One tomorow.\n\nTwo teh.\n")
        XCTAssertEqual(client.diagnostics("file:///flaky.txt", version: 1).count, 2)
        XCTAssertEqual(recorder.take().count, 2, "the failed run, then the retry")
        XCTAssertFalse(client.pending.contains { $0["method"] as? String == "window/showMessage" }, "nothing to tell: the retry worked")
        XCTAssertEqual(client.shutdownAndExit(), 0)
    }
}
