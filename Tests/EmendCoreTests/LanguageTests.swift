import Glibc
import XCTest
import EmendCore
import EmendText

/// The coordinator's language reaches every provider request.
final class LanguageTests: XCTestCase {
    final class Seen: @unchecked Sendable {
        var languages: [String] = []
    }

    struct Recording: WritingProvider {
        let id = "test.recording"
        let tools: Set<WritingTool> = [.proofread]
        let seen: Seen
        func run(_ request: ProviderRequest, sink: ProviderSink) -> ProviderOutcome {
            seen.languages.append(request.language)
            return .finished
        }
    }

    func testTheOptionsLanguageGoesToTheProvider() throws {
        let seen = Seen()
        var options = CoordinatorOptions()
        XCTAssertEqual(options.language, "en-US")
        options.language = "de-DE"
        let engine = TestEngine("Das ist ein Tets.")
        let recording = try Coordinator(delegate: engine, options: options, providers: [Recording(seen: seen)])
        try recording.start(.proofread)
        try engine.run(recording)
        XCTAssertEqual(seen.languages, ["de-DE"])
    }
}
