import XCTest
@testable import EmendLSP

final class CheckUnitTests: XCTestCase {
    func texts(_ units: [CheckUnit]) -> [String] { units.map { String(decoding: $0.key.text, as: UTF8.self) } }

    func testParagraphsSplitAtBlankLinesAndKeepTheirOffsets() {
        let text = "One line\nand more.\n\n  \nSecond.\r\n\r\nThird"
        let units = CheckUnits.units(of: Array(text.utf8), kind: .plainText)
        XCTAssertEqual(texts(units), ["One line\nand more.", "Second.", "Third"])
        XCTAssertEqual(units.map(\.offset), [0, 23, 34])
    }

    func testMarkdownCodeIsProtectedAndCodeOnlyParagraphsAreLeftOut() {
        let text = "---\ntitle: teh\n---\n\nSee `teh code` and [link](http://x.y/teh).\n\n```\nteh\n\nteh\n```\n"
        let units = CheckUnits.units(of: Array(text.utf8), kind: .markdown)
        XCTAssertEqual(texts(units), ["See `teh code` and [link](http://x.y/teh)."])
        let unit = units[0]
        let protected = unit.key.protected.map { String(decoding: unit.key.text[$0], as: UTF8.self) }
        XCTAssertEqual(protected, ["`teh code`", "http://x.y/teh"])
    }

    func testTheKeyIsTheTextNotThePlace() {
        let a = CheckUnits.units(of: Array("Same words.\n\nOther.".utf8), kind: .plainText)
        let b = CheckUnits.units(of: Array("New first.\n\nSame words.\n\nOther.".utf8), kind: .plainText)
        XCTAssertEqual(a[0].key, b[1].key)
        XCTAssertNotEqual(a[0].offset, b[1].offset)
    }

    func testSourceFilesGiveCommentsAndProseStringsOnly() {
        let code = """
        // This coment explains
        // the next line.
        let teh = "a wierd message" + "id"; /* block
         * with a typo: recieve */
        x = 'c'; // end
        """
        let units = CheckUnits.units(of: Array(code.utf8), kind: .forLanguage("swift"))
        XCTAssertEqual(texts(units), ["// This coment explains\n// the next line.", "\"a wierd message\"",
                                      "/* block\n * with a typo: recieve */", "// end"])
        let first = units[0]
        XCTAssertEqual(first.key.protected, [0..<2, 24..<26], "markers are protected, the words are not")
        XCTAssertEqual(DocumentKind.forLanguage("json"), .unchecked)
        XCTAssertEqual(DocumentKind.forLanguage("markdown"), .markdown)
    }

    func testASelectionToolMayChangeOnlyTheProseOfASourceFile() {
        let code = "x = 1 # the anser\ny = 2\n"
        let bytes = Array(code.utf8)
        let protected = CheckUnits.protectedRanges(of: bytes, kind: .forLanguage("python"))
        let free = (0..<bytes.count).filter { offset in !protected.contains { $0.contains(offset) } }
        XCTAssertEqual(String(decoding: free.map { bytes[$0] }, as: UTF8.self), " the anser", "only the comment's words")
        XCTAssertEqual(CheckUnits.protectedRanges(of: bytes, kind: .plainText), [])
    }

    func testPythonHashCommentsAndDocstrings() {
        let code = "def f():\n    \"\"\"Retuns the value.\"\"\"\n    return 1  # the anser\n"
        XCTAssertEqual(texts(CheckUnits.units(of: Array(code.utf8), kind: .forLanguage("python"))),
                       ["\"\"\"Retuns the value.\"\"\"", "# the anser"])
    }

    func testFindingsOfJoinedUnitsGoBackToTheirUnits() {
        let units = [UnitKey(text: Array("ab teh".utf8), protected: []), UnitKey(text: Array("wierd x".utf8), protected: [])]
        let joined = FindingPlacement.join(units)
        XCTAssertEqual(String(decoding: joined.text, as: UTF8.self), "ab teh\n\nwierd x")
        let found = [UnitFinding(range: 3..<6, original: "teh", replacement: "the", explanation: "", category: "spelling", ruleID: "S"),
                     UnitFinding(range: 8..<13, original: "wierd", replacement: "weird", explanation: "", category: "spelling", ruleID: "S"),
                     UnitFinding(range: 5..<9, original: "h\n\nw", replacement: "", explanation: "", category: "x", ruleID: "X")]
        let split = FindingPlacement.split(found, units: units, starts: joined.starts)
        XCTAssertEqual(split.map { $0.1.map(\.range) }, [[3..<6], [0..<5]], "a finding across two units is dropped")
    }

    func testChangedSpanIsTheMinimalEditOnCharacterBoundaries() {
        let old = Array("Café au lait".utf8), new = Array("Cafè au lait".utf8)
        let span = ChangedSpan.between(old, new)
        XCTAssertEqual(span?.range, 3..<5)
        XCTAssertEqual(span?.text, "è")
        XCTAssertNil(ChangedSpan.between(old, old))
    }
}
