import EmendText
import EmendMarkdown

/// The original's runs on the words of a result that survived: every key the engine set, with
/// its value byte for byte. Where such a run meets one the provider's Markdown gave with the
/// same key and another value (bold "700" against Markdown's "1", a link the provider
/// re-pointed), the engine's value wins on those bytes: values are carried, never rewritten.
extension AttributeTransfer {
    /// Adds the original's runs on the bytes that survived unchanged, merged with the
    /// result's own runs. Inline styles take the key of the engine's result options (strong
    /// rather than bold with presentation intents, bold rather than strong without).
    static func carryRuns(from original: AttributedText, into text: AttributedText, spans: UnchangedSpans,
                          presentationIntents: Bool) -> AttributedText {
        var carried: [AttributeRun] = []
        for run in original.attributeRuns {
            let key = AttributeKey.form(of: run.key, presentationIntents: presentationIntents)
            for range in spans.mapped(run.range) { carried.append(AttributeRun(range: range, key: key, value: run.value)) }
        }
        let own = text.attributeRuns.flatMap { yielding($0, to: carried) }
        return AttributedText(text.string, attributeRuns: mergedRuns(own + carried), blockIntents: text.blockIntents)
    }

    /// The parts of `run` that no carried run of the same key with another value covers.
    private static func yielding(_ run: AttributeRun, to carried: [AttributeRun]) -> [AttributeRun] {
        var pieces = [run.range]
        for other in carried where other.key == run.key && other.value != run.value && other.range.overlaps(run.range) {
            pieces = pieces.flatMap { piece in
                [piece.lowerBound..<max(piece.lowerBound, min(piece.upperBound, other.range.lowerBound)),
                 min(piece.upperBound, max(piece.lowerBound, other.range.upperBound))..<piece.upperBound].filter { !$0.isEmpty }
            }
        }
        return pieces.map { AttributeRun(range: $0, key: run.key, value: run.value) }
    }
}
