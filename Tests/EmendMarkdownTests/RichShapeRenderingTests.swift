import EmendMarkdown
import EmendText
import XCTest

/// One Markdown result reduced to what each set of result options can show.
final class RichShapeRenderingTests: XCTestCase {
    let markdown = """
        # Title

        Some *emph* and **strong** and ~~gone~~ with [a link](https://example.com) and `code`.

        - one
          1. first
          2. second
        - two

        | Name | Value |
        |------|-------|
        | a    | 1     |

        ```swift
        let x = 1
        ```
        """

    func testPlainTextGetsLinesAndNoMarkup() {
        let text = MarkdownDocument.parse(markdown).render(.plain)
        XCTAssertEqual(text.string, """
            Title

            Some emph and strong and gone with a link and code.

            - one
              1. first
              2. second
            - two

            Name\tValue
            a\t1

            let x = 1
            """)
        XCTAssertEqual(text.attributeRuns, [])
        XCTAssertEqual(text.blockIntents, [])
        for markup in ["#", "*", "~~", "`", "](", "|", "---"] {
            XCTAssertFalse(text.string.contains(markup), "markup \(markup) left behind")
        }
    }

    func testRichTextWithoutTablesOrIntentsGetsDisplayAttributesAndLines() {
        let text = MarkdownDocument.parse(markdown).render(RichShape(richText: true))
        XCTAssertEqual(text.string, MarkdownDocument.parse(markdown).render(.plain).string, "same words, same lines")
        XCTAssertEqual(describedRuns(text), [
            "bold=1:Title", "italic=1:emph", "bold=1:strong", "strikethrough=1:gone",
            "link=https://example.com:a link", "monospace=1:code", "monospace=1:let x = 1",
        ])
        XCTAssertEqual(text.blockIntents, [])
    }

    func testListsWithoutTablesGetListIntentsAndTableLines() {
        let text = MarkdownDocument.parse(markdown).render(RichShape(richText: true, lists: true))
        XCTAssertTrue(text.string.contains("\n\none\nfirst\nsecond\ntwo\n\n"), "list markers go, the intents say it")
        XCTAssertTrue(text.string.contains("Name\tValue\na\t1"))
        XCTAssertEqual(describedIntents(text), ["item1.0:one", "item2.1:first", "item2.2:second", "item1.0:two"])
    }

    func testPresentationIntentsReplaceDisplayAttributesWherePossible() {
        let text = MarkdownDocument.parse(markdown).render(fullShape())
        XCTAssertEqual(text.string, "Title\n\nSome emph and strong and gone with a link and code.\n\none\nfirst\nsecond\ntwo\n\nName\tValue\na\t1\n\nlet x = 1")
        XCTAssertEqual(describedIntents(text), [
            "heading1:Title", "item1.0:one", "item2.1:first", "item2.2:second", "item1.0:two",
            "cell0,0:Name", "cell0,1:Value", "cell1,0:a", "cell1,1:1", "code:let x = 1",
        ])
        XCTAssertEqual(describedRuns(text), [
            "emphasis=1:emph", "strong=1:strong", "strikethrough=1:gone", "link=https://example.com:a link", "code=1:code",
        ], "inline intents instead of bold/italic/monospace; strikethrough has no intent")
    }

    func testSingleNewlineSeparatorForRichTextViews() {
        let text = MarkdownDocument.parse("# T\n\nA.\n\nB.").render(RichShape(richText: true, presentationIntents: true, paragraphSeparator: "\n"))
        XCTAssertEqual(text.string, "T\nA.\nB.")
        XCTAssertEqual(describedIntents(text).first, "heading1:T")
    }

    func testBlockQuoteIsAnIntentOnlyForIntentEngines() {
        let document = MarkdownDocument.parse("> wise words")
        XCTAssertEqual(describedIntents(document.render(fullShape())), ["quote:wise words"])
        XCTAssertEqual(document.render(.plain).string.trimmingPrefix("> "), "wise words")
        XCTAssertEqual(document.render(.plain).blockIntents, [])
    }
}
