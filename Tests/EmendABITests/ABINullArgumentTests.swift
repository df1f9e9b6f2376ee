import XCTest
import CEmend
import EmendCABI

/// NULL handles and NULL pointers are EMEND_E_INVALID_ARGUMENT, never a crash.
final class ABINullArgumentTests: XCTestCase {
    func testNullCoordinatorIsRejectedEverywhere() {
        var size = 0
        var flag: Int32 = 0
        var index = 0
        var st = EMEND_STATE_INACTIVE
        var behavior = EMEND_BEHAVIOR_DEFAULT, resolvedBehavior = EMEND_BEHAVIOR_DEFAULT
        var options: UInt32 = 0, resolvedOptions: UInt32 = 0
        var s = emend_suggestion()
        s.struct_size = MemoryLayout<emend_suggestion>.size
        var request = emend_tool_request(struct_size: MemoryLayout<emend_tool_request>.size, tool: EMEND_TOOL_PROOFREAD,
                                         scope: EMEND_SCOPE_USER_SELECTION, prompt: nil, provider_id: nil)
        let calls: [(String, () -> emend_status)] = [
            ("dispatch", { emend_coordinator_dispatch(nil, &size) }),
            ("run_until_idle", { emend_coordinator_run_until_idle(nil, 10) }),
            ("set_preferred_behavior", { emend_coordinator_set_preferred_behavior(nil, EMEND_BEHAVIOR_COMPLETE) }),
            ("get_behavior", { emend_coordinator_get_behavior(nil, &behavior, &resolvedBehavior) }),
            ("set_preferred_result_options", { emend_coordinator_set_preferred_result_options(nil, 1) }),
            ("get_result_options", { emend_coordinator_get_result_options(nil, &options, &resolvedOptions) }),
            ("get_state", { emend_coordinator_get_state(nil, &st) }),
            ("start", { emend_coordinator_start(nil, &request) }),
            ("stop", { emend_coordinator_stop(nil) }),
            ("update_range", { emend_coordinator_update_range(nil, 1, emend_range(), nil, 0, EMEND_UPDATE_TYPING) }),
            ("update_for_reflowed_text", { emend_coordinator_update_for_reflowed_text(nil) }),
            ("accept", { emend_session_accept(nil) }),
            ("revert", { emend_session_revert(nil) }),
            ("show_original", { emend_session_show_original(nil, 1) }),
            ("suggestion_count", { emend_session_suggestion_count(nil, &size) }),
            ("get_suggestion", { emend_session_get_suggestion(nil, 0, &s) }),
            ("accept_suggestion", { emend_session_accept_suggestion(nil, 0) }),
            ("reject_suggestion", { emend_session_reject_suggestion(nil, 0) }),
            ("review_changes", { emend_session_review_changes(nil, &size) }),
            ("suggestion_at_offset", { emend_session_suggestion_at_offset(nil, 1, 0, &index) }),
            ("suggestion_at_point", { emend_session_suggestion_at_point(nil, 0, 0, &index) }),
            ("undo", { emend_session_undo(nil) }),
            ("redo", { emend_session_redo(nil) }),
            ("can_undo", { emend_session_can_undo(nil, &flag) }),
            ("can_redo", { emend_session_can_redo(nil, &flag) }),
            ("copy_result", { emend_session_copy_result(nil, 1, nil, 0, &size) }),
            ("answer_contexts", { emend_answer_contexts(nil, 1, nil, 0) }),
            ("answer_replace", { emend_answer_replace(nil, 1, EMEND_REPLACE_APPLIED, nil, 0) }),
            ("answer_rects", { emend_answer_rects(nil, 1, nil, 0) }),
            ("answer_preview", { emend_answer_preview(nil, 1, nil) }),
            ("answer_presented", { emend_answer_presented(nil, 1, EMEND_PRESENTED_COPY) }),
            ("answer_done", { emend_answer_done(nil, 1) }),
            ("answer_failed", { emend_answer_failed(nil, 1, EMEND_E_INTERNAL, nil) }),
        ]
        for (name, call) in calls {
            let status = call()
            XCTAssertEqual(status, EMEND_E_INVALID_ARGUMENT, name)
            XCTAssertTrue(lastError.contains("coordinator is NULL"), "\(name): \(lastError)")
        }
        XCTAssertEqual(emend_coordinator_fd(nil), -1)
        emend_coordinator_destroy(nil)   // allowed
    }

    func testCreateRejectsNullArguments() {
        let engine = CEngine("Text.")
        var table = engine.delegate()
        var coordinator: OpaquePointer?
        XCTAssertStatus(emend_coordinator_create(nil, nil, &coordinator), EMEND_E_INVALID_ARGUMENT, mentions: ["delegate"])
        XCTAssertNil(coordinator)
        XCTAssertStatus(emend_coordinator_create(&table, nil, nil), EMEND_E_INVALID_ARGUMENT, mentions: ["out"])
        table.requests_contexts = nil
        XCTAssertStatus(emend_coordinator_create(&table, nil, &coordinator), EMEND_E_INVALID_ARGUMENT, mentions: ["requests_contexts"])
        XCTAssertNil(coordinator)
    }

    func testNullOutPointersAndBuffersAreRejected() throws {
        let engine = CEngine("See you tomorow.")
        engine.holdContexts = true
        let coordinator = try engine.makeCoordinator()
        defer { emend_coordinator_destroy(coordinator) }
        XCTAssertStatus(emend_coordinator_get_state(coordinator, nil), EMEND_E_INVALID_ARGUMENT, mentions: ["state"])
        XCTAssertStatus(emend_coordinator_start(coordinator, nil), EMEND_E_INVALID_ARGUMENT, mentions: ["request"])
        XCTAssertStatus(emend_session_suggestion_count(coordinator, nil), EMEND_E_INVALID_ARGUMENT, mentions: ["count"])
        XCTAssertStatus(emend_session_can_undo(coordinator, nil), EMEND_E_INVALID_ARGUMENT)
        XCTAssertStatus(emend_session_can_redo(coordinator, nil), EMEND_E_INVALID_ARGUMENT)
        // The optional out pointers of the getters may be NULL.
        XCTAssertEqual(emend_coordinator_get_behavior(coordinator, nil, nil), EMEND_OK)
        XCTAssertEqual(emend_coordinator_get_result_options(coordinator, nil, nil), EMEND_OK)

        XCTAssertEqual(start(coordinator, EMEND_TOOL_PROOFREAD), EMEND_OK)
        XCTAssertTrue(pump(coordinator) { !engine.heldContexts.isEmpty })
        let request = try XCTUnwrap(engine.takeHeldContexts().first)
        XCTAssertStatus(emend_answer_contexts(coordinator, request, nil, 1), EMEND_E_INVALID_ARGUMENT, mentions: ["contexts"])
        // A NULL text with a non-zero length, and a NULL protected range array with a count.
        engine.withContext { desc in
            var bad = desc
            bad.text = nil
            XCTAssertStatus(emend_answer_contexts(coordinator, request, &bad, 1), EMEND_E_INVALID_ARGUMENT, mentions: ["contexts[0].text", "NULL"])
            bad = desc
            bad.protected_ranges = nil
            bad.protected_range_count = 2
            XCTAssertStatus(emend_answer_contexts(coordinator, request, &bad, 1), EMEND_E_INVALID_ARGUMENT, mentions: ["protected_ranges"])
            var good = desc
            XCTAssertStatus(emend_answer_contexts(coordinator, request, &good, 0), EMEND_E_INVALID_ARGUMENT, mentions: ["count"])
        }
        // None of the failed answers used up the request.
        XCTAssertEqual(engine.answerContexts(coordinator, request), EMEND_OK)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK)
        XCTAssertEqual(engine.text, "See you tomorrow.")
        XCTAssertEqual(suggestionCount(coordinator), 1)
        XCTAssertStatus(emend_session_get_suggestion(coordinator, 0, nil), EMEND_E_INVALID_ARGUMENT, mentions: ["out"])
        var index = 0
        XCTAssertStatus(emend_session_suggestion_at_offset(coordinator, engine.contextID, 9, nil), EMEND_E_INVALID_ARGUMENT)
        XCTAssertEqual(emend_session_suggestion_at_offset(coordinator, engine.contextID, 9, &index), EMEND_OK)
        XCTAssertStatus(emend_session_copy_result(coordinator, engine.contextID, nil, 0, nil), EMEND_E_INVALID_ARGUMENT, mentions: ["length"])
        XCTAssertStatus(emend_coordinator_update_range(coordinator, engine.contextID, emend_range(location: 0, length: 0), nil, 3, EMEND_UPDATE_TYPING),
                        EMEND_E_INVALID_ARGUMENT, mentions: ["text"])
        XCTAssertEqual(engine.answerFailures, [])
    }

    func testNullRectsWithACountAreRejected() {
        // Unknown request, but the NULL array is seen first and nothing is consumed.
        let engine = CEngine("Text.")
        var table = engine.delegate()
        var coordinator: OpaquePointer?
        XCTAssertEqual(emend_coordinator_create(&table, nil, &coordinator), EMEND_OK)
        defer { emend_coordinator_destroy(coordinator) }
        XCTAssertStatus(emend_answer_rects(coordinator, 1, nil, 2), EMEND_E_INVALID_ARGUMENT, mentions: ["rects"])
    }
}
