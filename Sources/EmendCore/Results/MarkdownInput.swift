import EmendText
import EmendMarkdown

/// What a provider that writes Markdown reads: the region as Markdown, protected text and
/// attachments as placeholder tokens.
///
/// Written from a copy of the region, on a runtime thread (`runProvider`): writing a
/// 100,000-word region took 283 ms of the engine's thread at a session's start.
struct MarkdownInput {
    let markdown: String
    /// "\n\n" or "\n" (see ParagraphSeparator).
    let paragraphSeparator: String
    /// What each placeholder token stands for.
    let placeholders: [String: PlaceholderText]

    /// The Markdown of `region`, a copy of the region (its text and styling, starting at 0).
    /// The writer reads only the written part and clips styling to it, so the copy writes
    /// what the whole text with the region's range wrote (`MarkdownInputTests`).
    init(of region: AttributedText, styled: Bool) {
        let separator = ParagraphSeparator.of(region.string, styled: styled)
        let source = MarkdownWriter.markdown(of: region, range: 0..<region.utf8Count, paragraphSeparator: separator)
        var placeholders: [String: PlaceholderText] = [:]
        for placeholder in source.placeholders {
            placeholders[placeholder.token] = PlaceholderText(text: region.slice(placeholder.range),
                                                              regionOffset: placeholder.range.lowerBound)
        }
        markdown = source.markdown
        paragraphSeparator = separator
        self.placeholders = placeholders
    }

    /// The run reads the Markdown's placeholders and separator back in its result.
    func keep(in run: RunState) {
        run.paragraphSeparator = paragraphSeparator
        run.placeholders = placeholders
    }
}
