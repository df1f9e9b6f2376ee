import XCTest
import CEmend
import EmendCABI

/// Each position encoding round-trips ranges on text with emoji, CJK and combining marks: the
/// ranges the runtime reports (suggestions, replaces, selections) are where the engine, counting
/// in its own units, finds the text.
final class ABIPositionEncodingTests: XCTestCase {
    static let original = "😀 日本語 teh cat 👩‍👩‍👧 recieve it, e\u{301} tomorow."
    static let corrected = "😀 日本語 the cat 👩‍👩‍👧 receive it, e\u{301} tomorrow."
    static let encodings = [EMEND_ENCODING_UTF8, EMEND_ENCODING_UTF16, EMEND_ENCODING_CODEPOINT]

    private func name(_ encoding: emend_position_encoding) -> String {
        ["utf8", "utf16", "codepoint"][Int(encoding.rawValue)]
    }

    private func assertSuggestionsAreWhereTheirTextIs(_ engine: CEngine, _ coordinator: OpaquePointer, _ label: String,
                                                      file: StaticString = #filePath, line: UInt = #line) {
        for index in 0..<suggestionCount(coordinator) {
            guard let s = suggestion(coordinator, index), s.state == EMEND_SUGGESTION_PENDING else { continue }
            XCTAssertEqual(engine.substring(s.range), s.replacement, "\(label) [\(index)]", file: file, line: line)
            let expected = engine.range(of: s.replacement)
            XCTAssertEqual(s.range.location, expected?.location, "\(label) [\(index)]", file: file, line: line)
            XCTAssertEqual(s.range.length, expected?.length, "\(label) [\(index)]", file: file, line: line)
        }
    }

    func testProofreadReviewInEveryEncoding() throws {
        for encoding in Self.encodings {
            let label = name(encoding)
            let engine = CEngine(Self.original, encoding: encoding)
            let coordinator = try engine.makeCoordinator()
            defer { emend_coordinator_destroy(coordinator) }
            XCTAssertEqual(start(coordinator, EMEND_TOOL_PROOFREAD), EMEND_OK)
            XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK, "\(label): \(lastError)")
            XCTAssertEqual(engine.text, Self.corrected, label)
            XCTAssertEqual(suggestionCount(coordinator), 3, label)
            XCTAssertEqual((0..<3).compactMap { suggestion(coordinator, $0)?.original }, ["teh", "recieve", "tomorow"], label)
            assertSuggestionsAreWhereTheirTextIs(engine, coordinator, label)

            // Finding a suggestion by an offset in the engine's units.
            let receive = try XCTUnwrap(engine.range(of: "receive"))
            var index = -1
            XCTAssertEqual(emend_session_suggestion_at_offset(coordinator, engine.contextID, receive.location + 2, &index), EMEND_OK, "\(label): \(lastError)")
            XCTAssertEqual(index, 1, label)

            // The engine types an emoji at the start: everything moves by its width in these units.
            engine.edit(emend_range(location: 0, length: 0), "👍 ")
            "👍 ".withCString { text in
                XCTAssertEqual(emend_coordinator_update_range(coordinator, engine.contextID, emend_range(location: 0, length: 0), text,
                                                              "👍 ".utf8.count, EMEND_UPDATE_TYPING), EMEND_OK, "\(label): \(lastError)")
            }
            assertSuggestionsAreWhereTheirTextIs(engine, coordinator, "\(label) after the edit")

            // Rejecting sends a replace whose range is in the engine's units.
            XCTAssertEqual(emend_session_reject_suggestion(coordinator, 1), EMEND_OK)
            XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK)
            let reject = try XCTUnwrap(engine.replaces.last)
            XCTAssertEqual(reject.kind, EMEND_CHANGE_SUGGESTION_REJECT, label)
            XCTAssertEqual(engine.text, "👍 😀 日本語 the cat 👩‍👩‍👧 recieve it, e\u{301} tomorrow.", label)
            let rejected = try XCTUnwrap(suggestion(coordinator, 1))
            XCTAssertEqual(engine.substring(rejected.range), "recieve", label)

            XCTAssertEqual(emend_session_revert(coordinator), EMEND_OK)
            XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK)
            XCTAssertEqual(Array(engine.text.utf8), Array(("👍 " + Self.original).utf8), label)
            XCTAssertEqual(engine.answerFailures, [], label)
        }
    }

    func testRewriteOfASelectionInEveryEncoding() throws {
        let text = "😀 日本語. I do not know. 👩‍👩‍👧 We are here."
        for encoding in Self.encodings {
            let label = name(encoding)
            let engine = CEngine(text, encoding: encoding)
            engine.selection = try XCTUnwrap(engine.range(of: "do not"))
            let coordinator = try engine.makeCoordinator()
            defer { emend_coordinator_destroy(coordinator) }
            XCTAssertEqual(start(coordinator, EMEND_TOOL_REWRITE_FRIENDLY), EMEND_OK)
            XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK, "\(label): \(lastError)")
            XCTAssertEqual(engine.text, "😀 日本語. I don't know. 👩‍👩‍👧 We are here.", label)
            // The result is selected, counted in the engine's units.
            let region = try XCTUnwrap(engine.range(of: "I don't know. "))
            XCTAssertEqual(engine.selections.count, 1, label)
            XCTAssertEqual(engine.selections.first?.first?.location, region.location, label)
            XCTAssertEqual(engine.selections.first?.first?.length, region.length, label)
            for replace in engine.replaces {
                XCTAssertGreaterThanOrEqual(replace.range.location, region.location, label)
            }
            XCTAssertEqual(emend_session_revert(coordinator), EMEND_OK)
            XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK)
            XCTAssertEqual(engine.text, text, label)
        }
    }

    func testProtectedRangeGivenInEachEncodingIsKept() throws {
        let text = "日本 teh 😀 `teh` tomorow."
        for encoding in Self.encodings {
            let label = name(encoding)
            let engine = CEngine(text, encoding: encoding)
            engine.protectedRanges = [try XCTUnwrap(engine.range(of: "`teh`"))]
            let coordinator = try engine.makeCoordinator()
            defer { emend_coordinator_destroy(coordinator) }
            XCTAssertEqual(start(coordinator, EMEND_TOOL_PROOFREAD), EMEND_OK)
            XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK, "\(label): \(lastError)")
            XCTAssertEqual(engine.text, "日本 the 😀 `teh` tomorrow.", label)
            XCTAssertEqual(suggestionCount(coordinator), 2, label)
        }
    }
}
