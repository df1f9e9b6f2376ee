import XCTest
import Foundation
import CEmend
import EmendCABI

/// emend_last_error_message(): specific, per thread, kept until the next failure.
final class ABIErrorMessageTests: XCTestCase {
    /// Runs `body` on a new thread and waits for it.
    private func onAnotherThread(_ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        Thread { body(); done.signal() }.start()
        XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
    }

    func testMessagesNameTheProblem() throws {
        let engine = CEngine("See you tomorow.")
        let coordinator = try engine.makeCoordinator()
        defer { emend_coordinator_destroy(coordinator) }
        XCTAssertEqual(emend_session_accept(coordinator), EMEND_E_STATE)
        XCTAssertEqual(lastError, "there is no finished result to accept")
        XCTAssertEqual(emend_coordinator_set_preferred_result_options(coordinator, 0x300), EMEND_E_INVALID_ARGUMENT)
        XCTAssertEqual(lastError, "unknown result option bits 0x300")
        XCTAssertEqual(start(coordinator, EMEND_TOOL_COMPOSE), EMEND_E_INVALID_ARGUMENT)
        XCTAssertEqual(lastError, "compose needs a prompt")
        XCTAssertEqual(emend_session_undo(coordinator), EMEND_E_STATE)
        XCTAssertTrue(lastError.contains("no finished result"), lastError)
    }

    func testMessageStaysUntilTheNextFailure() throws {
        let engine = CEngine("Text.")
        let coordinator = try engine.makeCoordinator()
        defer { emend_coordinator_destroy(coordinator) }
        XCTAssertEqual(emend_session_revert(coordinator), EMEND_E_STATE)
        let message = lastError
        XCTAssertFalse(message.isEmpty)
        var st = EMEND_STATE_INACTIVE
        XCTAssertEqual(emend_coordinator_get_state(coordinator, &st), EMEND_OK)
        XCTAssertEqual(emend_coordinator_dispatch(coordinator, nil), EMEND_OK)
        XCTAssertEqual(lastError, message, "successful calls do not clear the message")
        XCTAssertEqual(emend_coordinator_get_state(coordinator, nil), EMEND_E_INVALID_ARGUMENT)
        XCTAssertEqual(lastError, "state is NULL")
    }

    func testMessagesArePerThread() throws {
        XCTAssertEqual(emend_coordinator_stop(nil), EMEND_E_INVALID_ARGUMENT)
        XCTAssertEqual(lastError, "coordinator is NULL")
        final class Box: @unchecked Sendable { var before = "?"; var after = "?"; var status = EMEND_OK }
        let box = Box()
        onAnotherThread {
            box.before = lastError
            var index = 0
            box.status = emend_session_suggestion_at_point(nil, 1, 2, &index)
            box.status = emend_answer_rects(nil, 1, nil, 0)
            box.after = lastError
        }
        XCTAssertEqual(box.before, "", "a thread on which nothing failed has no message")
        XCTAssertEqual(box.status, EMEND_E_INVALID_ARGUMENT)
        XCTAssertEqual(box.after, "coordinator is NULL")
        XCTAssertEqual(lastError, "coordinator is NULL", "this thread's message is its own")
        XCTAssertEqual(emend_session_redo(nil), EMEND_E_INVALID_ARGUMENT)
    }

    func testWrongThreadIsRefusedButAnswersAreNot() throws {
        let engine = CEngine("See you tomorow.")
        engine.holdReplaces = true
        let coordinator = try engine.makeCoordinator()
        defer { emend_coordinator_destroy(coordinator) }
        nonisolated(unsafe) let handle = coordinator
        final class Box: @unchecked Sendable { var statuses: [String: emend_status] = [:]; var message = ""; var fd: Int32 = -1 }
        let box = Box()
        onAnotherThread {
            box.statuses["start"] = start(handle, EMEND_TOOL_PROOFREAD)
            box.message = lastError
            box.statuses["dispatch"] = emend_coordinator_dispatch(handle, nil)
            box.statuses["run_until_idle"] = emend_coordinator_run_until_idle(handle, 10)
            box.statuses["stop"] = emend_coordinator_stop(handle)
            var st = EMEND_STATE_INACTIVE
            box.statuses["get_state"] = emend_coordinator_get_state(handle, &st)
            var count = 0
            box.statuses["suggestion_count"] = emend_session_suggestion_count(handle, &count)
            box.statuses["set_preferred_behavior"] = emend_coordinator_set_preferred_behavior(handle, EMEND_BEHAVIOR_LIMITED)
            box.fd = emend_coordinator_fd(handle)
        }
        XCTAssertEqual(box.statuses.count, 7)
        for (name, status) in box.statuses {
            XCTAssertEqual(status, EMEND_E_WRONG_THREAD, name)
        }
        XCTAssertTrue(box.message.contains("another thread"), box.message)
        XCTAssertEqual(box.fd, emend_coordinator_fd(coordinator), "the descriptor may be read from any thread")
        XCTAssertEqual(state(coordinator), EMEND_STATE_INACTIVE, "nothing started")

        // Answers come from any thread.
        XCTAssertEqual(start(coordinator, EMEND_TOOL_PROOFREAD), EMEND_OK)
        XCTAssertTrue(pump(coordinator) { !engine.heldReplaces.isEmpty })
        let request = try XCTUnwrap(engine.takeHeldReplaces().first)
        engine.edit(engine.replaces[0].range, engine.replaces[0].text)
        onAnotherThread {
            box.statuses["answer"] = emend_answer_replace(handle, request, EMEND_REPLACE_APPLIED, nil, 0)
        }
        XCTAssertEqual(box.statuses["answer"], EMEND_OK)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK)
        XCTAssertEqual(engine.text, "See you tomorrow.")
        XCTAssertEqual(state(coordinator), EMEND_STATE_INTERACTIVE_RESTING)
    }
}
