import EmendText

/// Markdown parsed with cmark-gfm into a flat list of blocks, ready to be rendered as the
/// attributed text an engine of some `RichShape` can show.
public struct MarkdownDocument: Equatable, Sendable {
    public var blocks: [MarkdownBlock]

    public init(blocks: [MarkdownBlock]) { self.blocks = blocks }

    /// Parses CommonMark with the GFM table, strikethrough ("~~") and autolink extensions.
    /// Inline HTML and other nodes stay as their literal text.
    public static func parse(_ markdown: String) -> MarkdownDocument {
        MarkdownDocument(blocks: CmarkParsing.blocks(of: markdown))
    }

    /// The document as text, runs and block intents for an engine of `shape`.
    public func render(_ shape: RichShape) -> AttributedText {
        MarkdownRendering(shape: shape).render(blocks)
    }
}
