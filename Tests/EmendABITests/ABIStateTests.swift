import XCTest
import CEmend
import EmendCABI

/// Unknown ids are EMEND_E_NOT_FOUND, calls in the wrong state EMEND_E_STATE, and an answer
/// given twice (or after its session) EMEND_E_STALE; none of them changes anything.
final class ABIStateTests: XCTestCase {
    func testUnknownIdsAreNotFound() throws {
        let engine = CEngine("See you tomorow.")
        let coordinator = try engine.makeCoordinator()
        defer { emend_coordinator_destroy(coordinator) }
        XCTAssertEqual(start(coordinator, EMEND_TOOL_PROOFREAD), EMEND_OK)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK)
        let unknown = engine.contextID + 1000
        XCTAssertStatus(emend_coordinator_update_range(coordinator, unknown, emend_range(location: 0, length: 0), nil, 0, EMEND_UPDATE_TYPING),
                        EMEND_E_NOT_FOUND, mentions: ["\(unknown)"])
        var index = 0
        XCTAssertStatus(emend_session_suggestion_at_offset(coordinator, unknown, 0, &index), EMEND_E_NOT_FOUND)
        var length = 0
        XCTAssertStatus(emend_session_copy_result(coordinator, unknown, nil, 0, &length), EMEND_E_NOT_FOUND)
        // A suggestion index past the end, and an offset where there is none.
        var s = emend_suggestion()
        s.struct_size = MemoryLayout<emend_suggestion>.size
        XCTAssertStatus(emend_session_get_suggestion(coordinator, 1, &s), EMEND_E_NOT_FOUND, mentions: ["1"])
        XCTAssertStatus(emend_session_accept_suggestion(coordinator, 5), EMEND_E_NOT_FOUND)
        XCTAssertStatus(emend_session_reject_suggestion(coordinator, 5), EMEND_E_NOT_FOUND)
        XCTAssertStatus(emend_session_suggestion_at_offset(coordinator, engine.contextID, 0, &index), EMEND_E_NOT_FOUND, mentions: ["offset 0"])
        // A provider that does not exist.
        XCTAssertEqual(emend_session_accept(coordinator), EMEND_OK)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK)
        var request = emend_tool_request(struct_size: MemoryLayout<emend_tool_request>.size, tool: EMEND_TOOL_PROOFREAD,
                                         scope: EMEND_SCOPE_USER_SELECTION, prompt: nil, provider_id: nil)
        let status = "org.example.nothing".withCString { id in
            request.provider_id = id
            return emend_coordinator_start(coordinator, &request)
        }
        XCTAssertStatus(status, EMEND_E_NOT_FOUND, mentions: ["org.example.nothing"])
        // After the session, its context is gone too.
        XCTAssertStatus(emend_coordinator_update_range(coordinator, engine.contextID, emend_range(location: 0, length: 0), nil, 0, EMEND_UPDATE_TYPING),
                        EMEND_E_NOT_FOUND)
    }

    func testCallsInTheWrongStateAreRefused() throws {
        let engine = CEngine("I do not think it is ready.")
        let coordinator = try engine.makeCoordinator()
        defer { emend_coordinator_destroy(coordinator) }
        var flag: Int32 = 7
        // No session.
        XCTAssertStatus(emend_session_accept(coordinator), EMEND_E_STATE)
        XCTAssertStatus(emend_session_revert(coordinator), EMEND_E_STATE)
        XCTAssertStatus(emend_session_show_original(coordinator, 1), EMEND_E_STATE)
        XCTAssertStatus(emend_session_undo(coordinator), EMEND_E_STATE)
        XCTAssertStatus(emend_session_redo(coordinator), EMEND_E_STATE)
        XCTAssertStatus(emend_session_accept_suggestion(coordinator, 0), EMEND_E_STATE)
        XCTAssertStatus(start(coordinator, EMEND_TOOL_FOLLOW_UP, prompt: "uppercase"), EMEND_E_STATE, mentions: ["follow-up"])
        var length = 0
        XCTAssertEqual(emend_session_can_undo(coordinator, &flag), EMEND_OK)
        XCTAssertEqual(flag, 0)

        // While the tool runs.
        XCTAssertEqual(start(coordinator, EMEND_TOOL_REWRITE_FRIENDLY), EMEND_OK)
        XCTAssertStatus(start(coordinator, EMEND_TOOL_PROOFREAD), EMEND_E_STATE, mentions: ["already running"])
        XCTAssertStatus(emend_session_accept(coordinator), EMEND_E_STATE)
        XCTAssertStatus(emend_session_revert(coordinator), EMEND_E_STATE)
        XCTAssertStatus(emend_coordinator_set_preferred_behavior(coordinator, EMEND_BEHAVIOR_LIMITED), EMEND_E_STATE)
        XCTAssertStatus(emend_coordinator_set_preferred_result_options(coordinator, UInt32(EMEND_RESULT_LIST)), EMEND_E_STATE)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK)
        XCTAssertEqual(engine.text, "I don't think it's ready!")

        // Resting after a rewrite: suggestions do not apply; there is a result now.
        XCTAssertStatus(emend_session_accept_suggestion(coordinator, 0), EMEND_E_NOT_FOUND)
        XCTAssertEqual(emend_session_copy_result(coordinator, engine.contextID, nil, 0, &length), EMEND_OK)
        XCTAssertEqual(length, "I don't think it's ready!".utf8.count)
        var small = [CChar](repeating: 0, count: length)   // no room for the NUL
        XCTAssertStatus(emend_session_copy_result(coordinator, engine.contextID, &small, small.count, &length), EMEND_E_RANGE, mentions: ["\(length + 1)"])
        var buffer = [CChar](repeating: 0, count: length + 1)
        XCTAssertEqual(emend_session_copy_result(coordinator, engine.contextID, &buffer, buffer.count, &length), EMEND_OK)
        XCTAssertEqual(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self), "I don't think it's ready!")
        XCTAssertEqual(emend_session_accept(coordinator), EMEND_OK)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK)
        XCTAssertStatus(emend_session_accept(coordinator), EMEND_E_STATE)
        XCTAssertEqual(engine.text, "I don't think it's ready!")
    }

    func testSuggestionInTheWrongStateIsRefused() throws {
        let engine = CEngine("See you tomorow, I could of known.")
        let coordinator = try engine.makeCoordinator()
        defer { emend_coordinator_destroy(coordinator) }
        XCTAssertEqual(start(coordinator, EMEND_TOOL_PROOFREAD), EMEND_OK)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK)
        XCTAssertEqual(emend_session_accept_suggestion(coordinator, 0), EMEND_OK)
        XCTAssertStatus(emend_session_accept_suggestion(coordinator, 0), EMEND_E_STATE, mentions: ["not pending"])
        XCTAssertStatus(emend_session_reject_suggestion(coordinator, 0), EMEND_E_STATE)
        XCTAssertEqual(emend_session_reject_suggestion(coordinator, 1), EMEND_OK)
        // Until the reject is delivered, review calls wait: AGAIN (a step in flight), not STATE.
        XCTAssertStatus(emend_session_accept(coordinator), EMEND_E_AGAIN)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK)
        XCTAssertEqual(engine.text, "See you tomorrow, I could of known.")
        XCTAssertStatus(emend_session_show_original(coordinator, 1), EMEND_E_UNSUPPORTED)
        XCTAssertEqual(suggestion(coordinator, 0)?.state, EMEND_SUGGESTION_ACCEPTED)
        XCTAssertEqual(suggestion(coordinator, 1)?.state, EMEND_SUGGESTION_REJECTED)
    }

    func testDispatchInsideACallbackIsAnInCallbackError() throws {
        let engine = CEngine("I do not think it is ready.")
        var inner: [emend_status] = []
        engine.onStateChange = { coordinator, _ in
            inner.append(emend_coordinator_dispatch(coordinator, nil))
            inner.append(emend_coordinator_stop(coordinator))
        }
        let coordinator = try engine.makeCoordinator()
        defer { emend_coordinator_destroy(coordinator) }
        XCTAssertEqual(start(coordinator, EMEND_TOOL_REWRITE_FRIENDLY), EMEND_OK)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK)
        XCTAssertEqual(inner.count, 4)
        XCTAssertTrue(inner.allSatisfy { $0 == EMEND_E_IN_CALLBACK }, "\(inner.map { String(cString: emend_status_name($0)) })")
        XCTAssertEqual(engine.text, "I don't think it's ready!", "the refused stop changed nothing")
    }

    func testAnsweringTwiceIsStale() throws {
        let engine = CEngine("I do not think it is ready.")
        var second: [emend_status] = []
        var requests: [emend_request_id] = []
        engine.onStateChange = { coordinator, request in
            // The engine already answered this request with emend_answer_done.
            second.append(emend_answer_done(coordinator, request))
            requests.append(request)
        }
        let coordinator = try engine.makeCoordinator()
        defer { emend_coordinator_destroy(coordinator) }
        XCTAssertEqual(start(coordinator, EMEND_TOOL_REWRITE_FRIENDLY), EMEND_OK)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK)
        XCTAssertEqual(second, [EMEND_E_STALE, EMEND_E_STALE])
        XCTAssertEqual(engine.answerFailures, [])
        XCTAssertEqual(engine.text, "I don't think it's ready!")
        // After the session ended, its requests stay stale, whatever the answer.
        XCTAssertEqual(emend_session_accept(coordinator), EMEND_OK)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK)
        XCTAssertStatus(emend_answer_failed(coordinator, requests[0], EMEND_E_INTERNAL, nil), EMEND_E_STALE, mentions: ["\(requests[0])"])
        XCTAssertStatus(emend_answer_done(coordinator, 987_654), EMEND_E_STALE)
        XCTAssertEqual(state(coordinator), EMEND_STATE_INACTIVE)
    }

    func testAnswerOfTheWrongKindIsRefusedAndLeavesTheRequestOpen() throws {
        let engine = CEngine("See you tomorow.")
        engine.holdReplaces = true
        let coordinator = try engine.makeCoordinator()
        defer { emend_coordinator_destroy(coordinator) }
        XCTAssertEqual(start(coordinator, EMEND_TOOL_PROOFREAD), EMEND_OK)
        XCTAssertTrue(pump(coordinator) { !engine.heldReplaces.isEmpty })
        let request = try XCTUnwrap(engine.takeHeldReplaces().first)
        XCTAssertStatus(emend_answer_done(coordinator, request), EMEND_E_INVALID_ARGUMENT, mentions: ["different kind"])
        XCTAssertStatus(emend_answer_presented(coordinator, request, EMEND_PRESENTED_APPLY), EMEND_E_INVALID_ARGUMENT)
        engine.edit(engine.replaces[0].range, engine.replaces[0].text)
        XCTAssertEqual(emend_answer_replace(coordinator, request, EMEND_REPLACE_APPLIED, nil, 0), EMEND_OK)
        XCTAssertStatus(emend_answer_replace(coordinator, request, EMEND_REPLACE_APPLIED, nil, 0), EMEND_E_STALE)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK)
        XCTAssertEqual(engine.text, "See you tomorrow.")
    }

    func testEngineFailingARequestEndsTheSessionWithItsStatus() throws {
        let engine = CEngine("I do not think it is ready.")
        engine.holdReplaces = true
        let coordinator = try engine.makeCoordinator()
        defer { emend_coordinator_destroy(coordinator) }
        XCTAssertEqual(start(coordinator, EMEND_TOOL_REWRITE_FRIENDLY), EMEND_OK)
        XCTAssertTrue(pump(coordinator) { !engine.heldReplaces.isEmpty })
        let request = try XCTUnwrap(engine.takeHeldReplaces().first)
        XCTAssertEqual(emend_answer_failed(coordinator, request, EMEND_E_CANCELLED, "the user closed the document"), EMEND_OK)
        XCTAssertStatus(runUntilIdle(coordinator), EMEND_E_CANCELLED, mentions: ["closed the document"])
        XCTAssertEqual(state(coordinator), EMEND_STATE_INACTIVE)
        XCTAssertEqual(engine.text, "I do not think it is ready.")
    }
}
