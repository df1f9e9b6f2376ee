import XCTest
import Glibc
import CEmend
import EmendCABI

/// An engine that polls emend_coordinator_fd and dispatches never got a session's failure:
/// dispatch returns OK and the state just becomes INACTIVE. session_ended (appended to the
/// delegate table) tells it, and emend_coordinator_last_session_status answers when asked.
final class ABISessionEndedTests: XCTestCase {
    /// The last session's status, and the message the getter leaves for this thread when it failed.
    private func lastSession(_ coordinator: OpaquePointer?) -> (status: emend_status, message: String) {
        var status = EMEND_E_INTERNAL
        XCTAssertEqual(emend_coordinator_last_session_status(coordinator, &status), EMEND_OK, lastError)
        return (status, lastError)
    }

    func testARefusedReplaceIsToldInsideDispatch() throws {
        let engine = CEngine("See you tomorow.")
        engine.holdReplaces = true
        let coordinator = try engine.makeCoordinator()
        defer { emend_coordinator_destroy(coordinator) }
        XCTAssertEqual(lastSession(coordinator).status, EMEND_OK, "no session ended yet")
        XCTAssertEqual(start(coordinator, EMEND_TOOL_PROOFREAD), EMEND_OK)
        XCTAssertTrue(pump(coordinator) { !engine.heldReplaces.isEmpty })
        let request = try XCTUnwrap(engine.takeHeldReplaces().first)
        XCTAssertEqual(emend_answer_replace(coordinator, request, EMEND_REPLACE_REFUSED, nil, 0), EMEND_OK, lastError)
        // pump asserts that every dispatch returned EMEND_OK: the failure comes only as the notification.
        XCTAssertTrue(pump(coordinator) { !engine.endings.isEmpty })
        XCTAssertEqual(engine.endings.count, 1)
        XCTAssertEqual(engine.endings.first?.status, EMEND_E_REFUSED)
        XCTAssertTrue(engine.endings.first?.message.contains("refused") ?? false, "\(engine.endings)")
        XCTAssertEqual(engine.endings.first?.state, EMEND_STATE_INACTIVE)
        let last = lastSession(coordinator)
        XCTAssertEqual(last.status, EMEND_E_REFUSED)
        XCTAssertEqual(last.message, engine.endings.first?.message)
        XCTAssertEqual(engine.text, "See you tomorow.")
    }

    func testAcceptAndStopAreToldAsOK() throws {
        let engine = CEngine("See you tomorow.")
        let coordinator = try engine.makeCoordinator()
        defer { emend_coordinator_destroy(coordinator) }
        XCTAssertEqual(start(coordinator, EMEND_TOOL_PROOFREAD), EMEND_OK)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK)
        XCTAssertEqual(emend_session_accept(coordinator), EMEND_OK)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK)
        XCTAssertEqual(start(coordinator, EMEND_TOOL_REWRITE_FRIENDLY), EMEND_OK)
        XCTAssertEqual(emend_coordinator_stop(coordinator), EMEND_OK)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK)
        XCTAssertEqual(engine.endings.map(\.status), [EMEND_OK, EMEND_OK])
        XCTAssertEqual(engine.endings.map(\.message), ["", ""])
        XCTAssertEqual(lastSession(coordinator).status, EMEND_OK)
    }

    /// A table of the size before session_ended (or with a struct_size ending inside it) is
    /// never asked for it, whatever lies past its end.
    func testAnOlderTableIsNotTold() throws {
        let engine = CEngine("See you tomorow.")
        var table = engine.delegate()
        table.struct_size = MemoryLayout<emend_delegate>.offset(of: \emend_delegate.session_ended)! + 4
        var coordinator: OpaquePointer?
        XCTAssertEqual(emend_coordinator_create(&table, nil, &coordinator), EMEND_OK, lastError)
        defer { emend_coordinator_destroy(coordinator) }
        XCTAssertEqual(start(coordinator, EMEND_TOOL_PROOFREAD), EMEND_OK)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK)
        XCTAssertEqual(emend_session_accept(coordinator), EMEND_OK)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK)
        XCTAssertTrue(engine.endings.isEmpty)
        XCTAssertEqual(lastSession(coordinator).status, EMEND_OK)
    }

    func testTheGetterChecksItsArguments() throws {
        let engine = CEngine("See you tomorow.")
        let coordinator = try engine.makeCoordinator()
        defer { emend_coordinator_destroy(coordinator) }
        XCTAssertStatus(emend_coordinator_last_session_status(coordinator, nil), EMEND_E_INVALID_ARGUMENT, mentions: ["out_status"])
        var status = EMEND_OK
        XCTAssertStatus(emend_coordinator_last_session_status(nil, &status), EMEND_E_INVALID_ARGUMENT, mentions: ["coordinator"])
    }
}
