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

    /// The provider's output as the styled text the engine gets: Markdown read back, reduced
    /// to the result options, placeholders restored and the original's attributes carried
    /// onto the words that survive (inline styles in the options' form, values the engine's).
    func richResult(_ session: Session, original: AttributedText) -> AttributedText {
        let options = resolvedResultOptions
        let shape = options.richShape(paragraphSeparator: session.run.paragraphSeparator)
        let result = session.run.writesMarkdown ? MarkdownDocument.parse(session.run.resultText).render(shape) : AttributedText(session.run.resultText)
        return AttributeTransfer.apply(original: original, result: result,
                                       placeholders: session.run.writesMarkdown ? session.run.placeholders : [:],
                                       styled: options.carriesStyling, presentationIntents: shape.presentationIntents)
    }
}
