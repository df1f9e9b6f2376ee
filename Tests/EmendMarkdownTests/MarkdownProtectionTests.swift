import EmendMarkdown
import EmendText
import XCTest

/// The one Markdown rule set (MarkdownProtection's doc comment): each protected construct is
/// protected, and the prose around it is not.
final class MarkdownProtectionTests: XCTestCase {
    /// The protected texts of `markdown`, in order.
    private func protected(_ markdown: String) -> [String] {
        let bytes = Array(markdown.utf8)
        return MarkdownProtection.protectedRanges(in: bytes).map { String(decoding: bytes[$0], as: UTF8.self) }
    }

    /// Whether any protected range overlaps `word` (its first occurrence).
    private func isProse(_ word: String, in markdown: String, file: StaticString = #filePath, line: UInt = #line) -> Bool {
        let bytes = Array(markdown.utf8)
        let needle = Array(word.utf8)
        guard let start = (0...(bytes.count - needle.count)).first(where: { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }) else {
            XCTFail("\(word) is not in the text", file: file, line: line)
            return false
        }
        return !MarkdownProtection.protectedRanges(in: bytes).contains { $0.overlaps(start..<(start + needle.count)) }
    }

    func testFrontMatterYAMLAndTOML() {
        let yaml = "---\ntitle: tomorow\n---\nWe meet tomorow.\n"
        XCTAssertEqual(protected(yaml), ["---\ntitle: tomorow\n---"])
        XCTAssertTrue(isProse("We meet", in: yaml))
        XCTAssertEqual(protected("+++\ntitle = 'x'\n+++\nProse.\n"), ["+++\ntitle = 'x'\n+++"])
        XCTAssertEqual(protected("---\ntitle: x\n...\nProse.\n"), ["---\ntitle: x\n..."])
        // A rule later in the file is not front matter.
        XCTAssertEqual(protected("Prose.\n\n---\n\nMore prose.\n"), [])
    }

    func testFencedAndIndentedCode() {
        let text = "Before tomorow.\n\n```sh\necho tomorow\n```\n\n~~~\nx\n~~~\n\n    indented tomorow\n\nAfter tomorow.\n"
        XCTAssertEqual(protected(text), ["```sh\necho tomorow\n```", "~~~\nx\n~~~", "indented tomorow"])
        XCTAssertTrue(isProse("Before", in: text))
        XCTAssertTrue(isProse("After", in: text))
        XCTAssertEqual(protected("Text.\n\n```\nnever closed\nstill code"), ["```\nnever closed\nstill code"])
    }

    func testCodeSpansWithTheirBackticks() {
        let text = "Run `emend --wierd` or ``a`b`` now.\n"
        XCTAssertEqual(protected(text), ["`emend --wierd`", "``a`b``"])
        XCTAssertTrue(isProse("Run", in: text))
        XCTAssertTrue(isProse("now", in: text))
        // An escaped backtick opens nothing.
        XCTAssertEqual(protected("A \\` tick and `code`.\n"), ["`code`"])
    }

    func testLinkAndImageDestinations() {
        let text = "See [the guide](https://example.com/teh-guide \"Teh\") and ![a photo](img.png).\n"
        XCTAssertEqual(protected(text), ["https://example.com/teh-guide \"Teh\"", "img.png"])
        XCTAssertTrue(isProse("the guide", in: text))
        XCTAssertTrue(isProse("a photo", in: text))
    }

    func testAutolinksBareURLsAndEmail() {
        let text = "Mail <me@example.com>, see <https://x.y/teh> or https://a.b/teh, www.teh.org and me@teh.org.\n"
        XCTAssertEqual(protected(text), ["<me@example.com>", "<https://x.y/teh>", "https://a.b/teh", "www.teh.org", "me@teh.org"])
        XCTAssertTrue(isProse("Mail", in: text))
        XCTAssertTrue(isProse(" or ", in: text))
    }

    func testReferenceLinksAndDefinitions() {
        let text = "Read [the notes][teh] and [teh] and [teh][].\n\n[teh]: https://example.com \"Title\"\n"
        XCTAssertEqual(protected(text), ["[teh]", "[teh]", "[teh][]", "[teh]: https://example.com \"Title\""])
        XCTAssertTrue(isProse("the notes", in: text))
        // Definitions opening a paragraph: protected, and the text after them keeps its positions.
        let opening = "[a]: /u\n[b]: /v\nText `x` here.\n"
        XCTAssertEqual(protected(opening), ["[a]: /u\n[b]: /v", "`x`"])
        XCTAssertTrue(isProse("Text", in: opening))
    }

    func testHTMLBlocksInlineHTMLAndComments() {
        let text = "<div>\nraw tomorow\n</div>\n\nA <span>word</span> and <!-- a note --> here.\n\n<!-- block\ncomment -->\n"
        XCTAssertEqual(protected(text), ["<div>\nraw tomorow\n</div>", "<span>", "</span>", "<!-- a note -->", "<!-- block\ncomment -->"])
        XCTAssertTrue(isProse("word", in: text))
        XCTAssertTrue(isProse(" here", in: text))
    }

    func testBlockQuotesAreProtectedWhole() {
        let text = "Prose.\n\n> Quoted: \"I beleive\"\nlazy line\n\nAfter.\n"
        XCTAssertEqual(protected(text), ["> Quoted: \"I beleive\"\nlazy line"])
        XCTAssertTrue(isProse("After", in: text))
    }

    func testTablesDelimiterRowAndCellCode() {
        let text = "| Name | Note |\n|------|:----:|\n| `x` | tomorow |\n"
        XCTAssertEqual(protected(text), ["|------|:----:|", "`x`"])
        XCTAssertTrue(isProse("tomorow", in: text))
        XCTAssertTrue(isProse("Name", in: text))
    }

    func testHeadingsAndListItems() {
        let text = "# Head `x` é\n\n- item `i`\n  continued [l](u) y\nlazy `c` z\n\n1. one `two`\n"
        XCTAssertEqual(protected(text), ["`x`", "`i`", "u", "`c`", "`two`"])
        XCTAssertTrue(isProse("Head", in: text))
        XCTAssertTrue(isProse("continued", in: text))
        XCTAssertTrue(isProse("lazy", in: text))
    }

    /// cmark-gfm's inline columns on later lines count from the stripped content; the
    /// ranges must still land on the source.
    func testPositionsOnIndentedContinuationLinesAndAfterMultilineSpans() {
        let text = "para line é\n   indented `code` x\n\tlazy [l](u) y\n"
        XCTAssertEqual(protected(text), ["`code`", "u"])
        let multi = "multi `line\ncode` span `` a`b `` end\nnext `n` and <b\nclass=\"x\"> and `m`.\n"
        XCTAssertEqual(protected(multi), ["`line\ncode`", "`` a`b ``", "`n`", "<b\nclass=\"x\">", "`m`"])
        XCTAssertTrue(isProse(" end", in: multi))
        XCTAssertTrue(isProse("next", in: multi))
    }

    func testPositionsAfterMultibyteCharacters() {
        // é (2 bytes), 中 (3), 😀 (4, two UTF-16 units) before each construct.
        let text = "é 中 😀 `code` 😀 [t](u) 中\n\n> é\n"
        let bytes = Array(text.utf8)
        let ranges = MarkdownProtection.protectedRanges(in: bytes)
        XCTAssertEqual(ranges.map { String(decoding: bytes[$0], as: UTF8.self) }, ["`code`", "u", "> é"])
        XCTAssertEqual(ranges.first, 12..<18)
    }

    func testLineEndingsAndNUL() {
        XCTAssertEqual(protected("A `x`\r\nb `y`\r\n\r\n```\r\ncode\r\n```\r\n"), ["`x`", "`y`", "```\r\ncode\r\n```"])
        XCTAssertEqual(protected("A\u{0} `x` b\n"), ["`x`"])
        XCTAssertEqual(protected(""), [])
        XCTAssertEqual(protected("Just prose.\n"), [])
    }

    /// Random Markdown-ish text: never a crash, and ranges always sorted, disjoint, inside
    /// the text and on character boundaries.
    func testRandomTextGivesWellFormedRanges() {
        let pieces = ["`", "``", "[", "]", "(", ")", "<", ">", "!", "\n", "\n\n", "> ", "- ", "    ", "\t", "#", "|", "---", "```",
                      "~~~", "http://a.b", "www.x.y", "a@b.c", "<!--", "-->", "é", "😀", "word", " ", "\\", "*", "_", "[a]: /u",
                      "\r", "\r\n", "&amp;", "|-|", "+++", "<div>", "1. "]
        var random = SplitMix64(seed: 25)
        for _ in 0..<3000 {
            var text = ""
            for _ in 0..<Int.random(in: 1...40, using: &random) { text += pieces.randomElement(using: &random)! }
            let bytes = Array(text.utf8)
            let ranges = MarkdownProtection.protectedRanges(in: bytes)
            var previousEnd = -1
            for range in ranges {
                XCTAssertTrue(range.lowerBound > previousEnd && range.upperBound <= bytes.count && !range.isEmpty, "\(ranges) in \(text.debugDescription)")
                XCTAssertTrue(range.lowerBound == bytes.count || bytes[range.lowerBound] & 0xC0 != 0x80, text.debugDescription)
                XCTAssertTrue(range.upperBound == bytes.count || bytes[range.upperBound] & 0xC0 != 0x80, text.debugDescription)
                previousEnd = range.upperBound
            }
        }
    }

    /// Random paragraphs, list items (nested too) and headings with indented and lazy
    /// continuation lines,
    /// code spans over two lines, links, inline HTML and bare URLs: every piece of prose stays
    /// prose and every protected piece is protected. This holds only if each cmark position is
    /// placed exactly (a misplaced one protects its whole paragraph, prose included).
    func testRandomParagraphsPlaceEveryPositionExactly() {
        enum Role { case prose, protected }
        var random = SplitMix64(seed: 2025)
        for round in 0..<400 {
            var text = ""
            var expected: [(Range<Int>, Role)] = []
            func add(_ piece: String, _ role: Role? = nil) {
                let start = text.utf8.count
                text += piece
                if let role { expected.append((start..<text.utf8.count, role)) }
            }
            var inHeading = false
            func token() {
                switch Int.random(in: 0..<10, using: &random) {
                case 0: add("`co de`", .protected)
                case 1: add("[", nil); add("link text", .prose); add("](", nil); add("dest/é", .protected); add(")", nil)
                case 2: add("<b>", .protected); add("bold", .prose); add("</b>", .protected)
                case 3: add("https://u.v/w", .protected)
                case 4 where !inHeading: add("`two\n  lines`", .protected)
                case 5: add("``a`b``", .protected)
                case 6: add("*emph*", .prose)
                case 7: add("中文 😀", .prose)
                case 8: add("\\`", nil); add("`esc`", .protected)
                default: add("&amp; word", .prose)
                }
            }
            for block in 0..<Int.random(in: 1...4, using: &random) {
                if block > 0 { add("\n\n") }
                let kind = Int.random(in: 0..<4, using: &random)
                inHeading = kind == 2
                if kind == 1 { add("- ") } else if kind == 2 { add("# ") }
                if kind == 3 { add("1. "); add("alpha", .prose); add("\n   - ") }
                let lineCount = kind == 2 ? 1 : Int.random(in: 1...4, using: &random)
                for line in 0..<lineCount {
                    if line > 0 {
                        add("\n")
                        add([" ", "  ", "   ", "     ", "\t", ""].randomElement(using: &random)!)
                    }
                    add("alpha", .prose)
                    for _ in 0..<Int.random(in: 0...3, using: &random) { add(" "); token() }
                    add(" omega", .prose)
                }
            }
            let bytes = Array(text.utf8)
            let ranges = MarkdownProtection.protectedRanges(in: bytes)
            for (range, role) in expected {
                switch role {
                case .prose:
                    XCTAssertFalse(ranges.contains { $0.overlaps(range) }, "round \(round): \(String(decoding: bytes[range], as: UTF8.self)) is prose in \(text.debugDescription), protected: \(ranges)")
                case .protected:
                    XCTAssertTrue(ranges.contains { $0.lowerBound <= range.lowerBound && range.upperBound <= $0.upperBound },
                                  "round \(round): \(String(decoding: bytes[range], as: UTF8.self)) is protected in \(text.debugDescription), protected: \(ranges)")
                }
            }
        }
    }
}
