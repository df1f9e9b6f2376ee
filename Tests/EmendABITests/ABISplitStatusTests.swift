import XCTest
import CEmend
import EmendCABI

/// EMEND_E_TIMEOUT and EMEND_E_STATE each meant two things an engine must handle
/// differently; the second meanings got their own codes (appended, never renumbered):
/// BUSY (run_until_idle's limit, harmless), IN_CALLBACK (call it after the callback) and
/// AGAIN (not known yet: dispatch, then ask again).
final class ABISplitStatusTests: XCTestCase {
    func testRunUntilIdleLimitIsBusyAndTheSessionGoesOn() throws {
        let engine = CEngine("See you tomorow.")
        engine.holdContexts = true
        let coordinator = try engine.makeCoordinator()
        defer { emend_coordinator_destroy(coordinator) }
        XCTAssertEqual(start(coordinator, EMEND_TOOL_PROOFREAD), EMEND_OK)
        XCTAssertStatus(runUntilIdle(coordinator, 50), EMEND_E_BUSY, mentions: ["50 ms"])
        // Nothing failed: answer and go on.
        let request = try XCTUnwrap(engine.takeHeldContexts().first)
        XCTAssertEqual(engine.answerContexts(coordinator, request), EMEND_OK, lastError)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK, lastError)
        XCTAssertEqual(engine.text, "See you tomorrow.")
    }

    func testAnUnansweredCallbackIsStillTimeout() throws {
        let engine = CEngine("See you tomorow.")
        engine.holdContexts = true
        let coordinator = try engine.makeCoordinator(completionTimeout: 100)
        defer { emend_coordinator_destroy(coordinator) }
        XCTAssertEqual(start(coordinator, EMEND_TOOL_PROOFREAD), EMEND_OK)
        XCTAssertStatus(runUntilIdle(coordinator, 20_000), EMEND_E_TIMEOUT, mentions: ["did not answer"])
        XCTAssertEqual(state(coordinator), EMEND_STATE_INACTIVE)
    }

    func testStartInsideACallbackIsInCallback() throws {
        let engine = CEngine("See you tomorow.")
        var inner: [emend_status] = []
        engine.onStateChange = { coordinator, _ in
            inner.append(start(coordinator, EMEND_TOOL_PROOFREAD))
            inner.append(emend_session_accept(coordinator))
        }
        let coordinator = try engine.makeCoordinator()
        defer { emend_coordinator_destroy(coordinator) }
        XCTAssertEqual(start(coordinator, EMEND_TOOL_PROOFREAD), EMEND_OK)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK)
        XCTAssertFalse(inner.isEmpty)
        XCTAssertTrue(inner.allSatisfy { $0 == EMEND_E_IN_CALLBACK }, "\(inner.map { String(cString: emend_status_name($0)) })")
    }

    func testRectanglesNotKnownYetAreAgain() throws {
        let engine = CEngine("See you tomorow.")
        engine.givesBoundingRects = true
        let coordinator = try engine.makeCoordinator()
        defer { emend_coordinator_destroy(coordinator) }
        var index = 99
        XCTAssertStatus(emend_session_suggestion_at_point(coordinator, 0, 5, &index), EMEND_E_STATE, mentions: ["no finished result"])
        XCTAssertEqual(start(coordinator, EMEND_TOOL_PROOFREAD), EMEND_OK)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK, lastError)
        let word = try XCTUnwrap(engine.range(of: "tomorrow"))
        let x = Double(word.location) * 10 + 5
        XCTAssertStatus(emend_session_suggestion_at_point(coordinator, x, 5, &index), EMEND_E_AGAIN, mentions: ["ask again"])
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK, lastError)
        XCTAssertEqual(emend_session_suggestion_at_point(coordinator, x, 5, &index), EMEND_OK, lastError)
        XCTAssertEqual(index, 0)
    }
}
