import XCTest
@testable import EmendCore
import EmendText

/// A long replacement goes into the rope as chunks cut on a runtime thread
/// (`PreparedReplacement`): a rewrite's version by its plan, a long original that revert
/// puts back whole by a thread of its own before that replace goes out. The engine's edits
/// while those chunks are cut are kept: beside the change, the original still goes back
/// from them; inside it, the change is the engine's and nothing goes back. The original is
/// styled: a plain one comes back in pieces (`RestoringPiece.baseTail`), and only a change
/// the ledger keeps whole (styled, or one whose piece the engine withdrew) goes back in one
/// replace.
final class PreparedReplacementDeliveryTests: XCTestCase {
    static let kept = "Keep this. "
    static let words = String(repeating: "a x ", count: 40_000)
    static let original = kept + words
    static let rewritten = kept + String(repeating: "b x ", count: 40_000)

    /// A rewrite of every word after `kept`, delivered whole, with the coordinator and the context.
    private func rewritten() throws -> (TestEngine, Coordinator, SessionContext, UInt64) {
        let start = Self.kept.utf8.count
        let engine = TestEngine(Self.original, selection: start..<Self.original.utf8.count)
        engine.attributeRuns = [AttributeRun(range: 0..<Self.original.utf8.count, key: "bold", value: "1")]
        var options = CoordinatorOptions()
        options.streaming = .wholeResult
        // A budget no dispatch here spends: a fresh item (a thread's answer) waits for the next.
        options.dispatchBudget = .time(microseconds: 60_000_000)
        let coordinator = try Coordinator(delegate: engine, options: options, providers: [LongReplaceDispatchTests.EveryWordRewriter()])
        try coordinator.start(.rewriteFriendly)
        XCTAssertTrue(try engine.pump(coordinator, timeoutMilliseconds: 60_000) { coordinator.isIdle })
        XCTAssertTrue(engine.text == Self.rewritten)
        let context = try XCTUnwrap(coordinator.session?.working)
        XCTAssertEqual(context.text.rope.preparedReplaces, 1, "the rewrite went in as chunks its plan cut")
        return (engine, coordinator, context, try XCTUnwrap(coordinator.contextIDs.first))
    }

    /// Reverts until the rewrite's pieces went out and the original's chunks are being cut
    /// (the text holds the last piece of the change, at most `RestoringPiece.longest`).
    private func revertUntilTheOriginalIsCut(_ engine: TestEngine, _ coordinator: Coordinator) throws {
        try coordinator.revert()
        XCTAssertTrue(try engine.pump(coordinator, timeoutMilliseconds: 60_000) {
            engine.text.utf8.count <= Self.kept.utf8.count + RestoringPiece.longest
        }, "the rewrite goes out in pieces first")
        XCTAssertNotEqual(engine.text.utf8.count, Self.original.utf8.count, "the original is not back yet")
    }

    func testRevertPutsALongOriginalBackFromChunksCutElsewhere() throws {
        let (engine, coordinator, context, _) = try rewritten()
        try revertUntilTheOriginalIsCut(engine, coordinator)
        XCTAssertTrue(try engine.pump(coordinator, timeoutMilliseconds: 60_000) { coordinator.isIdle })
        XCTAssertTrue(Array(engine.text.utf8) == Array(Self.original.utf8), "revert gives the original back byte for byte")
        XCTAssertEqual(context.text.rope.preparedReplaces, 2, "the original went back as chunks cut elsewhere")
        XCTAssertEqual(coordinator.lastSessionOutcome, .finished)
    }

    func testAnEngineEditBesideTheChangeWhileTheOriginalIsCutIsKept() throws {
        let (engine, coordinator, context, id) = try rewritten()
        try revertUntilTheOriginalIsCut(engine, coordinator)
        let range = try XCTUnwrap(byteRange(of: "this", in: engine.text))
        engine.edit(range, "THIS")
        try coordinator.updateRange(contextID: id, range: range, text: "THIS", reason: .typing)
        XCTAssertTrue(try engine.pump(coordinator, timeoutMilliseconds: 60_000) { coordinator.isIdle })
        XCTAssertTrue(Array(engine.text.utf8) == Array(("Keep THIS. " + Self.words).utf8), "the original back, the engine's edit kept")
        XCTAssertEqual(context.text.rope.preparedReplaces, 2, "the chunks still hold the original")
    }

    func testAnEngineEditInsideTheChangeWhileTheOriginalIsCutMakesItTheEngines() throws {
        let (engine, coordinator, context, id) = try rewritten()
        try revertUntilTheOriginalIsCut(engine, coordinator)
        let at = Self.kept.utf8.count
        engine.edit(at..<(at + 1), "c")
        try coordinator.updateRange(contextID: id, range: at..<(at + 1), text: "c", reason: .typing)
        let edited = engine.text
        XCTAssertTrue(edited.hasPrefix(Self.kept + "c x b x"), String(edited.prefix(40)))
        XCTAssertTrue(try engine.pump(coordinator, timeoutMilliseconds: 60_000) { coordinator.isIdle })
        XCTAssertTrue(engine.text == edited, "the change is the engine's: nothing of it goes back")
        XCTAssertEqual(context.text.rope.preparedReplaces, 1, "the original's chunks went unused")
    }
}
