/// An inline Markdown style: what `*`, `**`, `~~`, backticks and `[text](url)` say.
public enum InlineStyle: Hashable, Sendable {
    case emphasis
    case strong
    case strikethrough
    case code
    case link(url: String)
}

/// An inline style on a UTF-8 byte range of one block's text.
public struct InlineSpan: Hashable, Sendable {
    public var style: InlineStyle
    public var range: Range<Int>
    public init(style: InlineStyle, range: Range<Int>) {
        self.style = style
        self.range = range
    }
}
