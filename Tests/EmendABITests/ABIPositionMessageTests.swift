import XCTest
import CEmend
import EmendCABI

/// Messages that name an offset or a range say it in the coordinator's encoding, naming the
/// units: a UTF-16 engine that asked at offset 2 reads "offset 2 (UTF-16 code units)", never
/// the UTF-8 byte offset the core counts in.
final class ABIPositionMessageTests: XCTestCase {
    /// Emoji (4 UTF-8 bytes, 2 UTF-16 units, 1 code point) and an accent (2, 1, 1) before the error.
    static let original = "😀 Café: see you tomorow."

    func testNoSuggestionAtOffsetSaysTheEnginesOffset() throws {
        // Offset 3 in each encoding is "C" ... "a"; as UTF-8 bytes "😀 C" is 6 bytes.
        let cases: [(emend_position_encoding, UInt64, String)] = [
            (EMEND_ENCODING_UTF8, 5, "offset 5 (UTF-8 bytes)"),
            (EMEND_ENCODING_UTF16, 3, "offset 3 (UTF-16 code units)"),
            (EMEND_ENCODING_CODEPOINT, 3, "offset 3 (code points)"),
        ]
        for (encoding, offset, expected) in cases {
            let engine = CEngine(Self.original, encoding: encoding)
            let coordinator = try engine.makeCoordinator()
            defer { emend_coordinator_destroy(coordinator) }
            XCTAssertEqual(start(coordinator, EMEND_TOOL_PROOFREAD), EMEND_OK)
            XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK, lastError)
            var index = 0
            XCTAssertStatus(emend_session_suggestion_at_offset(coordinator, engine.contextID, offset, &index), EMEND_E_NOT_FOUND,
                            mentions: ["no pending suggestion at \(expected)"])
        }
    }

    /// The message of a failed session (run_until_idle, session_ended, the getter) names the
    /// refused replace's range as the engine received it.
    func testARefusedReplaceNamesTheRangeTheEngineGot() throws {
        for encoding in [EMEND_ENCODING_UTF16, EMEND_ENCODING_CODEPOINT, EMEND_ENCODING_UTF8] {
            let units = [EMEND_ENCODING_UTF8: "UTF-8 bytes", EMEND_ENCODING_UTF16: "UTF-16 code units",
                         EMEND_ENCODING_CODEPOINT: "code points"][encoding]!
            let engine = CEngine(Self.original, encoding: encoding)
            engine.holdReplaces = true
            let coordinator = try engine.makeCoordinator()
            defer { emend_coordinator_destroy(coordinator) }
            XCTAssertEqual(start(coordinator, EMEND_TOOL_PROOFREAD), EMEND_OK)
            XCTAssertTrue(pump(coordinator) { !engine.heldReplaces.isEmpty })
            let request = try XCTUnwrap(engine.takeHeldReplaces().first)
            let sent = engine.replaces[0].range
            XCTAssertEqual(engine.substring(sent), "tomorow")
            XCTAssertEqual(sent, engine.range(of: "tomorow"))
            XCTAssertEqual(emend_answer_replace(coordinator, request, EMEND_REPLACE_REFUSED, nil, 0), EMEND_OK)
            let expected = "refused a replace at location \(sent.location), length \(sent.length) (\(units))"
            XCTAssertStatus(runUntilIdle(coordinator), EMEND_E_REFUSED, mentions: [expected])
            XCTAssertEqual(engine.endings.count, 1)
            XCTAssertTrue(engine.endings.first?.message.contains(expected) ?? false, "\(engine.endings)")
            var status = EMEND_OK
            XCTAssertEqual(emend_coordinator_last_session_status(coordinator, &status), EMEND_OK)
            XCTAssertEqual(status, EMEND_E_REFUSED)
            XCTAssertTrue(lastError.contains(expected), lastError)
        }
    }

    /// Ranges the engine passes are reported with its own numbers and units.
    func testABadRangeNamesTheEnginesUnits() throws {
        let engine = CEngine(Self.original, encoding: EMEND_ENCODING_UTF16)
        let coordinator = try engine.makeCoordinator()
        defer { emend_coordinator_destroy(coordinator) }
        XCTAssertEqual(start(coordinator, EMEND_TOOL_PROOFREAD), EMEND_OK)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK, lastError)
        // Offset 1 is inside the emoji's surrogate pair.
        XCTAssertStatus(emend_coordinator_update_range(coordinator, engine.contextID, emend_range(location: 1, length: 0), nil, 0,
                                                       EMEND_UPDATE_TYPING), EMEND_E_RANGE,
                        mentions: ["offset 1 splits a character (UTF-16 code units)"])
        XCTAssertStatus(emend_coordinator_update_range(coordinator, engine.contextID, emend_range(location: 20, length: 9), nil, 0,
                                                       EMEND_UPDATE_TYPING), EMEND_E_RANGE,
                        mentions: ["offset 29 > length \(engine.length) (UTF-16 code units)"])
    }
}

extension emend_range: @retroactive Equatable {
    public static func == (a: emend_range, b: emend_range) -> Bool { a.location == b.location && a.length == b.length }
}
