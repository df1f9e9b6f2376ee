import XCTest
import CEmend
import EmendCABI

/// emend_session_suggestion_at_offset and emend_session_suggestion_at_point search (by
/// halving, by a height index) instead of testing every suggestion: they must answer exactly
/// what testing every suggestion answers, at every offset, after engine edits that make
/// suggestions INVALID (no range; their last places overlap), accepts and rejects. And the
/// review calls answer EMEND_E_AGAIN, not EMEND_E_STATE, while a step is in flight.
final class ABISuggestionLookupTests: XCTestCase {
    private func type(_ engine: CEngine, _ coordinator: OpaquePointer?, _ range: emend_range, _ text: String) {
        engine.edit(range, text)
        let bytes = Array(text.utf8)
        let status = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: max(1, bytes.count)) {
                emend_coordinator_update_range(coordinator, engine.contextID, range, $0, bytes.count, EMEND_UPDATE_TYPING)
            }
        }
        XCTAssertEqual(status, EMEND_OK, lastError)
    }

    /// What a search over every suggestion answers: the first pending one holding `offset`.
    private func everySuggestion(_ all: [emend_range?], at offset: UInt64) -> Int? {
        all.firstIndex { r in
            guard let r else { return false }
            return (r.location <= offset && offset < r.location + r.length) || (r.length == 0 && r.location == offset)
        }
    }

    private func assertOffsetsAgree(_ engine: CEngine, _ coordinator: OpaquePointer?, _ label: String,
                                    file: StaticString = #filePath, line: UInt = #line) {
        // The pending suggestions' ranges, read once (nil: not pending).
        let pending = (0..<suggestionCount(coordinator)).map { index -> emend_range? in
            guard let s = suggestion(coordinator, index), s.state == EMEND_SUGGESTION_PENDING else { return nil }
            return s.range
        }
        for offset in 0...engine.length {
            var index = -1
            let status = emend_session_suggestion_at_offset(coordinator, engine.contextID, offset, &index)
            if let expected = everySuggestion(pending, at: offset) {
                XCTAssertEqual(status, EMEND_OK, "\(label): offset \(offset): \(lastError)", file: file, line: line)
                XCTAssertEqual(index, expected, "\(label): offset \(offset)", file: file, line: line)
            } else {
                XCTAssertEqual(status, EMEND_E_NOT_FOUND, "\(label): offset \(offset) found \(index)", file: file, line: line)
            }
        }
    }

    private func proofread(_ text: String, encoding: emend_position_encoding = EMEND_ENCODING_UTF8) throws -> (CEngine, OpaquePointer) {
        let engine = CEngine(text, encoding: encoding)
        engine.givesBoundingRects = true
        let coordinator = try engine.makeCoordinator()
        XCTAssertEqual(start(coordinator, EMEND_TOOL_PROOFREAD), EMEND_OK)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK, lastError)
        return (engine, coordinator)
    }

    func testAtOffsetAgreesWithEverySuggestionThroughEditsAcceptsAndRejects() throws {
        let (engine, coordinator) = try proofread(String(repeating: "é teh cat recieve it tomorow. ", count: 30),
                                                  encoding: EMEND_ENCODING_CODEPOINT)
        defer { emend_coordinator_destroy(coordinator) }
        XCTAssertEqual(suggestionCount(coordinator), 90)
        assertOffsetsAgree(engine, coordinator, "as delivered")

        // One edit across suggestions 10 to 13 (INVALID, their last places overlap), one
        // inside suggestion 40, one deleting suggestion 41 whole, one before everything.
        let s10 = try XCTUnwrap(suggestion(coordinator, 10)).range, s13 = try XCTUnwrap(suggestion(coordinator, 13)).range
        type(engine, coordinator, emend_range(location: s10.location + 1, length: s13.location + 1 - s10.location - 1), "Q")
        let s40 = try XCTUnwrap(suggestion(coordinator, 40)).range
        type(engine, coordinator, emend_range(location: s40.location + 2, length: 0), "zz")
        type(engine, coordinator, try XCTUnwrap(suggestion(coordinator, 41)).range, "")
        type(engine, coordinator, emend_range(location: 0, length: 0), "Start. ")
        for index in [10, 11, 12, 13, 40, 41] {
            XCTAssertEqual(suggestion(coordinator, index)?.state, EMEND_SUGGESTION_INVALID, "suggestion \(index)")
        }
        assertOffsetsAgree(engine, coordinator, "after engine edits")

        // Accepted and rejected ones are not pending: not found either.
        XCTAssertEqual(emend_session_accept_suggestion(coordinator, 20), EMEND_OK, lastError)
        XCTAssertEqual(emend_session_reject_suggestion(coordinator, 60), EMEND_OK, lastError)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK, lastError)
        XCTAssertEqual(suggestion(coordinator, 60)?.state, EMEND_SUGGESTION_REJECTED)
        assertOffsetsAgree(engine, coordinator, "after an accept and a reject")

        // An undo makes the rejected one pending again, where its replacement is back.
        XCTAssertEqual(emend_session_undo(coordinator), EMEND_OK, lastError)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK, lastError)
        XCTAssertEqual(suggestion(coordinator, 60)?.state, EMEND_SUGGESTION_PENDING)
        assertOffsetsAgree(engine, coordinator, "after an undo")
    }

    func testAtPointAgreesWithEverySuggestionAndAsksEachOnce() throws {
        let (engine, coordinator) = try proofread(String(repeating: "teh cat recieve it tomorow. ", count: 20))
        defer { emend_coordinator_destroy(coordinator) }
        let count = suggestionCount(coordinator)
        XCTAssertEqual(count, 60)
        XCTAssertEqual(emend_session_accept_suggestion(coordinator, 7), EMEND_OK, lastError)
        var index = -1
        XCTAssertStatus(emend_session_suggestion_at_point(coordinator, 5, 5, &index), EMEND_E_AGAIN)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK, lastError)
        // Every suggestion with a place was asked for once, the accepted one too (an undo
        // makes it pending again): later clicks ask nothing.
        let asked = engine.rangeCalls.filter { $0.callback == "requests_bounding_rects" }.count
        XCTAssertEqual(asked, count)
        // CEngine lays the text out on one line, 10 units per offset: every x of the line.
        for x in stride(from: 0.0, to: Double(engine.length) * 10, by: 5) {
            let offset = UInt64(x / 10)
            let status = emend_session_suggestion_at_point(coordinator, x, 5, &index)
            let expected = (0..<count).first { i in
                guard let s = suggestion(coordinator, i), s.state == EMEND_SUGGESTION_PENDING else { return false }
                return s.range.location <= offset && offset < s.range.location + s.range.length
            }
            if let expected {
                XCTAssertEqual(status, EMEND_OK, "x \(x): \(lastError)")
                XCTAssertEqual(index, expected, "x \(x)")
            } else {
                XCTAssertEqual(status, EMEND_E_NOT_FOUND, "x \(x) found \(index)")
            }
        }
        XCTAssertStatus(emend_session_suggestion_at_point(coordinator, 15, 10, &index), EMEND_E_NOT_FOUND)
        XCTAssertStatus(emend_session_suggestion_at_point(coordinator, 15, -0.5, &index), EMEND_E_NOT_FOUND)
        XCTAssertEqual(engine.rangeCalls.filter { $0.callback == "requests_bounding_rects" }.count, asked)

        // Undo the accept: the suggestion is pending again and found by its known rectangle.
        XCTAssertEqual(emend_session_undo(coordinator), EMEND_OK, lastError)
        let seventh = try XCTUnwrap(suggestion(coordinator, 7)).range
        XCTAssertEqual(emend_session_suggestion_at_point(coordinator, Double(seventh.location) * 10 + 1, 5, &index), EMEND_OK, lastError)
        XCTAssertEqual(index, 7)
        XCTAssertEqual(engine.rangeCalls.filter { $0.callback == "requests_bounding_rects" }.count, asked)
    }

    func testReviewCallsWaitWhileARejectIsInFlight() throws {
        let (engine, coordinator) = try proofread("teh cat recieve it tomorow.")
        defer { emend_coordinator_destroy(coordinator) }
        XCTAssertEqual(emend_session_accept_suggestion(coordinator, 0), EMEND_OK)
        XCTAssertEqual(emend_session_reject_suggestion(coordinator, 1), EMEND_OK)
        // The reject's replace goes out in the next dispatch: a step in flight, not "no result".
        XCTAssertStatus(emend_session_accept_suggestion(coordinator, 2), EMEND_E_AGAIN, mentions: ["dispatch"])
        XCTAssertStatus(emend_session_reject_suggestion(coordinator, 2), EMEND_E_AGAIN)
        XCTAssertStatus(emend_session_undo(coordinator), EMEND_E_AGAIN)
        XCTAssertStatus(emend_session_redo(coordinator), EMEND_E_AGAIN)
        XCTAssertStatus(emend_session_accept(coordinator), EMEND_E_AGAIN)
        XCTAssertStatus(emend_session_revert(coordinator), EMEND_E_AGAIN)
        XCTAssertEqual(suggestion(coordinator, 2)?.state, EMEND_SUGGESTION_PENDING, "nothing changed on AGAIN")
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK)
        XCTAssertEqual(engine.text, "the cat recieve it tomorrow.")
        // After the dispatch the same calls work.
        XCTAssertEqual(emend_session_undo(coordinator), EMEND_OK, lastError)
        XCTAssertStatus(emend_session_redo(coordinator), EMEND_E_AGAIN, mentions: ["dispatch"])
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK)
        XCTAssertEqual(engine.text, "the cat receive it tomorrow.")
        XCTAssertEqual(emend_session_redo(coordinator), EMEND_OK, lastError)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK)
        XCTAssertEqual(emend_session_accept_suggestion(coordinator, 2), EMEND_OK, lastError)
        XCTAssertEqual(emend_session_accept(coordinator), EMEND_OK, lastError)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK)
        XCTAssertEqual(engine.text, "the cat recieve it tomorrow.")
    }
}
