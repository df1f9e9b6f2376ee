import XCTest
import CEmend
import EmendCABI

/// Rich results through the C ABI: a styled replace carries its block intents and attribute
/// runs relative to its own text, in the engine's position encoding.
final class ABIRichResultTests: XCTestCase {
    private let fixture = "org.emend.fixture"

    /// The part of `text` an ABI range covers, counting in UTF-16 code units.
    private func utf16Substring(_ text: String, _ range: emend_range) -> String {
        let units = Array(text.utf16)
        return String(decoding: units[Int(range.location)..<Int(range.location + range.length)], as: UTF16.self)
    }

    func testATableArrivesAsCellIntentsInTheEnginesEncoding() throws {
        let engine = CEngine("Grüße 😀 are warm. Pears are green.", encoding: EMEND_ENCODING_UTF16)
        engine.resultOptions = UInt32(EMEND_RESULT_RICH_TEXT | EMEND_RESULT_TABLE)
        let coordinator = try engine.makeCoordinator()
        defer { emend_coordinator_destroy(coordinator) }
        var request = emend_tool_request(struct_size: MemoryLayout<emend_tool_request>.size, tool: EMEND_TOOL_TABLE,
                                         scope: EMEND_SCOPE_FULL_DOCUMENT, prompt: nil, provider_id: nil)
        try fixture.withCString { id in
            request.provider_id = id
            XCTAssertEqual(emend_coordinator_start(coordinator, &request), EMEND_OK, String(cString: emend_last_error_message()))
            XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK, String(cString: emend_last_error_message()))
            let styled = try XCTUnwrap(engine.styledReplaces.last)
            let cells = styled.intents.filter { $0.kind == EMEND_BLOCK_TABLE_CELL }
            XCTAssertEqual(cells.map { utf16Substring(styled.text, $0.range) }, ["#", "Sentence", "1", "Grüße 😀 are warm.", "2", "Pears are green."])
            XCTAssertEqual(cells.map { [$0.row, $0.column] }, [[0, 0], [0, 1], [1, 0], [1, 1], [2, 0], [2, 1]])
            XCTAssertEqual(engine.text, "#\tSentence\n1\tGrüße 😀 are warm.\n2\tPears are green.")
        }
        XCTAssertTrue(engine.answerFailures.isEmpty, "\(engine.answerFailures)")
    }

    func testPlainTextEnginesGetNoStyledReplaces() throws {
        let engine = CEngine("Apples are red. Pears are green.")
        let coordinator = try engine.makeCoordinator()
        defer { emend_coordinator_destroy(coordinator) }
        var request = emend_tool_request(struct_size: MemoryLayout<emend_tool_request>.size, tool: EMEND_TOOL_TABLE,
                                         scope: EMEND_SCOPE_FULL_DOCUMENT, prompt: nil, provider_id: nil)
        fixture.withCString { id in
            request.provider_id = id
            XCTAssertEqual(emend_coordinator_start(coordinator, &request), EMEND_OK)
            XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK)
        }
        XCTAssertTrue(engine.styledReplaces.isEmpty)
        XCTAssertEqual(engine.text, "#\tSentence\n1\tApples are red.\n2\tPears are green.")
    }

    func testThePoorResultStatusHasAName() {
        XCTAssertEqual(String(cString: emend_status_name(EMEND_E_POOR_RESULT)), "EMEND_E_POOR_RESULT")
    }
}
