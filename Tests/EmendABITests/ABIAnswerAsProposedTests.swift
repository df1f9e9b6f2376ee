import XCTest
import CEmend
import EmendCABI

/// "Applied as proposed" without a NULL pointer: emend_answer_replace_as_proposed. The old
/// spelling (APPLIED with NULL) still works, and a non-NULL empty text still means "inserted
/// nothing".
final class ABIAnswerAsProposedTests: XCTestCase {
    func testAsProposedAndTheOldNullSpellingBothApply() throws {
        let engine = CEngine("See you tomorow, I could of known.")
        engine.holdReplaces = true
        let coordinator = try engine.makeCoordinator()
        defer { emend_coordinator_destroy(coordinator) }
        XCTAssertEqual(start(coordinator, EMEND_TOOL_PROOFREAD), EMEND_OK)
        // First replace: the old spelling, NULL text.
        XCTAssertTrue(pump(coordinator) { !engine.heldReplaces.isEmpty })
        let first = try XCTUnwrap(engine.takeHeldReplaces().first)
        engine.edit(engine.replaces[0].range, engine.replaces[0].text)
        XCTAssertEqual(emend_answer_replace(coordinator, first, EMEND_REPLACE_APPLIED, nil, 0), EMEND_OK, lastError)
        // Second replace: the new function.
        XCTAssertTrue(pump(coordinator) { !engine.heldReplaces.isEmpty })
        let second = try XCTUnwrap(engine.takeHeldReplaces().first)
        engine.edit(engine.replaces[1].range, engine.replaces[1].text)
        XCTAssertEqual(emend_answer_replace_as_proposed(coordinator, second), EMEND_OK, lastError)
        XCTAssertStatus(emend_answer_replace_as_proposed(coordinator, second), EMEND_E_STALE)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK, lastError)
        XCTAssertEqual(engine.text, "See you tomorrow, I could have known.")
        XCTAssertEqual(suggestion(coordinator, 1)?.state, EMEND_SUGGESTION_PENDING)
        XCTAssertEqual(suggestion(coordinator, 1)?.range, engine.range(of: "could have"), "the runtime knows the text it proposed went in")
        XCTAssertStatus(emend_answer_replace_as_proposed(nil, second), EMEND_E_INVALID_ARGUMENT)
    }

    /// An empty non-NULL text is "inserted nothing", as before: the trap the new function avoids.
    func testAnEmptyNonNullTextStillMeansNothingInserted() throws {
        let engine = CEngine("See you tomorow.")
        engine.holdReplaces = true
        let coordinator = try engine.makeCoordinator()
        defer { emend_coordinator_destroy(coordinator) }
        XCTAssertEqual(start(coordinator, EMEND_TOOL_PROOFREAD), EMEND_OK)
        XCTAssertTrue(pump(coordinator) { !engine.heldReplaces.isEmpty })
        let request = try XCTUnwrap(engine.takeHeldReplaces().first)
        engine.edit(engine.replaces[0].range, "")
        XCTAssertEqual("".withCString { emend_answer_replace(coordinator, request, EMEND_REPLACE_APPLIED, $0, 0) }, EMEND_OK, lastError)
        engine.holdReplaces = false
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK, lastError)
        XCTAssertEqual(emend_session_revert(coordinator), EMEND_OK)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK, lastError)
        XCTAssertEqual(engine.text, "See you tomorow.", "revert put back the word the engine removed")
    }
}
