import Foundation
import XCTest
@testable import EmendLSP

/// A keystroke re-cuts one paragraph (`UnitPatch`): whenever the units stay current after an
/// edit, they must be exactly what cutting the whole new text gives.
final class UnitPatchTests: XCTestCase {
    let markdown = """
    ---
    title: teh
    ---

    # A heading with teh word

    Plain prose with a tomorow and `inline code` and [a link](http://x.y/z).
    A second line of the same paragraph.

    - a list item with teh
        indented continuation, not code

    ```
    code teh

    more code
    ```

        indented code after a blank line

    > a quote with teh

    <!-- a comment
    over two paragraphs

    still comment -->

    [label]: http://example.com
    Last paragraph, ends here.
    """

    /// Edits everywhere: a letter, a space, a deletion, and characters that change block
    /// structure (backtick, newline, "<!--", "]:", list markers).
    func testPatchedUnitsAreWhatAFreshCutGives() {
        let inserts = ["x", " ", "`", "```", "\n", "<!--", "-->", "]:", "- ", "1. ", "#", ">", "    ", ""]
        let cases: [(DocumentKind, String)] = [(.markdown, markdown), (.plainText, markdown),
                                               (.markdown, markdown.replacingOccurrences(of: "\n", with: "\r\n"))]
        for (kind, text) in cases {
            let base = Array(text.utf8)
            var patchedCount = 0
            for offset in stride(from: 0, through: base.count, by: 3) {
                for insert in inserts {
                    for removed in [0, 1] where offset + removed <= base.count {
                        var open = OpenDocument(TextDocument(uri: "u", languageID: kind == .markdown ? "markdown" : "plaintext",
                                                             version: 1, text: base))
                        open.refreshUnits()
                        open.replace(offset..<(offset + removed), with: Array(insert.utf8))
                        guard open.unitsState == .current else { continue }
                        patchedCount += 1
                        let fresh = CheckUnits.units(of: open.document.bytes, kind: kind)
                        XCTAssertEqual(open.units, fresh, "\(kind) at \(offset), removing \(removed), inserting \(insert.debugDescription)")
                    }
                }
            }
            XCTAssertGreaterThan(patchedCount, 100, "most edits inside prose are patched (\(kind))")
        }
    }

    func testAKeystrokeForgetsOnlyItsParagraphsFindings() {
        let text = "First paragraph here.\n\nSecond paragraph here.\n\nThird paragraph here."
        var open = OpenDocument(TextDocument(uri: "u", languageID: "markdown", version: 1, text: Array(text.utf8)))
        open.refreshUnits()
        open.findings = open.units.map { _ in [] }
        open.replace(30..<30, with: Array("x".utf8))   // inside "Second paragraph"
        XCTAssertEqual(open.unitsState, .current)
        XCTAssertEqual(open.findings.map { $0 == nil }, [false, true, false])
        XCTAssertEqual(open.units.map(\.offset), [0, 23, 48], "the units after it move")

        open.replace(0..<0, with: Array("\n".utf8))   // a line break: the document is cut again
        XCTAssertEqual(open.unitsState, .stale)
    }
}
