import XCTest
@testable import EmendCore
import EmendText

/// A long replace goes to the engine in a dispatch of its own, after the one that compared
/// the text it takes out (`Coordinator.sendNextReplace`); that text is compared again when it
/// goes only if the rope took a replace since. An engine edit in that window that keeps the
/// region's length (the range alone would not tell) is such a replace: the replace planned
/// over the engine's text is withdrawn, and the engine's edit stays, through revert too.
final class SentReplaceCheckTests: XCTestCase {
    private static let original = String(repeating: "Words go on and on. ", count: 20_000)   // 400 KB

    /// Rewrites any region as one short sentence.
    final class ShortRewriter: WritingProvider, @unchecked Sendable {
        let id = "org.emend.tests.short-rewrite"
        let tools: Set<WritingTool> = [.rewriteFriendly]
        var needsFactCheck: Bool { false }
        func run(_ request: ProviderRequest, sink: ProviderSink) -> ProviderOutcome {
            sink.emitText("The text is short.")
            return .finished
        }
    }

    private func start(_ engine: TestEngine) throws -> Coordinator {
        var options = CoordinatorOptions()
        options.streaming = .wholeResult
        let coordinator = try Coordinator(delegate: engine, options: options, providers: [ShortRewriter()])
        try coordinator.start(.rewriteFriendly)
        return coordinator
    }

    func testAnEngineEditOfTheSameLengthBeforeALongReplaceGoesWithdrawsIt() throws {
        let original = Self.original
        let engine = TestEngine(original, selection: 0..<original.utf8.count)
        let coordinator = try start(engine)
        // The window: the long replace asked for (first in a later dispatch), not yet with the engine.
        XCTAssertTrue(try engine.pump(coordinator, timeoutMilliseconds: 60_000) {
            coordinator.session?.awaited?.kind == .replace && engine.appliedReplaces.isEmpty
        })
        let word = 200_000..<200_005
        XCTAssertEqual(String(decoding: Array(engine.text.utf8)[word], as: UTF8.self), "Words")
        engine.edit(word, "WORDS")
        try coordinator.updateRange(contextID: coordinator.contextIDs[0], range: word, text: "WORDS", reason: .typing)
        let edited = engine.text
        try engine.run(coordinator, timeoutMilliseconds: 60_000)
        XCTAssertTrue(engine.appliedReplaces.allSatisfy { !$0.range.overlaps(word) }, "no replace went over the engine's edit")
        XCTAssertTrue(engine.text == edited, "the engine's edit stays; the rewrite planned over it was withdrawn")
        try coordinator.revert()
        try engine.run(coordinator, timeoutMilliseconds: 60_000)
        XCTAssertTrue(engine.text == edited, "revert keeps the engine's edit")
        XCTAssertTrue(engine.answerErrors.isEmpty)
    }

    /// Nothing edited in the window: the long replace goes (compared once), and revert gives
    /// the original back byte for byte.
    func testALongReplaceGoesWhenNothingChangedSinceItWasCompared() throws {
        let original = Self.original
        let engine = TestEngine(original, selection: 0..<original.utf8.count)
        let coordinator = try start(engine)
        try engine.run(coordinator, timeoutMilliseconds: 60_000)
        XCTAssertEqual(engine.text, "The text is short. ")
        XCTAssertEqual(coordinator.state, .interactiveResting, "\(String(describing: coordinator.lastSessionOutcome))")
        try coordinator.revert()
        try engine.run(coordinator, timeoutMilliseconds: 60_000)
        XCTAssertTrue(engine.text == original, "revert puts the original back byte for byte")
        XCTAssertTrue(engine.answerErrors.isEmpty)
    }
}
