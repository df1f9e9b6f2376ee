import XCTest
import CEmend
import EmendCABI

/// Lengths and counts no engine can really hold (SIZE_MAX, above PTRDIFF_MAX, above the 1 GiB
/// cap of emend.h) are EMEND_E_INVALID_ARGUMENT naming the field, for every (pointer, length)
/// pair of the header; never "empty", "a deletion" or "as proposed", and nothing changes.
final class ABIImpossibleLengthTests: XCTestCase {
    private let impossible: [Int] = [-1 /* SIZE_MAX */, Int.min /* PTRDIFF_MAX + 1 */, Int.max, (1 << 30) + 1]

    func testInsertedLengthOfAReplace() throws {
        let engine = CEngine("See you tomorow.")
        engine.holdReplaces = true
        let coordinator = try engine.makeCoordinator()
        defer { emend_coordinator_destroy(coordinator) }
        XCTAssertEqual(start(coordinator, EMEND_TOOL_PROOFREAD), EMEND_OK)
        XCTAssertTrue(pump(coordinator) { !engine.heldReplaces.isEmpty })
        let request = try XCTUnwrap(engine.takeHeldReplaces().first)
        for length in impossible {
            XCTAssertStatus(emend_answer_replace(coordinator, request, EMEND_REPLACE_APPLIED, "xyz", length),
                            EMEND_E_INVALID_ARGUMENT, mentions: ["inserted_length", String(UInt(bitPattern: length))])
            XCTAssertStatus(emend_answer_replace(coordinator, request, EMEND_REPLACE_APPLIED, nil, length),
                            EMEND_E_INVALID_ARGUMENT, mentions: ["inserted_length"])
        }
        // The request still awaits its real answer.
        engine.edit(engine.range(of: "tomorow")!, "tomorrow")
        XCTAssertEqual(emend_answer_replace(coordinator, request, EMEND_REPLACE_APPLIED, nil, 0), EMEND_OK, lastError)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK, lastError)
        var length = 0
        XCTAssertEqual(emend_session_copy_result(coordinator, engine.contextID, nil, 0, &length), EMEND_OK, lastError)
        XCTAssertEqual(length, "See you tomorrow.".utf8.count, "the runtime's copy is the engine's text")
    }

    func testTextLengthOfAnUpdate() throws {
        let engine = CEngine("See you tomorow. Bye.")
        let coordinator = try engine.makeCoordinator()
        defer { emend_coordinator_destroy(coordinator) }
        XCTAssertEqual(start(coordinator, EMEND_TOOL_PROOFREAD), EMEND_OK)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK)
        let bye = try XCTUnwrap(engine.range(of: "Bye"))
        for length in impossible {
            XCTAssertStatus(emend_coordinator_update_range(coordinator, engine.contextID, bye, "Howdy", length, EMEND_UPDATE_TYPING),
                            EMEND_E_INVALID_ARGUMENT, mentions: ["text_length"])
        }
        XCTAssertEqual(suggestionCount(coordinator), 1)
        XCTAssertEqual(suggestion(coordinator, 0)?.state, EMEND_SUGGESTION_PENDING)
        XCTAssertEqual(emend_session_accept(coordinator), EMEND_OK)
    }

    func testCountsOfContextsAndTheirArrays() throws {
        let engine = CEngine("See you tomorow.")
        engine.holdContexts = true
        let coordinator = try engine.makeCoordinator()
        defer { emend_coordinator_destroy(coordinator) }
        XCTAssertEqual(start(coordinator, EMEND_TOOL_PROOFREAD), EMEND_OK)
        XCTAssertTrue(pump(coordinator) { !engine.heldContexts.isEmpty })
        let request = try XCTUnwrap(engine.takeHeldContexts().first)
        engine.withContext { desc in
            var copy = desc
            for length in impossible {
                XCTAssertStatus(emend_answer_contexts(coordinator, request, &copy, length), EMEND_E_INVALID_ARGUMENT, mentions: ["count"])
                let fields: [(String, (inout emend_context_desc) -> Void)] = [
                    ("contexts[0].text_length", { $0.text_length = length }),
                    ("contexts[0].protected_range_count", { $0.protected_range_count = length }),
                    ("contexts[0].attribute_run_count", { $0.attribute_run_count = length }),
                    ("contexts[0].block_intent_count", { $0.block_intent_count = length }),
                ]
                for (name, change) in fields {
                    var bad = desc
                    change(&bad)
                    XCTAssertStatus(emend_answer_contexts(coordinator, request, &bad, 1), EMEND_E_INVALID_ARGUMENT, mentions: [name])
                }
            }
            XCTAssertEqual(emend_answer_contexts(coordinator, request, &copy, 1), EMEND_OK, lastError)
        }
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK)
        XCTAssertEqual(engine.text, "See you tomorrow.")
    }

    func testRectCountsAndOutputCapacities() throws {
        let engine = CEngine("See you tomorow.")
        let coordinator = try engine.makeCoordinator()
        defer { emend_coordinator_destroy(coordinator) }
        XCTAssertEqual(start(coordinator, EMEND_TOOL_PROOFREAD), EMEND_OK)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK)
        var rect = emend_rect(x: 0, y: 0, width: 1, height: 1)
        // No rects request is out: a valid count is STALE, an impossible one is refused first.
        XCTAssertStatus(emend_answer_rects(coordinator, 999, &rect, -1), EMEND_E_INVALID_ARGUMENT, mentions: ["count"])
        XCTAssertStatus(emend_answer_rects(coordinator, 999, &rect, 1), EMEND_E_STALE)

        var buffer = [CChar](repeating: 0, count: 64)
        var length = 0
        XCTAssertStatus(emend_session_copy_result(coordinator, engine.contextID, &buffer, -1, &length),
                        EMEND_E_INVALID_ARGUMENT, mentions: ["capacity"])
        XCTAssertEqual(emend_session_copy_result(coordinator, engine.contextID, &buffer, buffer.count, &length), EMEND_OK, lastError)
        var count = 0
        XCTAssertStatus(emend_session_get_suggestion_rects(coordinator, 0, &rect, -1, &count),
                        EMEND_E_INVALID_ARGUMENT, mentions: ["capacity"])
        XCTAssertEqual(emend_session_get_suggestion_rects(coordinator, 0, &rect, 1, &count), EMEND_OK, lastError)
    }
}
