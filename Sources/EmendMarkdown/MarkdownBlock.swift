/// One block of a parsed Markdown document: its kind, inline text and inline spans.
public struct MarkdownBlock: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        case paragraph
        /// Level 1...6.
        case heading(level: Int)
        /// Nesting depth from 1; ordinal 0 for a bullet, start + index for an ordered item
        /// (never 0: a list that starts at 0 is numbered from 1).
        case listItem(depth: Int, ordinal: Int)
        /// Row 0 is the header row.
        case tableCell(row: Int, column: Int)
        /// The code's literal text, without the trailing newline.
        case codeBlock
        /// A paragraph (or other text) inside a block quote, however deeply nested.
        case blockQuote
    }

    public var kind: Kind
    public var text: String
    /// Spans over UTF-8 byte ranges of `text`.
    public var spans: [InlineSpan]
    /// Blocks of one list (nested lists included) or one table share a group; the text
    /// separates them by a newline (cells of a row by a tab) instead of a paragraph break.
    public var group: Int?

    public init(kind: Kind, text: String, spans: [InlineSpan] = [], group: Int? = nil) {
        self.kind = kind
        self.text = text
        self.spans = spans
        self.group = group
    }
}
