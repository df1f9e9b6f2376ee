import Glibc
import XCTest
import EmendCore
import EmendText

/// Proofread combines providers: the first to finish gives suggestions at once, later ones
/// stream in, identical ones are dropped and overlaps go to the more preferred provider.
final class CombinedProofreadTests: XCTestCase {
    /// A provider that emits fixed edits (found by their text) after a delay.
    struct ScriptedProvider: WritingProvider {
        let id: String
        let tools: Set<WritingTool> = [.proofread]
        let delayMicroseconds: UInt32
        let edits: [(find: String, replacement: String)]
        var failure: String?

        func run(_ request: ProviderRequest, sink: ProviderSink) -> ProviderOutcome {
            var waited: UInt32 = 0
            while waited < delayMicroseconds {
                if sink.isCancelled { return .failed("cancelled") }
                usleep(1000)
                waited += 1000
            }
            if let failure { return .failed(failure) }
            for edit in edits {
                guard let range = byteRange(of: edit.find, in: request.text) else { continue }
                sink.emitEdit(ProviderEdit(range: range, replacement: edit.replacement, explanation: "from \(id)", category: id))
            }
            return .finished
        }
    }

    struct Combined: ProviderCatalog {
        let providers: [WritingProvider]
        func provider(for tool: WritingTool, named id: String?) throws(EmendError) -> WritingProvider {
            try ProviderList(providers).provider(for: tool, named: id)
        }
        func providersToCombine(for tool: WritingTool) throws(EmendError) -> [WritingProvider] { providers }
    }

    static let original = "Their going to the party tomorow, and they has brought snacks."

    func testLaterSuggestionsStreamInAndThePreferredProviderWinsOverlaps() throws {
        let grammar = ScriptedProvider(id: "grammar", delayMicroseconds: 150_000,
                                       edits: [("they has", "they have"), ("tomorow", "tomorrow")])
        let spelling = ScriptedProvider(id: "spelling", delayMicroseconds: 0,
                                        edits: [("tomorow", "tomorrow"), ("has", "had")])
        let engine = TestEngine(Self.original)
        let coordinator = try Coordinator(delegate: engine, options: CoordinatorOptions(), catalog: Combined(providers: [grammar, spelling]))
        try coordinator.start(.proofread)
        // The fast, less preferred provider's suggestions arrive while the other still works.
        XCTAssertTrue(try engine.pump(coordinator) { engine.text.contains("they had") })
        XCTAssertEqual(coordinator.state, .interactiveStreaming)
        XCTAssertEqual(coordinator.suggestions.count, 2)
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "Their going to the party tomorrow, and they have brought snacks.")
        XCTAssertEqual(coordinator.state, .interactiveResting)
        let all = coordinator.suggestions
        XCTAssertEqual(all.count, 3, "the duplicate \"tomorrow\" is not added twice")
        XCTAssertEqual(all.filter { $0.state == .pending }.map(\.replacement).sorted(), ["they have", "tomorrow"])
        XCTAssertEqual(all.first { $0.replacement == "had" }?.state, .invalid, "superseded by the preferred provider")
        XCTAssertEqual(all.first { $0.replacement == "they have" }?.explanation, "from grammar")
        // Every pending suggestion is where its text is.
        for s in all where s.state == .pending {
            XCTAssertEqual(substring(engine.text, try XCTUnwrap(s.range)), s.replacement)
        }
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, Self.original, "revert restores the original byte for byte")
    }

    func testALessPreferredProviderDoesNotOverrideDeliveredSuggestions() throws {
        let grammar = ScriptedProvider(id: "grammar", delayMicroseconds: 0, edits: [("they has", "they have")])
        let spelling = ScriptedProvider(id: "spelling", delayMicroseconds: 100_000, edits: [("has", "had"), ("tomorow", "tomorrow")])
        let engine = TestEngine(Self.original)
        let coordinator = try Coordinator(delegate: engine, options: CoordinatorOptions(), catalog: Combined(providers: [grammar, spelling]))
        try coordinator.start(.proofread)
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "Their going to the party tomorrow, and they have brought snacks.")
        XCTAssertEqual(coordinator.suggestions.map(\.replacement), ["they have", "tomorrow"])
    }

    func testOneFailingProviderLeavesTheOthersSuggestions() throws {
        var broken = ScriptedProvider(id: "broken", delayMicroseconds: 0, edits: [])
        broken.failure = "no dictionary"
        let spelling = ScriptedProvider(id: "spelling", delayMicroseconds: 20_000, edits: [("tomorow", "tomorrow")])
        let engine = TestEngine(Self.original)
        let coordinator = try Coordinator(delegate: engine, options: CoordinatorOptions(), catalog: Combined(providers: [broken, spelling]))
        try coordinator.start(.proofread)
        try engine.run(coordinator)
        XCTAssertEqual(coordinator.suggestions.map(\.replacement), ["tomorrow"])
        XCTAssertEqual(coordinator.state, .interactiveResting)

        var other = ScriptedProvider(id: "other", delayMicroseconds: 0, edits: [])
        other.failure = "offline"
        let failing = try Coordinator(delegate: TestEngine(Self.original), options: CoordinatorOptions(),
                                      catalog: Combined(providers: [broken, other]))
        try failing.start(.proofread)
        XCTAssertThrowsEmend(.provider) { try (failing.delegate as! TestEngine).run(failing) }
        XCTAssertEqual(failing.state, .inactive)
    }

    func testStopWhileALaterProviderWorksRestoresTheOriginal() throws {
        let fast = ScriptedProvider(id: "fast", delayMicroseconds: 0, edits: [("tomorow", "tomorrow")])
        let slow = ScriptedProvider(id: "slow", delayMicroseconds: 5_000_000, edits: [("they has", "they have")])
        let engine = TestEngine(Self.original)
        let coordinator = try Coordinator(delegate: engine, options: CoordinatorOptions(), catalog: Combined(providers: [slow, fast]))
        try coordinator.start(.proofread)
        XCTAssertTrue(try engine.pump(coordinator) { engine.text.contains("tomorrow") })
        try coordinator.stop()
        try engine.run(coordinator, timeoutMilliseconds: 2_000)
        XCTAssertEqual(engine.text, Self.original)
        XCTAssertEqual(coordinator.state, .inactive)
    }
}
