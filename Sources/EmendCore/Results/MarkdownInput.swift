import EmendText
import EmendMarkdown

/// What a provider that writes Markdown reads: the region as Markdown, protected text and
/// attachments as placeholder tokens.
extension Coordinator {
    /// The Markdown of `region`; remembers what each placeholder stands for.
    func markdownInput(_ session: Session, context: SessionContext, region: Range<Int>) -> String {
        let separator = ParagraphSeparator.of(context.text.substring(region), styled: resolvedResultOptions.carriesStyling)
        let source = MarkdownWriter.markdown(of: context.text.attributed, range: region, paragraphSeparator: separator)
        session.run.paragraphSeparator = separator
        session.run.placeholders = [:]
        for placeholder in source.placeholders {
            session.run.placeholders[placeholder.token] = PlaceholderText(text: context.text.slice(placeholder.range),
                                                                      regionOffset: placeholder.range.lowerBound - region.lowerBound)
        }
        return source.markdown
    }
}
