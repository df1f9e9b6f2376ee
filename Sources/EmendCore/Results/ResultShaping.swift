import EmendMarkdown

extension ResultOptions {
    /// Whether the engine takes styled results (attributes or block intents) at all.
    public var carriesStyling: Bool { !intersection([.richText, .list, .table, .presentationIntent]).isEmpty }

    /// What of a rich result the engine can show.
    func richShape(paragraphSeparator: String) -> RichShape {
        RichShape(richText: contains(.richText), lists: contains(.list), tables: contains(.table),
                  presentationIntents: contains(.presentationIntent), paragraphSeparator: paragraphSeparator)
    }
}

/// How a text separates its paragraphs, so that results keep the same habit.
enum ParagraphSeparator {
    /// "\n\n" when the text has a blank line (plain text files), "\n" when it has single
    /// newlines only (rich text views); for one paragraph, what the engine's kind suggests.
    static func of(_ text: String, styled: Bool) -> String {
        var previousNewline = false
        var sawNewline = false
        for byte in text.utf8 {
            if byte == 0x0A {
                if previousNewline { return "\n\n" }
                previousNewline = true
                sawNewline = true
            } else if byte != 0x0D {
                previousNewline = false
            }
        }
        if sawNewline { return "\n" }
        return styled ? "\n" : "\n\n"
    }
}
