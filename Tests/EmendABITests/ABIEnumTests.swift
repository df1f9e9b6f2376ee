import XCTest
import CEmend
import EmendCABI

/// Enum values the header does not define are EMEND_E_INVALID_ARGUMENT and change nothing.
final class ABIEnumTests: XCTestCase {
    func testUnknownEnumsInOptionsAreRejectedAtCreate() {
        let engine = CEngine("Text.")
        var table = engine.delegate()
        var coordinator: OpaquePointer?
        func create(_ change: (inout emend_coordinator_options) -> Void) -> emend_status {
            var options = emend_coordinator_options()
            options.struct_size = MemoryLayout<emend_coordinator_options>.size
            change(&options)
            return emend_coordinator_create(&table, &options, &coordinator)
        }
        XCTAssertStatus(create { $0.encoding = emend_position_encoding(rawValue: 3) }, EMEND_E_INVALID_ARGUMENT, mentions: ["encoding", "3"])
        XCTAssertStatus(create { $0.preferred_behavior = emend_behavior(rawValue: 7) }, EMEND_E_INVALID_ARGUMENT, mentions: ["behavior", "7"])
        XCTAssertStatus(create { $0.preferred_behavior = emend_behavior(rawValue: -2) }, EMEND_E_INVALID_ARGUMENT)
        XCTAssertStatus(create { $0.preferred_result_options = 1 << 5 }, EMEND_E_INVALID_ARGUMENT, mentions: ["result option"])
        XCTAssertStatus(create { $0.provider_hosts = emend_provider_hosts(rawValue: 3) }, EMEND_E_INVALID_ARGUMENT, mentions: ["provider hosts", "3"])
        XCTAssertNil(coordinator)
    }

    func testUnknownEnumsInCallsAreRejected() throws {
        let engine = CEngine("See you tomorow.")
        let coordinator = try engine.makeCoordinator()
        defer { emend_coordinator_destroy(coordinator) }
        XCTAssertStatus(emend_coordinator_set_preferred_behavior(coordinator, emend_behavior(rawValue: 3)), EMEND_E_INVALID_ARGUMENT, mentions: ["behavior 3"])
        XCTAssertStatus(emend_coordinator_set_preferred_result_options(coordinator, 0x40), EMEND_E_INVALID_ARGUMENT, mentions: ["0x40"])
        var preferred = EMEND_BEHAVIOR_NONE, resolved = EMEND_BEHAVIOR_NONE
        XCTAssertEqual(emend_coordinator_get_behavior(coordinator, &preferred, &resolved), EMEND_OK)
        XCTAssertEqual(preferred, EMEND_BEHAVIOR_DEFAULT)
        XCTAssertEqual(resolved, EMEND_BEHAVIOR_COMPLETE)

        XCTAssertStatus(start(coordinator, emend_tool(rawValue: 11)), EMEND_E_INVALID_ARGUMENT, mentions: ["tool 11"])
        XCTAssertStatus(start(coordinator, emend_tool(rawValue: 1_000)), EMEND_E_INVALID_ARGUMENT)
        XCTAssertStatus(start(coordinator, EMEND_TOOL_PROOFREAD, scope: emend_context_scope(rawValue: 9)), EMEND_E_INVALID_ARGUMENT, mentions: ["scope 9"])
        XCTAssertEqual(state(coordinator), EMEND_STATE_INACTIVE)
        XCTAssertTrue(engine.states.isEmpty)

        engine.holdReplaces = true
        XCTAssertEqual(start(coordinator, EMEND_TOOL_PROOFREAD), EMEND_OK)
        XCTAssertTrue(pump(coordinator) { !engine.heldReplaces.isEmpty })
        let request = try XCTUnwrap(engine.takeHeldReplaces().first)
        XCTAssertStatus(emend_answer_replace(coordinator, request, emend_replace_answer(rawValue: 2), nil, 0), EMEND_E_INVALID_ARGUMENT, mentions: ["replace answer 2"])
        engine.edit(engine.replaces[0].range, engine.replaces[0].text)
        XCTAssertEqual(emend_answer_replace(coordinator, request, EMEND_REPLACE_APPLIED, nil, 0), EMEND_OK, "the bad answer left the request open")
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK)
        XCTAssertStatus(emend_coordinator_update_range(coordinator, engine.contextID, emend_range(location: 0, length: 0), nil, 0,
                                                       emend_text_update_reason(rawValue: 5)), EMEND_E_INVALID_ARGUMENT, mentions: ["reason 5"])
        XCTAssertEqual(engine.text, "See you tomorrow.")
    }

    func testUnknownPresentedActionIsRejected() throws {
        let engine = CEngine("The build is green. The release is tomorrow.")
        engine.presentedAction = emend_presented_action(rawValue: 3)
        let coordinator = try engine.makeCoordinator(completionTimeout: 200)
        defer { emend_coordinator_destroy(coordinator) }
        XCTAssertEqual(start(coordinator, EMEND_TOOL_SUMMARY), EMEND_OK)
        // The engine's bad answer is refused; the request stays unanswered. A presented result
        // waits for a person, so no timeout ends it (emend.h, present_result): still busy well
        // past completion_timeout_ms, until the engine stops the session.
        XCTAssertStatus(runUntilIdle(coordinator, 600), EMEND_E_BUSY)
        XCTAssertEqual(state(coordinator), EMEND_STATE_NONINTERACTIVE)
        XCTAssertEqual(emend_coordinator_stop(coordinator), EMEND_OK)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK, lastError)
        XCTAssertEqual(engine.answerFailures.count, 1)
        XCTAssertTrue(engine.answerFailures.first?.contains("EMEND_E_INVALID_ARGUMENT") ?? false, "\(engine.answerFailures)")
        XCTAssertEqual(engine.presented, ["The build is green."])
        XCTAssertEqual(engine.text, "The build is green. The release is tomorrow.")
    }

    func testUnknownBlockKindInAContextIsRejected() throws {
        let engine = CEngine("# Title")
        engine.holdContexts = true
        let coordinator = try engine.makeCoordinator()
        defer { emend_coordinator_destroy(coordinator) }
        XCTAssertEqual(start(coordinator, EMEND_TOOL_PROOFREAD), EMEND_OK)
        XCTAssertTrue(pump(coordinator) { !engine.heldContexts.isEmpty })
        let request = try XCTUnwrap(engine.takeHeldContexts().first)
        var intent = emend_block_intent(range: emend_range(location: 0, length: 7), kind: emend_block_kind(rawValue: 6),
                                        level: 1, ordinal: 0, row: 0, column: 0)
        let status = engine.withContext { desc in
            var copy = desc
            return withUnsafePointer(to: &intent) { pointer in
                copy.block_intents = pointer
                copy.block_intent_count = 1
                return emend_answer_contexts(coordinator, request, &copy, 1)
            }
        }
        XCTAssertStatus(status, EMEND_E_INVALID_ARGUMENT, mentions: ["block_intents[0].kind", "6"])
        XCTAssertEqual(engine.answerContexts(coordinator, request), EMEND_OK)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK)
    }

    func testUnknownStatusNamesAreStillStrings() {
        XCTAssertEqual(String(cString: emend_status_name(EMEND_OK)), "EMEND_OK")
        XCTAssertEqual(String(cString: emend_status_name(EMEND_E_STALE)), "EMEND_E_STALE")
        XCTAssertEqual(String(cString: emend_status_name(EMEND_E_INTERNAL)), "EMEND_E_INTERNAL")
        XCTAssertFalse(String(cString: emend_status_name(emend_status(rawValue: 99))).isEmpty)
        XCTAssertEqual(CEmend.emend_abi_version(), UInt32(EMEND_ABI_VERSION))
    }
}
