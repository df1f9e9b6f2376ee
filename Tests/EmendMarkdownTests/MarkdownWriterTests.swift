import EmendMarkdown
import EmendText
import XCTest

/// Attributed text written as Markdown for a provider, and read back.
final class MarkdownWriterTests: XCTestCase {
    func testPlainTextSurvivesWriteThenParseExactly() {
        let samples = [
            "a * b and snake_case, #hashtag\n# Title\n- x\n1. y\n2024. z",
            "<b>x</b> [y] C:\\path\\to a\\*b",
            "  lead\n\n\n\ntrail  \n",
            "| a | b\n--|--",
            "Q&A &amp; AT&T",
            "> not a quote\n    not code\n```\nnot a fence",
            "Größe ⟦ not a token ⟧ 😀 ~~x~~ __y__",
        ]
        for sample in samples {
            let markdown = write(AttributedText(sample)).markdown
            XCTAssertEqual(MarkdownDocument.parse(markdown).render(.plain).string, sample, "via \(markdown.debugDescription)")
        }
    }

    func testStylesAndIntentsBecomeMarkdown() {
        let string = "Title\n\nA bold word and a link.\n\none\ntwo"
        let text = AttributedText(string, attributeRuns: [
            AttributeRun(range: byteRange(of: "bold", in: string), key: AttributeKey.bold, value: AttributeKey.on),
            AttributeRun(range: byteRange(of: "link", in: string), key: AttributeKey.link, value: "https://emend.example/"),
            AttributeRun(range: byteRange(of: "word", in: string), key: "font", value: "Serif 12"),
        ], blockIntents: [
            BlockIntent(range: byteRange(of: "Title", in: string), kind: .heading, level: 2),
            BlockIntent(range: byteRange(of: "one", in: string), kind: .listItem, level: 1),
            BlockIntent(range: byteRange(of: "two", in: string), kind: .listItem, level: 1),
        ])
        XCTAssertEqual(write(text).markdown, "## Title\n\nA **bold** word and a [link](https://emend.example/).\n\n- one\n- two")
    }

    func testTableCellsBecomeAGFMTableThatParsesBack() {
        let string = "Name\tValue\na\t1"
        let cells = [0..<4, 5..<10, 11..<12, 13..<14]
        let intents = cells.enumerated().map { index, range in
            BlockIntent(range: range, kind: .tableCell, row: index / 2, column: index % 2)
        }
        let markdown = write(AttributedText(string, blockIntents: intents)).markdown
        XCTAssertTrue(markdown.hasPrefix("| Name | Value |\n"), markdown)
        let back = MarkdownDocument.parse(markdown).render(fullShape())
        XCTAssertEqual(back.string, string)
        XCTAssertEqual(back.blockIntents, intents)
    }

    func testProtectedTextAndAttachmentsBecomeNumberedPlaceholders() {
        let string = "Keep API_KEY here \u{FFFC} and go."
        let protected = byteRange(of: "API_KEY", in: string)
        let text = AttributedText(string, protectedRanges: [protected])
        let source = write(text)
        XCTAssertEqual(source.markdown, "Keep \(PlaceholderToken.make(1)) here \(PlaceholderToken.make(2)) and go.")
        XCTAssertEqual(source.placeholders.map(\.token), [PlaceholderToken.make(1), PlaceholderToken.make(2)])
        XCTAssertEqual(source.placeholders.map { text.substring($0.range) }, ["API_KEY", "\u{FFFC}"])
        let found = PlaceholderToken.find(in: source.markdown)
        XCTAssertEqual(found.map(\.number), [1, 2])
        XCTAssertEqual(found.map { String(decoding: Array(source.markdown.utf8)[$0.range], as: UTF8.self) }, source.placeholders.map(\.token))
    }

    func testABackslashBeforeACharacterWrittenAsAReferenceSurvives() {
        // A tab or space at a line's edge and control characters are written as &#N;, which
        // an unescaped backslash would turn into literal text.
        for sample in ["x\\\t", "x\\ ", "a\\\rb", "a\\\u{1}b", "\\ lead", "C:\\dir\\"] {
            let markdown = write(AttributedText(sample)).markdown
            XCTAssertEqual(MarkdownDocument.parse(markdown).render(.plain).string, sample, "via \(markdown.debugDescription)")
        }
    }

    func testPlaceholderNumbersSkipTokensTheTextAlreadyHolds() {
        let string = "Type ⟦1⟧ or ⟦3⟧ and keep \u{FFFC} and \u{FFFC}."
        let source = write(AttributedText(string))
        XCTAssertEqual(source.placeholders.map(\.token), [PlaceholderToken.make(2), PlaceholderToken.make(4)])
        XCTAssertEqual(source.markdown, "Type ⟦1⟧ or ⟦3⟧ and keep ⟦2⟧ and ⟦4⟧.")
    }

    func testPlaceholdersSurviveParsingUnchanged() {
        let source = write(AttributedText("Use `x` with *care* and ⟦, then \u{FFFC}.", protectedRanges: []))
        let rendered = MarkdownDocument.parse(source.markdown).render(.plain).string
        XCTAssertEqual(PlaceholderToken.find(in: rendered).count, source.placeholders.count)
    }

    func testWritingPartOfTheTextStaysInsideTheRange() {
        let string = "First paragraph.\n\nSecond **one** here."
        let range = byteRange(of: "Second **one** here.", in: string)
        XCTAssertEqual(MarkdownWriter.markdown(of: AttributedText(string), range: range, paragraphSeparator: "\n\n").markdown,
                       "Second \\*\\*one\\*\\* here.")
    }
}
