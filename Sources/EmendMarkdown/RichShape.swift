/// What an engine can show of a rich result, from its resolved result options.
public struct RichShape: Sendable, Equatable {
    /// Display attributes (bold, italic, link, monospace, strikethrough) on the text.
    public var richText: Bool
    /// List items as block intents; the text then carries no "- " or "1. " markers.
    public var lists: Bool
    /// Table cells as block intents (cells still split by a tab, rows by a newline).
    public var tables: Bool
    /// Headings, code blocks and block quotes as block intents, and inline intents (strong,
    /// emphasis, code) instead of the display attributes that say the same.
    public var presentationIntents: Bool
    /// What separates paragraphs: "\n\n" (plain text files) or "\n" (rich text views).
    public var paragraphSeparator: String

    public init(richText: Bool = false, lists: Bool = false, tables: Bool = false, presentationIntents: Bool = false,
                paragraphSeparator: String = "\n\n") {
        self.richText = richText
        self.lists = lists
        self.tables = tables
        self.presentationIntents = presentationIntents
        self.paragraphSeparator = paragraphSeparator
    }

    /// Plain text only: no attributes, no intents, lists and tables written as lines.
    public static let plain = RichShape()
}
