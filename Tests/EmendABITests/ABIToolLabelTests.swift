import XCTest
import CEmend
import EmendCABI
import EmendCore

/// emend_tool_label gives each tool the label Apple's Writing Tools panel shows, and
/// emend_tool_name its stable name; both static, NULL for a value the header does not define.
final class ABIToolLabelTests: XCTestCase {
    private let expected: [(emend_tool, label: String, name: String)] = [
        (EMEND_TOOL_PROOFREAD, "Proofread", "proofread"),
        (EMEND_TOOL_REWRITE_FRIENDLY, "Friendly", "rewrite-friendly"),
        (EMEND_TOOL_REWRITE_PROFESSIONAL, "Professional", "rewrite-professional"),
        (EMEND_TOOL_REWRITE_CONCISE, "Concise", "rewrite-concise"),
        (EMEND_TOOL_REWRITE_DESCRIBED, "Describe Your Change", "rewrite-described"),
        (EMEND_TOOL_SUMMARY, "Summary", "summary"),
        (EMEND_TOOL_KEY_POINTS, "Key Points", "key-points"),
        (EMEND_TOOL_LIST, "List", "list"),
        (EMEND_TOOL_TABLE, "Table", "table"),
        (EMEND_TOOL_COMPOSE, "Compose", "compose"),
        (EMEND_TOOL_FOLLOW_UP, "Follow-Up", "follow-up"),
    ]

    func testEveryToolHasItsLabelAndName() throws {
        XCTAssertEqual(expected.count, WritingTool.allCases.count, "every tool of the header is listed")
        for (tool, label, name) in expected {
            XCTAssertEqual(String(cString: try XCTUnwrap(CEmend.emend_tool_label(tool))), label)
            XCTAssertEqual(String(cString: try XCTUnwrap(CEmend.emend_tool_name(tool))), name)
            // The name is the one the rest of Emend uses for the tool (emend lsp settings, logs).
            XCTAssertEqual(WritingTool(rawValue: Int(tool.rawValue))?.name, name)
        }
    }

    func testTheStringsAreStatic() throws {
        // The same pointer every time, from any thread: static storage, nothing to free.
        let first = try XCTUnwrap(CEmend.emend_tool_label(EMEND_TOOL_SUMMARY))
        XCTAssertEqual(CEmend.emend_tool_label(EMEND_TOOL_SUMMARY), first)
        let name = try XCTUnwrap(CEmend.emend_tool_name(EMEND_TOOL_KEY_POINTS))
        XCTAssertEqual(CEmend.emend_tool_name(EMEND_TOOL_KEY_POINTS), name)
    }

    func testUnknownToolsAreNull() {
        for raw: UInt32 in [11, 12, 1000, UInt32.max, UInt32(bitPattern: Int32.min)] {
            XCTAssertNil(CEmend.emend_tool_label(emend_tool(rawValue: raw)), "\(raw)")
            XCTAssertNil(CEmend.emend_tool_name(emend_tool(rawValue: raw)), "\(raw)")
        }
    }
}
