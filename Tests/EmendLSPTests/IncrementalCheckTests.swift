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

    func testOnlyChangedParagraphsAreCheckedAgain() {
        let recorder = Recorder()
        let client = LSPTestClient(inProcess: { input, output, root in
            var configuration = ServerConfiguration(version: "test", environment: LSPTestClient.sandboxEnvironment(root: root),
                                                    makeCatalog: { .success(ProviderList([RecordingProvider(recorder: recorder)])) })
            configuration.input = input
            configuration.output = output
            return LanguageServer(configuration: configuration).run()
        })
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
        let client = LSPTestClient(inProcess: { input, output, root in
            var configuration = ServerConfiguration(version: "test", environment: LSPTestClient.sandboxEnvironment(root: root),
                                                    makeCatalog: { .success(ProviderList([FlakyProvider(recorder: recorder)])) })
            configuration.input = input
            configuration.output = output
            return LanguageServer(configuration: configuration).run()
        })
        client.initialize()
        client.open("file:///flaky.txt", "One tomorow.\n\nTwo teh.\n")
        XCTAssertEqual(client.diagnostics("file:///flaky.txt", version: 1).count, 2)
        XCTAssertEqual(recorder.take().count, 2, "the failed run, then the retry")
        XCTAssertFalse(client.pending.contains { $0["method"] as? String == "window/showMessage" }, "nothing to tell: the retry worked")
        XCTAssertEqual(client.shutdownAndExit(), 0)
    }
}
