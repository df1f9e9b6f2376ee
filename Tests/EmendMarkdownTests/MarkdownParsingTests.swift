import EmendMarkdown
import XCTest

/// cmark-gfm's tree becomes blocks with plain text and inline spans.
final class MarkdownParsingTests: XCTestCase {
    func testHeadingsAndParagraphsBecomeBlocksWithPlainText() {
        let document = MarkdownDocument.parse("# Title\n\n## Part two\n\nBody text.")
        XCTAssertEqual(document.blocks.map(\.kind), [.heading(level: 1), .heading(level: 2), .paragraph])
        XCTAssertEqual(document.blocks.map(\.text), ["Title", "Part two", "Body text."])
    }

    func testNestedListsCarryDepthAndOrdinals() {
        let document = MarkdownDocument.parse("- one\n  1. first\n  2. second\n- two")
        XCTAssertEqual(document.blocks.map(\.kind), [
            .listItem(depth: 1, ordinal: 0), .listItem(depth: 2, ordinal: 1),
            .listItem(depth: 2, ordinal: 2), .listItem(depth: 1, ordinal: 0),
        ])
        XCTAssertEqual(document.blocks.map(\.text), ["one", "first", "second", "two"])
        XCTAssertEqual(Set(document.blocks.map(\.group)).count, 1, "one list, one group")
    }

    func testOrderedListKeepsItsStartNumber() {
        let document = MarkdownDocument.parse("3. c\n4. d")
        XCTAssertEqual(document.blocks.map(\.kind), [.listItem(depth: 1, ordinal: 3), .listItem(depth: 1, ordinal: 4)])
    }

    func testAnOrderedListStartingAtZeroIsNumberedFromOneNotReadAsBullets() {
        // Ordinal 0 means a bullet, so an ordered list that starts at 0 counts from 1.
        let document = MarkdownDocument.parse("0. a\n1. b")
        XCTAssertEqual(document.blocks.map(\.kind), [.listItem(depth: 1, ordinal: 1), .listItem(depth: 1, ordinal: 2)])
        XCTAssertEqual(document.render(.plain).string, "1. a\n2. b")
    }

    func testTableBecomesCellsByRowAndColumn() {
        let document = MarkdownDocument.parse("| Name | Value |\n|------|-------|\n| a    | 1     |\n| b    | 2     |")
        XCTAssertEqual(document.blocks.map(\.kind), [
            .tableCell(row: 0, column: 0), .tableCell(row: 0, column: 1),
            .tableCell(row: 1, column: 0), .tableCell(row: 1, column: 1),
            .tableCell(row: 2, column: 0), .tableCell(row: 2, column: 1),
        ])
        XCTAssertEqual(document.blocks.map(\.text), ["Name", "Value", "a", "1", "b", "2"])
    }

    func testCodeBlockAndQuoteKeepTheirText() {
        let document = MarkdownDocument.parse("```swift\nlet x = 1\nlet y = *2*\n```\n\n> quoted **words**")
        XCTAssertEqual(document.blocks.map(\.kind), [.codeBlock, .blockQuote])
        XCTAssertEqual(document.blocks[0].text, "let x = 1\nlet y = *2*", "code is literal, never parsed as emphasis")
        XCTAssertEqual(document.blocks[0].spans, [])
        XCTAssertEqual(document.blocks[1].text, "quoted words")
        XCTAssertEqual(document.blocks[1].spans.map(\.style), [.strong])
    }

    func testInlineMarkupBecomesSpansOnTheVisibleText() {
        let block = MarkdownDocument.parse("Some *emph*, **strong**, ~~gone~~, [a link](https://example.com) and `code`.").blocks[0]
        XCTAssertEqual(block.text, "Some emph, strong, gone, a link and code.")
        let covered = block.spans.map { span -> String in
            let bytes = Array(block.text.utf8)[span.range]
            return String(decoding: bytes, as: UTF8.self)
        }
        XCTAssertEqual(block.spans.map(\.style), [.emphasis, .strong, .strikethrough, .link(url: "https://example.com"), .code])
        XCTAssertEqual(covered, ["emph", "strong", "gone", "a link", "code"])
    }

    func testEntitiesAndEscapesAreDecoded() {
        let block = MarkdownDocument.parse("Q\\&A &amp; 3 \\* 4 &lt;b&gt;").blocks[0]
        XCTAssertEqual(block.text, "Q&A & 3 * 4 <b>")
        XCTAssertEqual(block.spans, [])
    }

    func testSpansCountUTF8Bytes() {
        let block = MarkdownDocument.parse("Größe **groß**").blocks[0]
        XCTAssertEqual(block.text, "Größe groß")
        XCTAssertEqual(block.spans.first?.range, "Größe ".utf8.count..<"Größe groß".utf8.count)
    }
}
