import XCTest
import CEmend
import EmendCABI

/// The five delegate callbacks that name a range (requests_bounding_rects,
/// requests_underline_rects, prepare_for_text_animation, requests_preview,
/// finish_text_animation) take `const emend_range *` since ABI version 2, so that FFIs
/// without struct-by-value callbacks (LuaJIT) can implement them. The range read through the
/// pointer is where the engine, counting in its own units, finds the text.
final class ABIRangePointerCallbackTests: XCTestCase {
    private static let encodings = [EMEND_ENCODING_UTF8, EMEND_ENCODING_UTF16, EMEND_ENCODING_CODEPOINT]

    func testTheABIVersionSaysTheCallbacksTakePointers() {
        XCTAssertEqual(EMEND_ABI_VERSION, 2)
        XCTAssertEqual(CEmend.emend_abi_version(), 2)
    }

    func testAnimationCallbacksReadTheWorkedRegionThroughThePointer() throws {
        for encoding in Self.encodings {
            let original = "😀 café: I do not think it is ready."
            let engine = CEngine(original, encoding: encoding)
            engine.animates = true
            let coordinator = try engine.makeCoordinator()
            defer { emend_coordinator_destroy(coordinator) }
            let whole = emend_range(location: 0, length: engine.length)
            XCTAssertEqual(start(coordinator, EMEND_TOOL_REWRITE_FRIENDLY), EMEND_OK)
            XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK, lastError)
            XCTAssertEqual(engine.answerFailures, [])
            let prepares = engine.rangeCalls.filter { $0.callback == "prepare_for_text_animation" }
            let previews = engine.rangeCalls.filter { $0.callback == "requests_preview" }
            let finishes = engine.rangeCalls.filter { $0.callback == "finish_text_animation" }
            XCTAssertFalse(prepares.isEmpty, "\(encoding): prepare_for_text_animation was called")
            XCTAssertEqual(prepares.count, finishes.count, "\(encoding): every prepare is finished")
            XCTAssertFalse(previews.isEmpty, "\(encoding): requests_preview was called")
            // The anticipation covers the whole text (a caret: the whole context), counted in
            // the engine's units: the emoji is 4 bytes, 2 UTF-16 units or 1 code point.
            let anticipate = try XCTUnwrap(prepares.first { $0.animation == EMEND_ANIMATION_ANTICIPATE })
            XCTAssertEqual(anticipate.range.location, whole.location, "\(encoding)")
            XCTAssertEqual(anticipate.range.length, whole.length, "\(encoding)")
            for call in previews + finishes {
                XCTAssertLessThanOrEqual(call.range.location + call.range.length,
                                         max(whole.length, engine.length), "\(encoding) \(call.callback) within the text")
            }
            XCTAssertEqual(engine.text, "😀 café: I don't think it's ready!", "\(encoding)")
        }
    }

    func testRectCallbacksReadEachSuggestionsRangeThroughThePointer() throws {
        for encoding in Self.encodings {
            let engine = CEngine("😀 日本語 teh cat recieve it tomorow.", encoding: encoding)
            engine.givesUnderlineRects = true
            engine.givesBoundingRects = true
            let coordinator = try engine.makeCoordinator()
            defer { emend_coordinator_destroy(coordinator) }
            XCTAssertEqual(start(coordinator, EMEND_TOOL_PROOFREAD), EMEND_OK)
            XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK, lastError)
            let count = suggestionCount(coordinator)
            XCTAssertEqual(count, 3, "\(encoding)")
            let underlines = engine.rangeCalls.filter { $0.callback == "requests_underline_rects" }
            XCTAssertEqual(underlines.count, count, "\(encoding): one underline request per suggestion")
            for index in 0..<count {
                let s = try XCTUnwrap(suggestion(coordinator, index))
                // The underline request named the suggestion's range, where its text is.
                XCTAssertTrue(underlines.contains { $0.range.location == s.range.location && $0.range.length == s.range.length },
                              "\(encoding): underline request for \(s.replacement)")
                XCTAssertEqual(engine.substring(s.range), s.replacement)
                // And the rectangle answered for it (built from the range read through the
                // pointer) is the one the session keeps.
                var rects = [emend_rect](repeating: emend_rect(), count: 2)
                var n = 0
                XCTAssertEqual(emend_session_get_suggestion_rects(coordinator, index, &rects, rects.count, &n), EMEND_OK)
                XCTAssertEqual(n, 1)
                XCTAssertEqual(rects[0].x, CEngine.rect(of: s.range).x, "\(encoding)")
                XCTAssertEqual(rects[0].width, CEngine.rect(of: s.range).width, "\(encoding)")
            }
            // Bounding rects: a hit test in the middle of "receive" finds it.
            let receive = try XCTUnwrap(engine.range(of: "receive"))
            let x = (Double(receive.location) + 2.5) * 10
            var index = -1
            var status = emend_session_suggestion_at_point(coordinator, x, 5, &index)
            if status == EMEND_E_AGAIN {
                XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK)
                status = emend_session_suggestion_at_point(coordinator, x, 5, &index)
            }
            XCTAssertEqual(status, EMEND_OK, lastError)
            XCTAssertEqual(index, 1, "\(encoding)")
            XCTAssertTrue(engine.rangeCalls.contains { $0.callback == "requests_bounding_rects" && $0.range.location == receive.location })
        }
    }
}
