import XCTest
import CEmend
import EmendCABI

/// emend_status_name takes any int an engine may hold: values the header does not define,
/// negative ones included, get a fixed name instead of a trap (the header says never NULL).
final class ABIStatusNameTests: XCTestCase {
    /// An emend_status holding an arbitrary C int, as a C engine may pass one.
    private func status(_ value: Int32) -> emend_status {
        emend_status(rawValue: UInt32(bitPattern: value))
    }

    func testKnownStatusesHaveTheirNames() {
        XCTAssertEqual(String(cString: emend_status_name(EMEND_OK)), "EMEND_OK")
        XCTAssertEqual(String(cString: emend_status_name(EMEND_E_RANGE)), "EMEND_E_RANGE")
        XCTAssertEqual(String(cString: emend_status_name(EMEND_E_POOR_RESULT)), "EMEND_E_POOR_RESULT")
    }

    /// The codes that split TIMEOUT and STATE are appended: the old numbers stay.
    func testSplitStatusesAreAppendedWithTheirNames() {
        XCTAssertEqual(EMEND_E_TIMEOUT.rawValue, 8)
        XCTAssertEqual(EMEND_E_STATE.rawValue, 6)
        XCTAssertEqual(EMEND_E_BUSY.rawValue, 17)
        XCTAssertEqual(EMEND_E_IN_CALLBACK.rawValue, 18)
        XCTAssertEqual(EMEND_E_AGAIN.rawValue, 19)
        XCTAssertEqual(String(cString: emend_status_name(EMEND_E_BUSY)), "EMEND_E_BUSY")
        XCTAssertEqual(String(cString: emend_status_name(EMEND_E_IN_CALLBACK)), "EMEND_E_IN_CALLBACK")
        XCTAssertEqual(String(cString: emend_status_name(EMEND_E_AGAIN)), "EMEND_E_AGAIN")
    }

    func testUnknownStatusesAreNamedUnknown() {
        for value: Int32 in [-1, -2, 20, 1000, Int32.min, Int32.max] {
            XCTAssertEqual(String(cString: emend_status_name(status(value))), "EMEND_E_UNKNOWN", "status \(value)")
        }
    }

    /// emend_answer_failed with a status the header does not define (even a negative one)
    /// ends the session with EMEND_E_INTERNAL, as the header says, instead of trapping.
    func testAnsweringFailedWithANegativeStatusIsInternal() throws {
        let engine = CEngine("See you tomorow.")
        engine.holdContexts = true
        let coordinator = try engine.makeCoordinator()
        defer { emend_coordinator_destroy(coordinator) }
        XCTAssertEqual(start(coordinator, EMEND_TOOL_PROOFREAD), EMEND_OK)
        XCTAssertTrue(pump(coordinator) { !engine.heldContexts.isEmpty })
        let request = try XCTUnwrap(engine.takeHeldContexts().first)
        XCTAssertEqual(emend_answer_failed(coordinator, request, status(-1), "no text"), EMEND_OK, lastError)
        XCTAssertStatus(runUntilIdle(coordinator), EMEND_E_INTERNAL, mentions: ["no text"])
        XCTAssertEqual(engine.text, "See you tomorow.")
    }
}
