import XCTest
import Glibc
import CEmend
import EmendCABI

/// emend_request_is_pending says whether an answer would still be taken (any thread), so an
/// engine answering late knows whether acting on it matters.
final class ABIRequestPendingTests: XCTestCase {
    private func pending(_ coordinator: OpaquePointer?, _ request: emend_request_id) -> Int32 {
        var value: Int32 = -1
        XCTAssertEqual(emend_request_is_pending(coordinator, request, &value), EMEND_OK, lastError)
        return value
    }

    /// The same question from another thread.
    private func pendingOnAnotherThread(_ coordinator: OpaquePointer?, _ request: emend_request_id) -> Int32 {
        final class Box: @unchecked Sendable { var value: Int32 = -1; var status = EMEND_E_INTERNAL; var pointer: OpaquePointer?; var request: emend_request_id = 0 }
        let box = Box()
        box.pointer = coordinator
        box.request = request
        var thread = pthread_t()
        let raw = Unmanaged.passRetained(box).toOpaque()
        XCTAssertEqual(pthread_create(&thread, nil, { raw in
            let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
            box.status = emend_request_is_pending(box.pointer, box.request, &box.value)
            return nil
        }, raw), 0)
        pthread_join(thread, nil)
        XCTAssertEqual(box.status, EMEND_OK)
        return box.value
    }

    func testPendingUntilAnswered() throws {
        let engine = CEngine("See you tomorow.")
        engine.holdReplaces = true
        let coordinator = try engine.makeCoordinator()
        XCTAssertEqual(start(coordinator, EMEND_TOOL_PROOFREAD), EMEND_OK)
        XCTAssertTrue(pump(coordinator) { !engine.heldReplaces.isEmpty })
        let request = try XCTUnwrap(engine.takeHeldReplaces().first)
        XCTAssertEqual(pending(coordinator, request), 1)
        XCTAssertEqual(pendingOnAnotherThread(coordinator, request), 1)
        XCTAssertEqual(pending(coordinator, request + 1_000_000), 0, "never issued")
        XCTAssertStatus(emend_request_is_pending(coordinator, request, nil), EMEND_E_INVALID_ARGUMENT, mentions: ["out_pending"])
        var value: Int32 = 0
        XCTAssertStatus(emend_request_is_pending(nil, request, &value), EMEND_E_INVALID_ARGUMENT, mentions: ["coordinator"])
        engine.edit(engine.replaces[0].range, engine.replaces[0].text)
        XCTAssertEqual(emend_answer_replace_as_proposed(coordinator, request), EMEND_OK)
        XCTAssertEqual(pending(coordinator, request), 0, "answered: a second answer would be stale")
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK, lastError)
        XCTAssertEqual(engine.text, "See you tomorrow.")
        // A request left open when the coordinator goes is not pending, and asking is safe.
        XCTAssertEqual(emend_session_reject_suggestion(coordinator, 0), EMEND_OK)
        XCTAssertTrue(pump(coordinator) { !engine.heldReplaces.isEmpty })
        let open = try XCTUnwrap(engine.takeHeldReplaces().first)
        XCTAssertEqual(pending(coordinator, open), 1)
        emend_coordinator_destroy(coordinator)
        XCTAssertEqual(pending(coordinator, open), 0)
    }

    func testAStopWithdrawsAQuestion() throws {
        let engine = CEngine("See you tomorow.")
        engine.holdContexts = true
        let coordinator = try engine.makeCoordinator()
        defer { emend_coordinator_destroy(coordinator) }
        XCTAssertEqual(start(coordinator, EMEND_TOOL_PROOFREAD), EMEND_OK)
        XCTAssertTrue(pump(coordinator) { !engine.heldContexts.isEmpty })
        let request = try XCTUnwrap(engine.takeHeldContexts().first)
        XCTAssertEqual(pending(coordinator, request), 1)
        XCTAssertEqual(emend_coordinator_stop(coordinator), EMEND_OK)
        XCTAssertEqual(pending(coordinator, request), 0)
        XCTAssertStatus(engine.answerContexts(coordinator, request), EMEND_E_STALE)
    }
}
