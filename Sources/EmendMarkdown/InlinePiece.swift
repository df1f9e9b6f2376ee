/// A piece of one block's inline Markdown, before plain characters are escaped (which
/// depends on their neighbours).
enum InlinePiece: Equatable {
    /// A plain text character; `inLink` when it is part of a link's text.
    case char(Unicode.Scalar, inLink: Bool)
    /// Emphasis delimiters and link syntax.
    case markup(String)
    /// Written as is: placeholder tokens, code spans, character references.
    case literal(String)
    /// A soft line break.
    case lineBreak
}

/// Where a block's inline Markdown goes, which decides what must be escaped.
struct InlineContext {
    /// Newlines may be soft breaks (paragraphs, list items, quotes); else they are written
    /// as character references (headings, table cells).
    var lineBreaks = true
    /// Text starts lines, so line-initial markers (#, >, -, 1. ...) must be escaped.
    var lineStarts = true
    /// Inside a table cell, where "|" must be escaped.
    var inCell = false
    /// A heading, whose trailing "#"s after a space would be a closing sequence.
    var inHeading = false

    static let paragraph = InlineContext()
    static let heading = InlineContext(lineBreaks: false, lineStarts: false, inHeading: true)
    static let cell = InlineContext(lineBreaks: false, lineStarts: false, inCell: true)
}

/// An inline style on a range of scalar indices of the written text.
struct StyleRun: Equatable {
    var style: InlineStyle
    var range: Range<Int>
}
