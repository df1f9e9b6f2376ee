import XCTest
import CEmend
import EmendCABI

/// An INVALID suggestion reports where it was, not {0,0} (issue 29, G8): the span the
/// engine's edit left there, in the coordinator's encoding, moved by later edits, so a GUI
/// can clear its mark at the right place.
final class ABIInvalidSuggestionRangeTests: XCTestCase {
    /// The engine types in its own document and tells the coordinator.
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

    func testAnInvalidSuggestionSaysWhereItWas() throws {
        // Code points: the "é" before the suggestions makes UTF-8 bytes and code points differ.
        let engine = CEngine("é teh cat recieve it tomorow.", encoding: EMEND_ENCODING_CODEPOINT)
        let coordinator = try engine.makeCoordinator()
        defer { emend_coordinator_destroy(coordinator) }
        XCTAssertEqual(start(coordinator, EMEND_TOOL_PROOFREAD), EMEND_OK)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK, lastError)
        XCTAssertEqual(engine.text, "é the cat receive it tomorrow.")
        XCTAssertEqual(suggestionCount(coordinator), 3)
        let receive = try XCTUnwrap(engine.range(of: "receive"))
        XCTAssertEqual(receive.location, 10)

        // "receive" at {10,7}: "XYZ" in place of its second letter.
        type(engine, coordinator, emend_range(location: 11, length: 1), "XYZ")
        let edited = try XCTUnwrap(suggestion(coordinator, 1))
        XCTAssertEqual(edited.state, EMEND_SUGGESTION_INVALID)
        XCTAssertEqual(edited.range.location, 10)
        XCTAssertEqual(edited.range.length, 9, "the suggestion's span with the edit's new text in it")
        XCTAssertEqual(engine.substring(edited.range), "rXYZceive")

        // An edit before it moves where it was, as any range moves.
        type(engine, coordinator, emend_range(location: 0, length: 0), "ab")
        let moved = try XCTUnwrap(suggestion(coordinator, 1))
        XCTAssertEqual(moved.range.location, 12)
        XCTAssertEqual(engine.substring(moved.range), "rXYZceive")

        // "tomorrow" deleted whole: the empty range where it was.
        let tomorrow = try XCTUnwrap(engine.range(of: "tomorrow"))
        type(engine, coordinator, tomorrow, "")
        let deleted = try XCTUnwrap(suggestion(coordinator, 2))
        XCTAssertEqual(deleted.state, EMEND_SUGGESTION_INVALID)
        XCTAssertEqual(deleted.range.location, tomorrow.location)
        XCTAssertEqual(deleted.range.length, 0)

        // The suggestion the engine left alone is still where its text is.
        let kept = try XCTUnwrap(suggestion(coordinator, 0))
        XCTAssertEqual(kept.state, EMEND_SUGGESTION_PENDING)
        XCTAssertEqual(engine.substring(kept.range), "the")

        // Revert restores every other change around the engine's edits.
        XCTAssertEqual(emend_session_revert(coordinator), EMEND_OK, lastError)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK, lastError)
        XCTAssertEqual(engine.text, "abé teh cat rXYZceive it .")
        XCTAssertEqual(engine.answerFailures, [])
    }
}
