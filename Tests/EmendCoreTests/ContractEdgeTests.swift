import XCTest
@testable import EmendCore
import EmendText

/// The edge rules of emend.h's CHANGES section: an engine edit in a change Emend reported (a
/// suggestion, a rewritten phrase) makes all of that change the engine's, one at an edge is
/// beside it; a refused review step does not happen and the session goes on.
final class ContractEdgeTests: XCTestCase {
    /// The engine types `text` over `range` and tells the coordinator.
    private func type(_ engine: TestEngine, _ coordinator: Coordinator, _ range: Range<Int>, _ text: String) throws {
        engine.edit(range, text)
        try coordinator.updateRange(contextID: coordinator.contextIDs[0], range: range, text: text, reason: .typing)
    }

    private func rewrite(_ text: String) throws -> (TestEngine, Coordinator) {
        let engine = TestEngine(text)
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.rewriteFriendly)
        try engine.run(coordinator)
        return (engine, coordinator)
    }

    private func step(_ engine: TestEngine, _ coordinator: Coordinator, _ action: () throws -> Void) throws {
        try action()
        try engine.run(coordinator)
        XCTAssertEqual(coordinator.state, .interactiveResting)
    }

    // MARK: Rewrites

    /// The defect: an insertion inside "We're" but beside the bytes Emend changed ("'") was
    /// beside the change for the ledger and in it for the saved version; show original then
    /// took the change back and show rewritten never brought it back ("W%3%e are").
    func testAnEditInsideARewrittenPhraseMakesAllOfItTheEngines() throws {
        let (engine, coordinator) = try rewrite("We are going to win.")
        XCTAssertEqual(engine.text, "We're going to win!")
        try type(engine, coordinator, 1..<1, "%3%")
        try step(engine, coordinator) { try coordinator.showOriginal(true) }
        XCTAssertEqual(engine.text, "W%3%e're going to win.", "the phrase is the engine's; the rest is the original")
        try step(engine, coordinator) { try coordinator.showOriginal(false) }
        XCTAssertEqual(engine.text, "W%3%e're going to win!")
        try step(engine, coordinator) { try coordinator.undo() }
        XCTAssertEqual(engine.text, "W%3%e're going to win.")
        try step(engine, coordinator) { try coordinator.redo() }
        XCTAssertEqual(engine.text, "W%3%e're going to win!")
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "W%3%e're going to win.")
    }

    /// A failed follow-up goes back to the result it refined: the phrase the engine made its
    /// own stays as the engine left it, the rest of the result comes back.
    func testAFailedFollowUpKeepsAPhraseTheEngineEdited() throws {
        let (engine, coordinator) = try rewrite("We are going to win.")
        try type(engine, coordinator, 1..<1, "%3%")
        try coordinator.start(.followUp, prompt: "no rule")
        try? engine.run(coordinator)
        XCTAssertEqual(coordinator.state, .interactiveResting, "a failed follow-up goes back to the result")
        XCTAssertEqual(engine.text, "W%3%e're going to win!")
        try step(engine, coordinator) { try coordinator.showOriginal(true) }
        XCTAssertEqual(engine.text, "W%3%e're going to win.")
        try step(engine, coordinator) { try coordinator.showOriginal(false) }
        XCTAssertEqual(engine.text, "W%3%e're going to win!")
    }

    func testTypingRightAfterARewrittenWordIsBesideIt() throws {
        let (engine, coordinator) = try rewrite("I think it is fine.")
        XCTAssertEqual(engine.text, "I think it's fine!")
        let end = try XCTUnwrap(byteRange(of: "it's", in: engine.text)).upperBound
        try type(engine, coordinator, end..<end, "XYZ")
        try step(engine, coordinator) { try coordinator.showOriginal(true) }
        XCTAssertEqual(engine.text, "I think it isXYZ fine.")
        try step(engine, coordinator) { try coordinator.showOriginal(false) }
        XCTAssertEqual(engine.text, "I think it'sXYZ fine!")
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "I think it isXYZ fine.")
    }

    func testTypingRightBeforeARewrittenWordIsBesideIt() throws {
        let (engine, coordinator) = try rewrite("I think it is fine.")
        let start = try XCTUnwrap(byteRange(of: "it's", in: engine.text)).lowerBound
        try type(engine, coordinator, start..<start, "so ")
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "I think so it is fine.")
    }

    /// While the original shows, an edit of a change's original is the engine's text there;
    /// show rewritten applies the change around it (all of it, never half a phrase).
    func testAnEditOfTheOriginalWhileItIsShownIsKeptWhenTheRewriteComesBack() throws {
        let (engine, coordinator) = try rewrite("We are going to win.")
        try step(engine, coordinator) { try coordinator.showOriginal(true) }
        XCTAssertEqual(engine.text, "We are going to win.")
        try type(engine, coordinator, 1..<1, "X")
        try step(engine, coordinator) { try coordinator.showOriginal(false) }
        XCTAssertEqual(engine.text, "WXe're going to win!", "the change is applied around the edit")
        try step(engine, coordinator) { try coordinator.showOriginal(true) }
        XCTAssertEqual(engine.text, "WXe are going to win.")
        // An edit over the change's own bytes keeps them as the engine left them.
        let are = try XCTUnwrap(byteRange(of: " are", in: engine.text))
        try type(engine, coordinator, are, " were")
        try step(engine, coordinator) { try coordinator.showOriginal(false) }
        XCTAssertEqual(engine.text, "WXe were going to win!")
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "WXe were going to win.")
    }

    // MARK: Suggestions

    private func proofread(_ text: String) throws -> (TestEngine, Coordinator) {
        let engine = TestEngine(text)
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.proofread)
        try engine.run(coordinator)
        return (engine, coordinator)
    }

    /// "Alot" -> "A lot" inserted only a space: an insertion after it is still inside the
    /// suggestion, which is the engine's now, whole (never "AXlot").
    func testAnInsertionInsideAnAcceptedSuggestionMakesAllOfItTheEngines() throws {
        let (engine, coordinator) = try proofread("We have alot of time.")
        XCTAssertEqual(engine.text, "We have a lot of time.")
        try coordinator.acceptSuggestion(0)
        let lot = try XCTUnwrap(byteRange(of: "lot", in: engine.text))
        try type(engine, coordinator, lot.lowerBound..<lot.lowerBound, "X")
        XCTAssertEqual(coordinator.suggestions[0].state, .invalid)
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "We have a Xlot of time.")
    }

    func testDeletingAWordOfASuggestionKeepsTheRestAsTheEngineLeftIt() throws {
        let (engine, coordinator) = try proofread("We have alot of time.")
        let lot = try XCTUnwrap(byteRange(of: "lot", in: engine.text))
        try type(engine, coordinator, lot, "")
        XCTAssertEqual(coordinator.suggestions[0].state, .invalid)
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "We have a  of time.")
    }

    func testTypingAtTheEdgeOfASuggestionIsBesideIt() throws {
        let (engine, coordinator) = try proofread("We have alot of time.")
        let lot = try XCTUnwrap(byteRange(of: "a lot", in: engine.text))
        try type(engine, coordinator, lot.upperBound..<lot.upperBound, "s")
        XCTAssertEqual(coordinator.suggestions[0].state, .pending)
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "We have alots of time.")
    }

    // MARK: Refused review steps

    func testARefusedShowOriginalIsNotTakenAndTheSessionGoesOn() throws {
        let (engine, coordinator) = try rewrite("I do not think it is ready.")
        let rewritten = engine.text
        engine.replaceAnswering = .refuse
        try step(engine, coordinator) { try coordinator.showOriginal(true) }
        XCTAssertEqual(engine.text, rewritten)
        engine.replaceAnswering = .atOnce
        try step(engine, coordinator) { try coordinator.showOriginal(true) }
        XCTAssertEqual(engine.text, "I do not think it is ready.")
        engine.replaceAnswering = .refuse
        try step(engine, coordinator) { try coordinator.showOriginal(false) }
        XCTAssertEqual(engine.text, "I do not think it is ready.")
        engine.replaceAnswering = .atOnce
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(coordinator.state, .inactive)
        XCTAssertEqual(engine.text, "I do not think it is ready.")
    }

    func testAStepRefusedPartWayIsTakenBack() throws {
        let (engine, coordinator) = try rewrite("I do not think it is ready.")
        let rewritten = engine.text
        engine.replacesBeforeRefusing = 1
        try step(engine, coordinator) { try coordinator.undo() }
        XCTAssertGreaterThan(engine.appliedReplaces.filter { $0.kind == .undo }.count, 1, "one applied, then taken back")
        XCTAssertEqual(engine.text, rewritten, "the undo did not happen")
        XCTAssertTrue(coordinator.canUndo)
        XCTAssertFalse(coordinator.canRedo)
        try step(engine, coordinator) { try coordinator.undo() }
        XCTAssertEqual(engine.text, "I do not think it is ready.")
        engine.replaceAnswering = .refuse
        try step(engine, coordinator) { try coordinator.redo() }
        XCTAssertEqual(engine.text, "I do not think it is ready.")
        XCTAssertTrue(coordinator.canRedo, "the refused redo stays to redo")
        engine.replaceAnswering = .atOnce
        try step(engine, coordinator) { try coordinator.redo() }
        XCTAssertEqual(engine.text, rewritten)
    }

    func testAStepRefusedPartWayAndItsTakingBackLeaveTheVersionShownTrue() throws {
        let (engine, coordinator) = try rewrite("I do not think it is ready.")
        let rewritten = engine.text
        // Show original: one restoring replace goes in, the next is refused, and so is every
        // replace taking the step back. The text stays as it is; the version shown must be it.
        engine.replacesBeforeRefusing = 1
        engine.keepsRefusing = true
        try step(engine, coordinator) { try coordinator.showOriginal(true) }
        let mixed = engine.text
        XCTAssertNotEqual(mixed, rewritten)
        XCTAssertNotEqual(mixed, "I do not think it is ready.")
        let session = try XCTUnwrap(coordinator.session)
        XCTAssertEqual(session.version(session.shownVersion)?.string, session.regionText, "the version shown is what the text shows")
        // And from there every step keeps the contract.
        engine.replaceAnswering = .atOnce
        try step(engine, coordinator) { try coordinator.showOriginal(true) }
        XCTAssertEqual(engine.text, "I do not think it is ready.")
        try step(engine, coordinator) { try coordinator.showOriginal(false) }
        XCTAssertEqual(engine.text, mixed, "show rewritten gives the text the step left")
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "I do not think it is ready.")
    }

    func testAStopWhileARejectIsOutThatTheEngineRefusesStillEndsTheSession() throws {
        let (engine, coordinator) = try proofread("See you tomorow, I could of known.")
        engine.replaceAnswering = .later
        try coordinator.rejectSuggestion(0)
        try coordinator.dispatch()
        XCTAssertEqual(engine.heldReplaces.count, 1)
        try coordinator.stop()
        try coordinator.dispatch()
        engine.replaceAnswering = .atOnce
        engine.refuseHeldReplaces(coordinator)
        try engine.run(coordinator)
        XCTAssertEqual(coordinator.state, .inactive, "the stop finished")
        XCTAssertEqual(engine.text, "See you tomorow, I could of known.")
        // And the coordinator takes the next session.
        try coordinator.start(.proofread)
        try engine.run(coordinator)
        XCTAssertEqual(coordinator.state, .interactiveResting)
    }

    func testARefusedUndoOfARejectKeepsTheStep() throws {
        let (engine, coordinator) = try proofread("See you tomorow, I could of known.")
        try step(engine, coordinator) { try coordinator.rejectSuggestion(0) }
        XCTAssertEqual(engine.text, "See you tomorow, I could have known.")
        engine.replaceAnswering = .refuse
        try step(engine, coordinator) { try coordinator.undo() }
        XCTAssertEqual(engine.text, "See you tomorow, I could have known.")
        XCTAssertTrue(coordinator.canUndo)
        XCTAssertEqual(coordinator.suggestions[0].state, .rejected)
        engine.replaceAnswering = .atOnce
        try step(engine, coordinator) { try coordinator.undo() }
        XCTAssertEqual(engine.text, "See you tomorrow, I could have known.")
    }
}
