import XCTest
import CEmend
import EmendCABI

/// requests_rects (issue 29, G9): an engine that has it gets the rectangles of all pending
/// suggestions in one request, answered in one call, for underlines and for hit testing; an
/// engine without it still gets one request per suggestion.
final class ABIRectBatchTests: XCTestCase {
    private let text = "teh cat recieve it tomorow."

    func testAllSuggestionsComeInOneRequestAnsweredInOneCall() throws {
        let engine = CEngine(text, encoding: EMEND_ENCODING_UTF16)
        engine.batchesRects = true
        let coordinator = try engine.makeCoordinator()
        defer { emend_coordinator_destroy(coordinator) }
        XCTAssertEqual(start(coordinator, EMEND_TOOL_PROOFREAD), EMEND_OK)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK, lastError)
        XCTAssertEqual(suggestionCount(coordinator), 3)
        // One request for the underlines of all three, with their ranges in order.
        XCTAssertEqual(engine.rectBatches.count, 1)
        let underlines = try XCTUnwrap(engine.rectBatches.first)
        XCTAssertEqual(underlines.purpose, EMEND_RECTS_UNDERLINE)
        XCTAssertEqual(underlines.ranges.map { engine.substring($0) }, ["the", "receive", "tomorrow"])
        XCTAssertEqual(engine.rangeCalls.count, 0, "no one-range request")
        // Each suggestion got its own rectangle from the one answer.
        for index in 0..<3 {
            var rect = emend_rect()
            var count = 0
            XCTAssertEqual(emend_session_get_suggestion_rects(coordinator, index, &rect, 1, &count), EMEND_OK, lastError)
            XCTAssertEqual(count, 1)
            let range = try XCTUnwrap(suggestion(coordinator, index)).range
            XCTAssertEqual(rect.x, CEngine.rect(of: range).x)
            XCTAssertEqual(rect.width, CEngine.rect(of: range).width)
        }

        // A click: the bounds of all of them in one more request, then the hit.
        let receive = try XCTUnwrap(engine.range(of: "receive"))
        let x = (Double(receive.location) + 1.5) * 10
        var index = -1
        XCTAssertStatus(emend_session_suggestion_at_point(coordinator, x, 5, &index), EMEND_E_AGAIN)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK, lastError)
        XCTAssertEqual(emend_session_suggestion_at_point(coordinator, x, 5, &index), EMEND_OK, lastError)
        XCTAssertEqual(index, 1)
        XCTAssertEqual(engine.rectBatches.count, 2)
        XCTAssertEqual(engine.rectBatches.last?.purpose, EMEND_RECTS_BOUNDING)
        XCTAssertEqual(engine.rectBatches.last?.ranges.count, 3)

        // A reflow asks again, in one request.
        XCTAssertEqual(emend_coordinator_update_for_reflowed_text(coordinator), EMEND_OK, lastError)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK, lastError)
        XCTAssertEqual(engine.rectBatches.count, 3)
        XCTAssertEqual(engine.rectBatches.last?.purpose, EMEND_RECTS_UNDERLINE)
        XCTAssertEqual(engine.answerFailures, [])
    }

    func testAWrongAnswerIsRefusedAndTheRequestStillAwaits() throws {
        let engine = CEngine(text)
        // Answered by hand below: the table's requests_rects holds the request.
        enum Held { nonisolated(unsafe) static var request: emend_request_id = 0; nonisolated(unsafe) static var ranges = 0 }
        var table = engine.delegate()
        table.requests_rects = { _, _, _, _, _, _, count, request in
            Held.request = request
            Held.ranges = count
        }
        var options = emend_coordinator_options()
        options.struct_size = MemoryLayout<emend_coordinator_options>.size
        var coordinator: OpaquePointer?
        XCTAssertEqual(emend_coordinator_create(&table, &options, &coordinator), EMEND_OK, lastError)
        defer { emend_coordinator_destroy(coordinator) }
        XCTAssertEqual(start(coordinator, EMEND_TOOL_PROOFREAD), EMEND_OK)
        XCTAssertTrue(pump(coordinator) { Held.request != 0 })
        XCTAssertEqual(Held.ranges, 3)
        var rects = [emend_rect](repeating: emend_rect(x: 1, y: 2, width: 3, height: 4), count: 3)
        // Two counts for three ranges: refused, nothing taken.
        var two = [1, 1]
        XCTAssertStatus(emend_answer_rects_batch(coordinator, Held.request, &two, 2, &rects, 2), EMEND_E_INVALID_ARGUMENT,
                        mentions: ["3 ranges"])
        // Counts that do not add up to rect_count.
        var three = [1, 1, 1]
        XCTAssertStatus(emend_answer_rects_batch(coordinator, Held.request, &three, 3, &rects, 2), EMEND_E_INVALID_ARGUMENT,
                        mentions: ["rect_count"])
        var pending: Int32 = 0
        XCTAssertEqual(emend_request_is_pending(coordinator, Held.request, &pending), EMEND_OK)
        XCTAssertEqual(pending, 1, "a refused answer leaves the request awaiting")
        // The one-range answer does not fit a batch either.
        XCTAssertStatus(emend_answer_rects(coordinator, Held.request, &rects, 1), EMEND_E_INVALID_ARGUMENT)
        // The right answer: the second range has no rectangle now.
        var counts = [2, 0, 1]
        XCTAssertEqual(emend_answer_rects_batch(coordinator, Held.request, &counts, 3, &rects, 3), EMEND_OK, lastError)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK, lastError)
        var count = -1
        XCTAssertEqual(emend_session_get_suggestion_rects(coordinator, 0, nil, 0, &count), EMEND_OK)
        XCTAssertEqual(count, 2)
        XCTAssertEqual(emend_session_get_suggestion_rects(coordinator, 1, nil, 0, &count), EMEND_OK)
        XCTAssertEqual(count, 0)
        XCTAssertEqual(emend_session_get_suggestion_rects(coordinator, 2, nil, 0, &count), EMEND_OK)
        XCTAssertEqual(count, 1)
    }
}
