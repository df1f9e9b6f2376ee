import XCTest
import CEmend
import EmendCABI

/// emend_session_review_changes through the C ABI, in each position encoding: a rewrite's
/// changes are suggestions of category "rewrite" whose ranges are where their text is now
/// (never splitting a character), reject puts back only that change's original through a
/// SUGGESTION_REJECT replace, Done keeps the rest, revert gives the original byte for byte.
final class ABIChangeReviewTests: XCTestCase {
    static let original = "Café ☕ — I do not think it is ready. We are waiting."
    static let friendly = "Café ☕ — I don't think it's ready. We're waiting!"

    private func rewritten(_ encoding: emend_position_encoding) throws -> (CEngine, OpaquePointer) {
        let engine = CEngine(Self.original, encoding: encoding)
        engine.givesUnderlineRects = true
        let coordinator = try engine.makeCoordinator()
        XCTAssertEqual(start(coordinator, EMEND_TOOL_REWRITE_FRIENDLY, scope: EMEND_SCOPE_FULL_DOCUMENT), EMEND_OK, lastError)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK, lastError)
        XCTAssertEqual(engine.text, Self.friendly)
        return (engine, coordinator)
    }

    private func category(_ coordinator: OpaquePointer, _ index: Int) -> String? {
        var s = emend_suggestion()
        s.struct_size = MemoryLayout<emend_suggestion>.size
        guard emend_session_get_suggestion(coordinator, index, &s) == EMEND_OK else { return nil }
        return String(cString: s.category)
    }

    func testReviewInEveryPositionEncoding() throws {
        for encoding in [EMEND_ENCODING_UTF8, EMEND_ENCODING_UTF16, EMEND_ENCODING_CODEPOINT] {
            let (engine, coordinator) = try rewritten(encoding)
            defer { emend_coordinator_destroy(coordinator) }
            XCTAssertEqual(suggestionCount(coordinator), 0, "a rewrite not under review has no suggestions")
            var count = 0
            XCTAssertEqual(emend_session_review_changes(coordinator, &count), EMEND_OK, lastError)
            XCTAssertEqual(count, 4)
            XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK, lastError)
            XCTAssertEqual(suggestionCount(coordinator), 4)
            let changes = (0..<4).compactMap { suggestion(coordinator, $0) }
            XCTAssertEqual(changes.map(\.original), ["do not", "it is", "We are", "."], "\(encoding)")
            XCTAssertEqual(changes.map(\.replacement), ["don't", "it's", "We're", "!"], "\(encoding)")
            XCTAssertEqual((0..<4).compactMap { category(coordinator, $0) }, Array(repeating: "rewrite", count: 4))
            for change in changes {
                XCTAssertEqual(engine.substring(change.range), change.replacement, "the range counts in \(encoding)")
                XCTAssertEqual(change.state, EMEND_SUGGESTION_PENDING)
            }
            XCTAssertEqual(engine.rangeCalls.filter { $0.callback == "requests_underline_rects" }.map(\.range.location),
                           changes.map(\.range.location), "each change is underlined")
            // Found by an offset inside it, in the same units.
            var index = -1
            XCTAssertEqual(emend_session_suggestion_at_offset(coordinator, engine.contextID, changes[2].range.location + 1, &index), EMEND_OK, lastError)
            XCTAssertEqual(index, 2)
            // Reject one: only its original comes back, through one SUGGESTION_REJECT replace.
            let sent = engine.replaces.count
            XCTAssertEqual(emend_session_reject_suggestion(coordinator, 1), EMEND_OK, lastError)
            XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK, lastError)
            XCTAssertEqual(engine.replaces.count, sent + 1)
            XCTAssertEqual(engine.replaces.last?.kind, EMEND_CHANGE_SUGGESTION_REJECT)
            XCTAssertEqual(engine.replaces.last?.range.location, changes[1].range.location)
            XCTAssertEqual(engine.text, "Café ☕ — I don't think it is ready. We're waiting!")
            XCTAssertEqual(suggestion(coordinator, 1)?.state, EMEND_SUGGESTION_REJECTED)
            // Undo and redo the decision.
            XCTAssertEqual(emend_session_undo(coordinator), EMEND_OK, lastError)
            XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK)
            XCTAssertEqual(engine.text, Self.friendly)
            XCTAssertEqual(engine.replaces.last?.kind, EMEND_CHANGE_UNDO)
            XCTAssertEqual(emend_session_redo(coordinator), EMEND_OK, lastError)
            XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK)
            XCTAssertEqual(engine.text, "Café ☕ — I don't think it is ready. We're waiting!")
            // Done keeps every change not rejected.
            XCTAssertEqual(emend_session_accept_suggestion(coordinator, 0), EMEND_OK, lastError)
            XCTAssertEqual(emend_session_accept(coordinator), EMEND_OK, lastError)
            XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK)
            XCTAssertEqual(state(coordinator), EMEND_STATE_INACTIVE)
            XCTAssertEqual(engine.text, "Café ☕ — I don't think it is ready. We're waiting!")
        }
    }

    func testRevertAfterAPartialReviewIsTheOriginalByteForByte() throws {
        let (engine, coordinator) = try rewritten(EMEND_ENCODING_UTF16)
        defer { emend_coordinator_destroy(coordinator) }
        var count = 0
        XCTAssertEqual(emend_session_review_changes(coordinator, &count), EMEND_OK, lastError)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK)
        XCTAssertEqual(emend_session_reject_suggestion(coordinator, 3), EMEND_OK, lastError)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK)
        XCTAssertEqual(emend_session_accept_suggestion(coordinator, 0), EMEND_OK, lastError)
        XCTAssertEqual(emend_session_revert(coordinator), EMEND_OK, lastError)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK)
        XCTAssertEqual(Array(engine.text.utf8), Array(Self.original.utf8))
    }

    func testEngineTypingInAChangeMakesItInvalid() throws {
        let (engine, coordinator) = try rewritten(EMEND_ENCODING_CODEPOINT)
        defer { emend_coordinator_destroy(coordinator) }
        var count = 0
        XCTAssertEqual(emend_session_review_changes(coordinator, &count), EMEND_OK, lastError)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK)
        let range = try XCTUnwrap(suggestion(coordinator, 2)?.range)
        let typed = emend_range(location: range.location + 2, length: 0)
        engine.edit(typed, "X")
        XCTAssertEqual(emend_coordinator_update_range(coordinator, engine.contextID, typed, "X", 1, EMEND_UPDATE_TYPING), EMEND_OK, lastError)
        XCTAssertEqual(suggestion(coordinator, 2)?.state, EMEND_SUGGESTION_INVALID)
        XCTAssertStatus(emend_session_reject_suggestion(coordinator, 2), EMEND_E_STATE)
        XCTAssertEqual(emend_session_revert(coordinator), EMEND_OK, lastError)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK)
        XCTAssertEqual(engine.text, "Café ☕ — I do not think it is ready. WeX're waiting.", "the engine's change stays; the rest is the original")
    }

    func testStateWithoutARestingRewrite() throws {
        let engine = CEngine("teh cat recieve it.")
        let coordinator = try engine.makeCoordinator()
        defer { emend_coordinator_destroy(coordinator) }
        var count = 7
        XCTAssertStatus(emend_session_review_changes(coordinator, &count), EMEND_E_STATE)
        XCTAssertEqual(count, 7, "nothing written on failure")
        XCTAssertStatus(emend_session_review_changes(coordinator, nil), EMEND_E_INVALID_ARGUMENT)
        XCTAssertEqual(start(coordinator, EMEND_TOOL_PROOFREAD, scope: EMEND_SCOPE_FULL_DOCUMENT), EMEND_OK, lastError)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK, lastError)
        XCTAssertStatus(emend_session_review_changes(coordinator, &count), EMEND_E_STATE, mentions: ["proofreading"])
    }
}
