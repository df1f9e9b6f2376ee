import XCTest
import Glibc
import CEmend
import EmendCABI

/// Attribute values through the C ABI: the engine's runs come back with its own values byte
/// for byte (a link's URL whatever the provider did to the Markdown it read), and a
/// presentation-intent engine gets strong/emphasis/code instead of bold/italic/monospace,
/// never both on the same text.
final class ABIRichAttributeValueTests: XCTestCase {
    private static let url = "https://example.com/Path?q=a"

    private func start(_ coordinator: OpaquePointer, _ tool: emend_tool, prompt: String?) {
        "org.emend.fixture".withCString { id in
            let call = { (prompt: UnsafePointer<CChar>?) -> emend_status in
                var request = emend_tool_request(struct_size: MemoryLayout<emend_tool_request>.size, tool: tool,
                                                 scope: EMEND_SCOPE_FULL_DOCUMENT, prompt: prompt, provider_id: id)
                return emend_coordinator_start(coordinator, &request)
            }
            let status = prompt.map { $0.withCString(call) } ?? call(nil)
            XCTAssertEqual(status, EMEND_OK, lastError)
        }
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK, lastError)
    }

    /// The runs of `key` in styled replaces, as "covered text=value".
    private func runs(_ key: String, in engine: CEngine, replaces: ArraySlice<(text: String, intents: [emend_block_intent], runs: [(range: emend_range, key: String, value: String)])>) -> [String] {
        replaces.flatMap { replace in
            replace.runs.filter { $0.key == key }.map { run in
                let bytes = Array(replace.text.utf8)[Int(run.range.location)..<Int(run.range.location + run.range.length)]
                return "\(String(decoding: bytes, as: UTF8.self))=\(run.value)"
            }
        }
    }

    func testAnUppercaseRewriteAndFollowUpKeepTheLinksURLByteForByte() throws {
        let engine = CEngine("Read the plan and the notes today.")
        engine.resultOptions = UInt32(EMEND_RESULT_RICH_TEXT)
        engine.attributeRuns = [(engine.range(of: "the plan")!, "link", Self.url), (engine.range(of: "notes")!, "bold", "1")]
        let coordinator = try engine.makeCoordinator()
        defer { emend_coordinator_destroy(coordinator) }

        start(coordinator, EMEND_TOOL_REWRITE_DESCRIBED, prompt: "uppercase")
        XCTAssertEqual(engine.text, "READ THE PLAN AND THE NOTES TODAY.")
        let links = runs("link", in: engine, replaces: engine.styledReplaces[...])
        XCTAssertFalse(links.isEmpty, "\(engine.styledReplaces)")
        XCTAssertTrue(links.allSatisfy { $0.hasSuffix("=" + Self.url) }, "\(links)")
        XCTAssertTrue(links.contains("THE=\(Self.url)") || links.contains("THE PLAN=\(Self.url)"), "\(links)")
        XCTAssertEqual(runs("bold", in: engine, replaces: engine.styledReplaces[...]), ["NOTES=1"])

        let first = engine.styledReplaces.count
        start(coordinator, EMEND_TOOL_FOLLOW_UP, prompt: "uppercase")
        let again = runs("link", in: engine, replaces: engine.styledReplaces[first...])
        XCTAssertTrue(again.allSatisfy { $0.hasSuffix("=" + Self.url) }, "a follow-up keeps it too: \(again)")
        XCTAssertTrue(engine.answerFailures.isEmpty, "\(engine.answerFailures)")
    }

    func testPresentationIntentResultsCarryStrongNeverBoldOnTheSameText() throws {
        // The fixture reads "I do not think the **report** is ready." and writes it back
        // friendlier, **report** still strong; "report" survives with the engine's bold run.
        let engine = CEngine("I do not think the report is ready.")
        engine.resultOptions = UInt32(EMEND_RESULT_RICH_TEXT | EMEND_RESULT_PRESENTATION_INTENT)
        engine.attributeRuns = [(engine.range(of: "report")!, "bold", "1"), (engine.range(of: "ready")!, "colour", "red")]
        let coordinator = try engine.makeCoordinator()
        defer { emend_coordinator_destroy(coordinator) }
        start(coordinator, EMEND_TOOL_REWRITE_FRIENDLY, prompt: nil)
        XCTAssertEqual(engine.text, "I don't think the report is ready!")
        XCTAssertFalse(engine.styledReplaces.isEmpty)
        for replace in engine.styledReplaces {
            let forms = [("bold", "strong"), ("italic", "emphasis"), ("monospace", "code")]
            for (display, intent) in forms {
                let a = replace.runs.filter { $0.key == display }, b = replace.runs.filter { $0.key == intent }
                XCTAssertTrue(a.isEmpty, "display key \(display) in a presentation-intent result: \(replace.runs)")
                for x in a { for y in b where max(x.range.location, y.range.location) < min(x.range.location + x.range.length, y.range.location + y.range.length) {
                    XCTFail("\(display) and \(intent) on the same text: \(replace.runs)")
                } }
            }
        }
        let strong = runs("strong", in: engine, replaces: engine.styledReplaces[...])
        XCTAssertTrue(strong.contains("report=1"), "the surviving bold word arrives as strong: \(strong) \(engine.styledReplaces)")
        XCTAssertTrue(engine.answerFailures.isEmpty, "\(engine.answerFailures)")
    }
}
