import XCTest
import Glibc
import CEmend
import EmendCABI

/// Nothing lost, through the C ABI in each position encoding: the sequences an outside
/// engine found broken (typing while the original shows, a rejected deletion undone and
/// redone, an attachment answered in a replace, an engine edit inside a rewrite).
final class ABINothingLostTests: XCTestCase {
    private let encodings = [EMEND_ENCODING_UTF8, EMEND_ENCODING_UTF16, EMEND_ENCODING_CODEPOINT]

    /// The engine types `text` over `range` (its encoding) and reports it.
    private func type(_ engine: CEngine, _ coordinator: OpaquePointer, _ range: emend_range, _ text: String) {
        engine.edit(range, text)
        let status = text.withCString { emend_coordinator_update_range(coordinator, engine.contextID, range, $0, text.utf8.count, EMEND_UPDATE_TYPING) }
        XCTAssertStatus(status, EMEND_OK)
    }

    private func end(of engine: CEngine) -> emend_range { emend_range(location: engine.length, length: 0) }

    func testTypingWhileTheOriginalIsShownIsKept() throws {
        for encoding in encodings {
            let original = "I do not think it is ready 👍."
            let engine = CEngine(original, encoding: encoding)
            let coordinator = try engine.makeCoordinator()
            defer { emend_coordinator_destroy(coordinator) }
            XCTAssertStatus(start(coordinator, EMEND_TOOL_REWRITE_FRIENDLY), EMEND_OK)
            XCTAssertStatus(runUntilIdle(coordinator), EMEND_OK)
            XCTAssertStatus(emend_session_show_original(coordinator, 1), EMEND_OK)
            XCTAssertStatus(runUntilIdle(coordinator), EMEND_OK)
            XCTAssertEqual(engine.text, original)
            type(engine, coordinator, end(of: engine), " Sorry é.")
            XCTAssertStatus(emend_session_show_original(coordinator, 0), EMEND_OK)
            XCTAssertStatus(runUntilIdle(coordinator), EMEND_OK)
            XCTAssertEqual(engine.text, "I don't think it's ready 👍! Sorry é.", "\(encoding)")
            XCTAssertStatus(emend_session_revert(coordinator), EMEND_OK)
            XCTAssertStatus(runUntilIdle(coordinator), EMEND_OK)
            XCTAssertEqual(engine.text, original + " Sorry é.", "\(encoding)")
        }
    }

    func testARejectedDeletionUndoesAndRedoesExactly() throws {
        for encoding in encodings {
            let original = "Wé go over the the draft."
            let engine = CEngine(original, encoding: encoding)
            let coordinator = try engine.makeCoordinator()
            defer { emend_coordinator_destroy(coordinator) }
            XCTAssertStatus(start(coordinator, EMEND_TOOL_PROOFREAD), EMEND_OK)
            XCTAssertStatus(runUntilIdle(coordinator), EMEND_OK)
            XCTAssertEqual(engine.text, "Wé go over the draft.")
            let index = try XCTUnwrap((0..<suggestionCount(coordinator)).first { suggestion(coordinator, $0)?.replacement == "" })
            XCTAssertStatus(emend_session_reject_suggestion(coordinator, index), EMEND_OK)
            XCTAssertStatus(runUntilIdle(coordinator), EMEND_OK)
            XCTAssertEqual(engine.text, original)
            XCTAssertStatus(emend_session_undo(coordinator), EMEND_OK)
            XCTAssertStatus(runUntilIdle(coordinator), EMEND_OK)
            XCTAssertEqual(engine.text, "Wé go over the draft.", "\(encoding)")
            XCTAssertStatus(emend_session_redo(coordinator), EMEND_OK)
            XCTAssertStatus(runUntilIdle(coordinator), EMEND_OK)
            XCTAssertEqual(engine.text, original, "\(encoding)")
            XCTAssertStatus(emend_session_revert(coordinator), EMEND_OK)
            XCTAssertStatus(runUntilIdle(coordinator), EMEND_OK)
            XCTAssertEqual(engine.text, original, "\(encoding)")
        }
    }

    func testRevertRemovesAnAttachmentTheEngineInsertedForAProposal() throws {
        for encoding in encodings {
            let original = "Teh cat sat."
            let engine = CEngine(original, encoding: encoding)
            engine.insertInstead = { $0 == "The" ? "The \u{FFFC}" : nil }
            let coordinator = try engine.makeCoordinator()
            defer { emend_coordinator_destroy(coordinator) }
            XCTAssertStatus(start(coordinator, EMEND_TOOL_PROOFREAD), EMEND_OK)
            XCTAssertStatus(runUntilIdle(coordinator), EMEND_OK)
            XCTAssertEqual(engine.text, "The \u{FFFC} cat sat.")
            XCTAssertStatus(emend_session_revert(coordinator), EMEND_OK)
            XCTAssertStatus(runUntilIdle(coordinator), EMEND_OK)
            XCTAssertEqual(engine.text, original, "\(encoding)")
        }
    }

    func testAnEngineEditInsideARewriteKeepsTheSessionAndRevertWorks() throws {
        for encoding in encodings {
            let engine = CEngine("I do not think it is ready.", encoding: encoding)
            let coordinator = try engine.makeCoordinator()
            defer { emend_coordinator_destroy(coordinator) }
            XCTAssertStatus(start(coordinator, EMEND_TOOL_REWRITE_FRIENDLY), EMEND_OK)
            XCTAssertStatus(runUntilIdle(coordinator), EMEND_OK)
            XCTAssertEqual(engine.text, "I don't think it's ready!")
            // A no-op update changes nothing; then the user types inside the region.
            let none = ""
            XCTAssertStatus(none.withCString { emend_coordinator_update_range(coordinator, engine.contextID, emend_range(location: 3, length: 0), $0, 0, EMEND_UPDATE_TYPING) }, EMEND_OK)
            type(engine, coordinator, try XCTUnwrap(engine.range(of: "ready")), "dône")
            XCTAssertStatus(runUntilIdle(coordinator), EMEND_OK)
            XCTAssertEqual(state(coordinator), EMEND_STATE_INTERACTIVE_RESTING)
            XCTAssertStatus(emend_session_revert(coordinator), EMEND_OK)
            XCTAssertStatus(runUntilIdle(coordinator), EMEND_OK)
            XCTAssertEqual(engine.text, "I do not think it is dône.", "\(encoding)")
            XCTAssertEqual(engine.answerFailures, [])
        }
    }
}
