import XCTest
import EmendCore
import EmendText

/// Delegate callbacks run only inside dispatch (or runUntilIdle), never inside the call that
/// caused them: an engine may call the coordinator from anywhere without being re-entered.
final class CallbackDispatchTests: XCTestCase {
    func testStartingAndAcceptingCallBackOnlyDuringDispatch() throws {
        let engine = TestEngine("I do not think it is ready.")
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.rewriteFriendly)
        XCTAssertTrue(engine.states.isEmpty, "will_change_to_state ran inside start()")
        try engine.run(coordinator)
        try coordinator.accept()
        XCTAssertEqual(engine.states.count, 2, "will_change_to_state ran inside accept()")
        try engine.run(coordinator)
        XCTAssertEqual(engine.states.last, .inactive)
        XCTAssertEqual(engine.callbacksOutsideDispatch, [])
    }

    func testReviewCallsReplaceOnlyDuringDispatch() throws {
        let engine = TestEngine("See you tomorow, they has it. I could of known.")
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.proofread)
        try engine.run(coordinator)
        let delivered = engine.replaces.count
        try coordinator.rejectSuggestion(0)
        XCTAssertEqual(engine.replaces.count, delivered, "replace ran inside rejectSuggestion()")
        try engine.run(coordinator)
        try coordinator.undo()
        try engine.run(coordinator)
        try coordinator.redo()
        try engine.run(coordinator)
        try coordinator.updateForReflowedText()
        try engine.run(coordinator)
        try coordinator.revert()
        XCTAssertEqual(engine.states.last, .interactiveResting, "revert called back before dispatch")
        try engine.run(coordinator)
        XCTAssertEqual(engine.callbacksOutsideDispatch, [])
        XCTAssertEqual(engine.text, "See you tomorow, they has it. I could of known.")
    }

    func testRewriteReviewCallsBackOnlyDuringDispatch() throws {
        let engine = TestEngine("I do not think it is ready.")
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.rewriteFriendly)
        try engine.run(coordinator)
        try coordinator.showOriginal(true)
        try engine.run(coordinator)
        try coordinator.showOriginal(false)
        try engine.run(coordinator)
        try coordinator.start(.followUp, prompt: "uppercase")
        try engine.run(coordinator)
        // Typing inside the rewritten text is the engine's own edit; the session goes on, and
        // Done's will_change_to_state waits for dispatch.
        let at = engine.text.utf8.count - 1
        engine.edit(at..<at, "x")
        try coordinator.updateRange(contextID: coordinator.contextIDs[0], range: at..<at, text: "x", reason: .typing)
        try engine.run(coordinator)
        XCTAssertEqual(coordinator.state, .interactiveResting)
        try coordinator.accept()
        try engine.run(coordinator)
        XCTAssertEqual(coordinator.state, .inactive)
        XCTAssertEqual(engine.callbacksOutsideDispatch, [])
    }

    func testStopCallsBackOnlyDuringDispatch() throws {
        let engine = TestEngine("See you tomorow.")
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.proofread)
        try engine.run(coordinator)
        try coordinator.stop()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "See you tomorow.")
        XCTAssertEqual(engine.callbacksOutsideDispatch, [])
    }
}
