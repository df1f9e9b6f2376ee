import XCTest
import EmendCore
import EmendText

/// The engine refuses a replace: the session fails with .refused and the document is left as
/// "nothing lost" requires (here: the original, since everything delivered is put back).
final class RefusedReplaceTests: XCTestCase {
    func testRefusingTheFirstReplaceChangesNothing() throws {
        let original = "I do not think it is ready. We are waiting."
        let engine = TestEngine(original)
        engine.refuseResultsAfter = 0
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.rewriteFriendly)
        XCTAssertThrowsEmend(.refused) { try engine.run(coordinator) }
        XCTAssertEqual(engine.text, original)
        XCTAssertTrue(engine.appliedReplaces.isEmpty)
        XCTAssertEqual(coordinator.state, .inactive)
    }

    func testRefusingALaterReplacePutsBackWhatWasDelivered() throws {
        let original = "I do not think it is ready. We are waiting."
        let engine = TestEngine(original)
        engine.refuseResultsAfter = 2
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.rewriteFriendly)
        XCTAssertThrowsEmend(.refused) { try engine.run(coordinator) }
        XCTAssertEqual(engine.appliedReplaces.filter { $0.kind == .result }.count, 2)
        XCTAssertEqual(Array(engine.text.utf8), Array(original.utf8))
        XCTAssertEqual(coordinator.state, .inactive)
    }

    func testRefusingAProofreadingReplacePutsBackTheOthers() throws {
        let original = "See you tomorow, I could of known. This is a example."
        let engine = TestEngine(original)
        engine.refuseResultsAfter = 1
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.proofread)
        XCTAssertThrowsEmend(.refused) { try engine.run(coordinator) }
        XCTAssertEqual(engine.text, original)
        XCTAssertEqual(coordinator.state, .inactive)
    }

    func testRefusingARejectKeepsTheSuggestion() throws {
        let engine = TestEngine("See you tomorow, I could of known.")
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.proofread)
        try engine.run(coordinator)
        engine.replaceAnswering = .refuse
        try coordinator.rejectSuggestion(0)
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "See you tomorrow, I could have known.")
        XCTAssertEqual(coordinator.suggestions[0].state, .pending)
        XCTAssertEqual(coordinator.state, .interactiveResting)
        XCTAssertFalse(coordinator.canUndo, "a refused reject is not an undoable change")
        engine.replaceAnswering = .atOnce
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "See you tomorow, I could of known.")
    }
}
