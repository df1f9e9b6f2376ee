import XCTest
import CEmend
import EmendCABI

/// emend_coordinator_context_ids gives the ids of the session's contexts in the order the
/// engine gave them, so the engine can call update_range without waiting for a callback that
/// names the context.
final class ABIContextIDsTests: XCTestCase {
    private func contextIDs(_ coordinator: OpaquePointer?, capacity: Int = 8) -> [UInt64] {
        var ids = [UInt64](repeating: 0, count: capacity)
        var count = 0
        XCTAssertEqual(emend_coordinator_context_ids(coordinator, &ids, capacity, &count), EMEND_OK, lastError)
        return Array(ids.prefix(min(count, capacity)))
    }

    func testIdsInTheOrderGivenThenUpdateRangeWithThem() throws {
        let engine = CEngine("See you tomorow.")
        engine.holdContexts = true
        engine.holdReplaces = true
        let coordinator = try engine.makeCoordinator()
        defer { emend_coordinator_destroy(coordinator) }
        XCTAssertEqual(contextIDs(coordinator), [], "no session, no contexts")
        XCTAssertEqual(start(coordinator, EMEND_TOOL_PROOFREAD), EMEND_OK)
        XCTAssertTrue(pump(coordinator) { !engine.heldContexts.isEmpty })
        let request = try XCTUnwrap(engine.takeHeldContexts().first)
        // Two contexts: the document (working) and a second text, e.g. a caption.
        let caption = Array("A caption.".utf8)
        let status = engine.withContext { document in
            caption.withUnsafeBufferPointer { bytes in
                var second = document
                second.text = UnsafeRawPointer(bytes.baseAddress!).assumingMemoryBound(to: CChar.self)
                second.text_length = bytes.count
                second.selection = emend_range(location: 0, length: 0)
                second.protected_range_count = 0
                var both = [document, second]
                return emend_answer_contexts(coordinator, request, &both, 2)
            }
        }
        XCTAssertEqual(status, EMEND_OK, lastError)
        XCTAssertTrue(pump(coordinator) { contextIDs(coordinator).count == 2 })
        let ids = contextIDs(coordinator)
        XCTAssertNotEqual(ids[0], ids[1])
        XCTAssertEqual(contextIDs(coordinator, capacity: 1), [ids[0]], "the working context first")
        var count = 0
        XCTAssertEqual(emend_coordinator_context_ids(coordinator, nil, 0, &count), EMEND_OK, "capacity 0 asks for the count")
        XCTAssertEqual(count, 2)
        var copy = ids[0]
        XCTAssertStatus(emend_coordinator_context_ids(coordinator, &copy, 1, nil), EMEND_E_INVALID_ARGUMENT, mentions: ["out_count"])
        XCTAssertStatus(emend_coordinator_context_ids(coordinator, nil, 1, &count), EMEND_E_INVALID_ARGUMENT, mentions: ["out_ids"])
        // The engine types at the end of its document, naming the context by the id it got.
        let end = emend_range(location: engine.length, length: 0)
        engine.edit(end, " Bye.")
        XCTAssertEqual(" Bye.".withCString { emend_coordinator_update_range(coordinator, ids[0], end, $0, 5, EMEND_UPDATE_TYPING) },
                       EMEND_OK, lastError)
        XCTAssertEqual(" Too.".withCString {
            emend_coordinator_update_range(coordinator, ids[1], emend_range(location: 10, length: 0), $0, 5, EMEND_UPDATE_TYPING)
        }, EMEND_OK, lastError)
        // The fixture's proofread runs on its own thread and may have finished inside the pump
        // above (its first replace is then held): a known context either way, never NOT_FOUND.
        var length = 0
        let copied = emend_session_copy_result(coordinator, ids[0], nil, 0, &length)
        XCTAssertTrue(copied == EMEND_E_STATE || copied == EMEND_OK, "a known context: \(copied)")
        XCTAssertEqual(emend_coordinator_stop(coordinator), EMEND_OK)
        let held = engine.takeHeldReplaces()
        for request in held { XCTAssertEqual(emend_answer_replace(coordinator, request, EMEND_REPLACE_REFUSED, nil, 0), EMEND_OK) }
        // A refused replace of a delivered result fails the session (REFUSED); with nothing
        // delivered yet the stop just ends it.
        XCTAssertEqual(runUntilIdle(coordinator), held.isEmpty ? EMEND_OK : EMEND_E_REFUSED, lastError)
        XCTAssertEqual(engine.text, "See you tomorow. Bye.")
        XCTAssertEqual(contextIDs(coordinator), [], "gone with the session")
    }
}
