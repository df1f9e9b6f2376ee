import EmendText

/// Writes attributed text as Markdown for a model to read: block intents as headings, lists,
/// tables, fenced code and quotes; bold, italic, strikethrough, code and link runs as inline
/// Markdown; protected text and attachments as placeholder tokens (numbered apart from any
/// token the text already holds). Plain characters are escaped only where Markdown would
/// read them as syntax, so that parsing the Markdown and rendering it gives back the same text.
public enum MarkdownWriter {
    /// The Markdown of bytes `range` of `text` (whole characters). `paragraphSeparator` is how
    /// the text separates paragraphs: with "\n\n" a single newline is a soft break, with "\n"
    /// every newline ends a block.
    public static func markdown(of text: AttributedText, range: Range<Int>, paragraphSeparator: String) -> MarkdownSource {
        let length = text.utf8Count
        let range = min(max(range.lowerBound, 0), length)..<min(max(range.upperBound, 0), length)
        let source = SourceText(text, range: range)
        let literalTokens = PlaceholderToken.find(in: text.substring(range)).map(\.number)
        let numbering = PlaceholderNumbering(text.allProtectedRanges.map(source.indices(ofBytes:)), reserved: Set(literalTokens))
        let separator = paragraphSeparator.isEmpty ? "\n\n" : paragraphSeparator
        let blocks = BlockSegmentation(source: source, separator: Array(separator.unicodeScalars), protected: numbering.ranges)
            .blocks(intents: text.blockIntents)
        let runs = text.attributeRuns.compactMap { run -> StyleRun? in
            guard let style = InlineStyle(attributeKey: run.key, value: run.value),
                  run.range.upperBound > range.lowerBound, run.range.lowerBound < range.upperBound else { return nil }
            let indices = source.indices(ofBytes: run.range)
            return indices.isEmpty ? nil : StyleRun(style: style, range: indices)
        }
        var composer = MarkdownComposer(source: source, runs: mergedByStyle(runs), numbering: numbering)
        let markdown = composer.compose(blocks)
        return MarkdownSource(markdown: markdown, placeholders: composer.numbering.placeholders)
    }

    /// Runs of one style that touch or overlap, joined (bold and strong are one style).
    private static func mergedByStyle(_ runs: [StyleRun]) -> [StyleRun] {
        var merged: [StyleRun] = []
        for run in runs.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
            if let index = merged.lastIndex(where: { $0.style == run.style }), merged[index].range.upperBound >= run.range.lowerBound {
                merged[index].range = merged[index].range.lowerBound..<max(merged[index].range.upperBound, run.range.upperBound)
            } else {
                merged.append(run)
            }
        }
        return merged
    }
}
