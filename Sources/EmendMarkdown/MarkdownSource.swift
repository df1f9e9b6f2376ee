/// Markdown written from attributed text, with the placeholders standing for its protected
/// text and attachments.
public struct MarkdownSource: Equatable, Sendable {
    public var markdown: String
    public var placeholders: [Placeholder]
    public init(markdown: String, placeholders: [Placeholder]) {
        self.markdown = markdown
        self.placeholders = placeholders
    }
}

/// A token in Markdown and the UTF-8 byte range of the text it stands for.
public struct Placeholder: Equatable, Sendable {
    /// "⟦1⟧", "⟦2⟧", ...
    public var token: String
    /// Bytes of the original text (clipped to the written range).
    public var range: Range<Int>
    public init(token: String, range: Range<Int>) {
        self.token = token
        self.range = range
    }
}
