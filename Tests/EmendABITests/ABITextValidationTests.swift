import XCTest
import CEmend
import EmendCABI

/// Text and ranges crossing the ABI are validated: invalid UTF-8 is EMEND_E_INVALID_UTF8, a
/// range out of bounds or splitting a character is EMEND_E_RANGE, and a failed answer can be
/// given again.
final class ABITextValidationTests: XCTestCase {
    /// A coordinator whose engine holds the contexts request of a started proofread.
    private func awaitingContexts(_ text: String, encoding: emend_position_encoding = EMEND_ENCODING_UTF8) throws
        -> (CEngine, OpaquePointer, emend_request_id) {
        let engine = CEngine(text, encoding: encoding)
        engine.holdContexts = true
        let coordinator = try engine.makeCoordinator()
        XCTAssertEqual(start(coordinator, EMEND_TOOL_PROOFREAD), EMEND_OK)
        XCTAssertTrue(pump(coordinator) { !engine.heldContexts.isEmpty })
        return (engine, coordinator, try XCTUnwrap(engine.takeHeldContexts().first))
    }

    /// Answers with `bytes` as the context text (and `change` applied to the desc).
    private func answer(_ coordinator: OpaquePointer, _ request: emend_request_id, bytes: [UInt8],
                        _ change: (inout emend_context_desc) -> Void = { _ in }) -> emend_status {
        bytes.withUnsafeBufferPointer { buffer in
            var desc = emend_context_desc()
            desc.struct_size = MemoryLayout<emend_context_desc>.size
            desc.text = UnsafeRawPointer(buffer.baseAddress).map { $0.assumingMemoryBound(to: CChar.self) }
            desc.text_length = buffer.count
            change(&desc)
            return emend_answer_contexts(coordinator, request, &desc, 1)
        }
    }

    func testInvalidUTF8InAContextIsRejected() throws {
        let (engine, coordinator, request) = try awaitingContexts("See you tomorow.")
        defer { emend_coordinator_destroy(coordinator) }
        let cases: [([UInt8], Int)] = [
            (Array("abc".utf8) + [0xC0, 0xAF], 3),                  // overlong
            (Array("日本".utf8) + [0xED, 0xA0, 0x80], 6),          // surrogate
            (Array("ok ".utf8) + [0xF0, 0x9F, 0x98], 3),            // truncated
            ([0x80] + Array("x".utf8), 0),                           // stray continuation
        ]
        for (bytes, offset) in cases {
            XCTAssertStatus(answer(coordinator, request, bytes: bytes), EMEND_E_INVALID_UTF8,
                            mentions: ["contexts[0].text", "byte \(offset)"])
        }
        // The request is still open: a good answer goes through.
        XCTAssertEqual(engine.answerContexts(coordinator, request), EMEND_OK, lastError)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK)
        XCTAssertEqual(engine.text, "See you tomorrow.")
    }

    func testInvalidUTF8ElsewhereIsRejected() throws {
        let engine = CEngine("See you tomorow.")
        engine.holdReplaces = true
        let coordinator = try engine.makeCoordinator()
        defer { emend_coordinator_destroy(coordinator) }
        // A prompt.
        let badPrompt: [CChar] = [0x75, 0x70, CChar(bitPattern: 0xFF), 0]
        var request = emend_tool_request(struct_size: MemoryLayout<emend_tool_request>.size, tool: EMEND_TOOL_REWRITE_DESCRIBED,
                                         scope: EMEND_SCOPE_USER_SELECTION, prompt: nil, provider_id: nil)
        let status = badPrompt.withUnsafeBufferPointer { buffer in
            request.prompt = buffer.baseAddress
            return emend_coordinator_start(coordinator, &request)
        }
        XCTAssertStatus(status, EMEND_E_INVALID_UTF8, mentions: ["prompt", "byte 2"])
        XCTAssertEqual(state(coordinator), EMEND_STATE_INACTIVE)

        // Inserted text of a replace answer.
        XCTAssertEqual(start(coordinator, EMEND_TOOL_PROOFREAD), EMEND_OK)
        XCTAssertTrue(pump(coordinator) { !engine.heldReplaces.isEmpty })
        let replace = try XCTUnwrap(engine.takeHeldReplaces().first)
        let bad: [CChar] = [0x61, CChar(bitPattern: 0xE6), CChar(bitPattern: 0x97)]
        XCTAssertStatus(emend_answer_replace(coordinator, replace, EMEND_REPLACE_APPLIED, bad, bad.count),
                        EMEND_E_INVALID_UTF8, mentions: ["inserted_text", "byte 1"])
        // Still open: the engine applies it and answers properly.
        engine.edit(engine.replaces[0].range, engine.replaces[0].text)
        XCTAssertEqual(emend_answer_replace(coordinator, replace, EMEND_REPLACE_APPLIED, nil, 0), EMEND_OK, lastError)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK)
        XCTAssertEqual(engine.text, "See you tomorrow.")

        // Text of an update.
        XCTAssertStatus(emend_coordinator_update_range(coordinator, engine.contextID, emend_range(location: 0, length: 0), bad, bad.count, EMEND_UPDATE_TYPING),
                        EMEND_E_INVALID_UTF8, mentions: ["text"])
        var length = 0
        XCTAssertEqual(emend_session_copy_result(coordinator, engine.contextID, nil, 0, &length), EMEND_OK)
        XCTAssertEqual(length, "See you tomorrow.".utf8.count, "a failed update changes nothing")
    }

    func testRangesOutOfBoundsAreRejected() throws {
        let text = "See you tomorow."   // 16 bytes
        let (engine, coordinator, request) = try awaitingContexts(text)
        defer { emend_coordinator_destroy(coordinator) }
        let bytes = Array(text.utf8)
        XCTAssertStatus(answer(coordinator, request, bytes: bytes) { $0.selection = emend_range(location: 17, length: 0) },
                        EMEND_E_RANGE, mentions: ["contexts[0].selection"])
        XCTAssertStatus(answer(coordinator, request, bytes: bytes) { $0.selection = emend_range(location: 10, length: 7) },
                        EMEND_E_RANGE, mentions: ["contexts[0].selection", "past the text"])
        XCTAssertStatus(answer(coordinator, request, bytes: bytes) { $0.selection = emend_range(location: UInt64.max, length: 2) },
                        EMEND_E_RANGE)
        XCTAssertStatus(answer(coordinator, request, bytes: bytes) { $0.selection = emend_range(location: 4, length: UInt64.max - 2) },
                        EMEND_E_RANGE)
        var protected = [emend_range(location: 12, length: 8)]
        let status = protected.withUnsafeMutableBufferPointer { buffer in
            answer(coordinator, request, bytes: bytes) {
                $0.protected_ranges = UnsafePointer(buffer.baseAddress)
                $0.protected_range_count = 1
            }
        }
        XCTAssertStatus(status, EMEND_E_RANGE, mentions: ["protected_ranges[0]"])

        XCTAssertEqual(engine.answerContexts(coordinator, request), EMEND_OK)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK)
        let end = UInt64("See you tomorrow.".utf8.count)
        XCTAssertStatus(emend_coordinator_update_range(coordinator, engine.contextID, emend_range(location: end, length: 1), nil, 0, EMEND_UPDATE_TYPING),
                        EMEND_E_RANGE, mentions: ["range"])
        var index = 0
        XCTAssertStatus(emend_session_suggestion_at_offset(coordinator, engine.contextID, end + 1, &index), EMEND_E_RANGE, mentions: ["offset"])
        XCTAssertEqual(engine.text, "See you tomorrow.")
    }

    func testRangesSplittingAUTF8SequenceAreRejected() throws {
        let text = "日本 teh 😀."   // 日 0..<3, 本 3..<6, 😀 11..<15
        let (engine, coordinator, request) = try awaitingContexts(text)
        defer { emend_coordinator_destroy(coordinator) }
        let bytes = Array(text.utf8)
        XCTAssertStatus(answer(coordinator, request, bytes: bytes) { $0.selection = emend_range(location: 1, length: 0) },
                        EMEND_E_RANGE, mentions: ["splits"])
        XCTAssertStatus(answer(coordinator, request, bytes: bytes) { $0.selection = emend_range(location: 0, length: 13) },
                        EMEND_E_RANGE, mentions: ["offset 13", "splits"])
        var protected = [emend_range(location: 3, length: 2)]
        let status = protected.withUnsafeMutableBufferPointer { buffer in
            answer(coordinator, request, bytes: bytes) {
                $0.protected_ranges = UnsafePointer(buffer.baseAddress)
                $0.protected_range_count = 1
            }
        }
        XCTAssertStatus(status, EMEND_E_RANGE, mentions: ["protected_ranges[0]", "splits"])
        XCTAssertEqual(engine.answerContexts(coordinator, request), EMEND_OK)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK)
        XCTAssertEqual(engine.text, "日本 the 😀.")
        XCTAssertStatus(emend_coordinator_update_range(coordinator, engine.contextID, emend_range(location: 12, length: 1), nil, 0, EMEND_UPDATE_TYPING),
                        EMEND_E_RANGE, mentions: ["splits"])
        var index = 0
        XCTAssertStatus(emend_session_suggestion_at_offset(coordinator, engine.contextID, 2, &index), EMEND_E_RANGE)
        XCTAssertEqual(engine.text, "日本 the 😀.")
    }

    func testRangesSplittingASurrogatePairAreRejectedInUTF16() throws {
        let text = "😀 teh 👩‍👧."   // UTF-16: 😀 0..<2, " teh " 2..<7, 👩 7..<9, ZWJ 9, 👧 10..<12, "." 12
        let (engine, coordinator, request) = try awaitingContexts(text, encoding: EMEND_ENCODING_UTF16)
        defer { emend_coordinator_destroy(coordinator) }
        let bytes = Array(text.utf8)
        XCTAssertStatus(answer(coordinator, request, bytes: bytes) { $0.selection = emend_range(location: 1, length: 0) },
                        EMEND_E_RANGE, mentions: ["splits"])
        XCTAssertStatus(answer(coordinator, request, bytes: bytes) { $0.selection = emend_range(location: 2, length: 9) },
                        EMEND_E_RANGE, mentions: ["offset 11", "splits"])
        XCTAssertStatus(answer(coordinator, request, bytes: bytes) { $0.selection = emend_range(location: 0, length: 14) },
                        EMEND_E_RANGE, mentions: ["past the text"])
        // Offsets that are fine in UTF-16 but would split in UTF-8 bytes are fine here.
        engine.selection = emend_range(location: 2, length: 5)
        XCTAssertEqual(engine.answerContexts(coordinator, request), EMEND_OK, lastError)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK)
        XCTAssertEqual(engine.text, "😀 the 👩‍👧.")
        XCTAssertStatus(emend_coordinator_update_range(coordinator, engine.contextID, emend_range(location: 8, length: 0), nil, 0, EMEND_UPDATE_TYPING),
                        EMEND_E_RANGE, mentions: ["splits"])
        var index = 0
        XCTAssertStatus(emend_session_suggestion_at_offset(coordinator, engine.contextID, 1, &index), EMEND_E_RANGE, mentions: ["splits"])
        XCTAssertEqual(emend_session_suggestion_at_offset(coordinator, engine.contextID, 3, &index), EMEND_OK, lastError)
        XCTAssertEqual(index, 0)
    }
}
