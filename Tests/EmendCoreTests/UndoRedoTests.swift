import XCTest
import EmendCore
import EmendText

/// Undo and redo of Writing Tools changes within a session: a rejected suggestion, an accepted
/// one, a rewrite, a follow-up.
final class UndoRedoTests: XCTestCase {
    func testUndoAndRedoOfARejectedSuggestion() throws {
        let original = "See you tomorow, I could of known."
        let (engine, coordinator) = try runTool(.proofread, on: original)
        XCTAssertFalse(coordinator.canUndo)
        XCTAssertThrowsEmend(.state) { try coordinator.undo() }
        try coordinator.rejectSuggestion(1)
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "See you tomorrow, I could of known.")
        XCTAssertTrue(coordinator.canUndo)
        XCTAssertFalse(coordinator.canRedo)

        try coordinator.undo()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "See you tomorrow, I could have known.")
        XCTAssertEqual(engine.replaces.last?.kind, .undo)
        XCTAssertEqual(coordinator.suggestions[1].state, .pending)
        XCTAssertEqual(substring(engine.text, try XCTUnwrap(coordinator.suggestions[1].range)), "could have")
        XCTAssertTrue(coordinator.canRedo)

        try coordinator.redo()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "See you tomorrow, I could of known.")
        XCTAssertEqual(engine.replaces.last?.kind, .redo)
        XCTAssertEqual(coordinator.suggestions[1].state, .rejected)
        XCTAssertFalse(coordinator.canRedo)
        XCTAssertThrowsEmend(.state) { try coordinator.redo() }

        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, original)
    }

    func testUndoOfAnAcceptedSuggestionMakesItPendingAgain() throws {
        let engine = TestEngine("See you tomorow.")
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.proofread)
        try engine.run(coordinator)
        try coordinator.acceptSuggestion(0)
        let replaces = engine.replaces.count
        try coordinator.undo()
        try engine.run(coordinator)
        XCTAssertEqual(coordinator.suggestions[0].state, .pending)
        XCTAssertEqual(engine.replaces.count, replaces, "accepting and undoing it change no text")
        XCTAssertEqual(engine.text, "See you tomorrow.")
        try coordinator.redo()
        XCTAssertEqual(coordinator.suggestions[0].state, .accepted)
    }

    func testUndoAndRedoOfARewrite() throws {
        let original = "I do not think it is ready."
        let (engine, coordinator) = try runTool(.rewriteFriendly, on: original)
        XCTAssertTrue(coordinator.canUndo)
        try coordinator.undo()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, original)
        XCTAssertEqual(engine.replaces.last?.kind, .undo)
        XCTAssertEqual(coordinator.state, .interactiveResting, "undo keeps the session")
        XCTAssertFalse(coordinator.canUndo)
        XCTAssertTrue(coordinator.canRedo)
        try coordinator.redo()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "I don't think it's ready!")
        XCTAssertEqual(engine.replaces.last?.kind, .redo)
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, original)
    }

    func testUndoAndRedoOfAFollowUp() throws {
        let original = "I do not think it is ready."
        let (engine, coordinator) = try runTool(.rewriteFriendly, on: original)
        try coordinator.start(.followUp, prompt: "uppercase")
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "I DON'T THINK IT'S READY!")
        try coordinator.undo()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "I don't think it's ready!")
        try coordinator.undo()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, original)
        try coordinator.redo()
        XCTAssertThrowsEmend(.again) { try coordinator.redo() }   // still delivering the first: a step in flight
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "I don't think it's ready!")
        try coordinator.redo()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "I DON'T THINK IT'S READY!")
        XCTAssertFalse(coordinator.canRedo)
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, original)
    }
}
