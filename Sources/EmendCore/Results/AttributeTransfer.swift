import EmendText
import EmendMarkdown

/// Carrying the original's styling into a result: placeholders become the protected text
/// they stand for, attributes of words that survive come along, and protected text the
/// provider left out is put back where its words are (or at the end of the nearest
/// surviving sentence) — never dropped. Attribute values are the engine's: links the provider
/// wrote back get their original URLs (see OriginalLinkValues and CarriedRuns).
enum AttributeTransfer {
    static func apply(original: AttributedText, result: AttributedText, placeholders: [String: PlaceholderText],
                      styled: Bool, presentationIntents: Bool = false) -> AttributedText {
        var (text, missing) = restorePlaceholders(in: result, placeholders, original: original)
        let spans = UnchangedSpans(old: original.string, new: text.string)
        if styled {
            text = OriginalLinkValues.restore(in: text, original: original)
            text = carryRuns(from: original, into: text, spans: spans, presentationIntents: presentationIntents)
        }
        text = insertMissing(missing, into: text, spans: spans)
        return styled ? text : AttributedText(text.string)
    }

    /// Replaces each known token (its first occurrence) by its protected text and drops the
    /// rest, except tokens the original text holds literally (the writer never numbers a
    /// placeholder like them); returns the placeholders that did not appear.
    static func restorePlaceholders(in result: AttributedText, _ placeholders: [String: PlaceholderText],
                                    original: AttributedText) -> (AttributedText, [PlaceholderText]) {
        guard !placeholders.isEmpty else { return (result, []) }
        let literal = Set(PlaceholderToken.find(in: original.string).map(\.number))
        var text = result
        var seen = Set<String>()
        var replacements: [(Range<Int>, AttributedText)] = []
        for found in PlaceholderToken.find(in: result.string) where !literal.contains(found.number) {
            let token = PlaceholderToken.make(found.number)
            if let placeholder = placeholders[token], seen.insert(token).inserted {
                replacements.append((found.range, placeholder.text))
            } else {
                replacements.append((found.range, AttributedText("")))
            }
        }
        for (range, replacement) in replacements.reversed() { text.replace(range, withStyled: replacement) }
        let missing = placeholders.filter { !seen.contains($0.key) }.map(\.value).sorted { $0.regionOffset < $1.regionOffset }
        return (text, missing)
    }

    /// Runs sorted by start, with touching or overlapping runs of the same key and value joined.
    static func mergedRuns(_ runs: [AttributeRun]) -> [AttributeRun] {
        var byKey: [String: [AttributeRun]] = [:]
        for run in runs where !run.range.isEmpty { byKey["\(run.key)\u{0}\(run.value)", default: []].append(run) }
        var merged: [AttributeRun] = []
        for group in byKey.values {
            var current: AttributeRun?
            for run in group.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
                if var open = current, run.range.lowerBound <= open.range.upperBound {
                    open.range = open.range.lowerBound..<max(open.range.upperBound, run.range.upperBound)
                    current = open
                } else {
                    if let open = current { merged.append(open) }
                    current = run
                }
            }
            if let open = current { merged.append(open) }
        }
        return merged.sorted { ($0.range.lowerBound, $0.key, $0.value) < ($1.range.lowerBound, $1.key, $1.value) }
    }

    /// Puts back protected text the provider left out: after the surviving words around it,
    /// else at the end of the nearest surviving sentence before it, else of the first sentence.
    static func insertMissing(_ missing: [PlaceholderText], into text: AttributedText, spans: UnchangedSpans) -> AttributedText {
        guard !missing.isEmpty else { return text }
        let sentences = SentenceSegmenter.sentences(in: text.string)
        let bytes = Array(text.string.utf8)
        let sentenceEnd = { (offset: Int) -> Int in
            guard let sentence = sentences.first(where: { $0.lowerBound <= offset && offset <= $0.upperBound }) ?? sentences.first else {
                return text.utf8Count
            }
            var end = sentence.upperBound
            while end > sentence.lowerBound, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x0A { end -= 1 }
            return end
        }
        let placed = missing.map { placeholder -> (Int, AttributedText) in
            let original = placeholder.regionOffset..<(placeholder.regionOffset + placeholder.text.utf8Count)
            if let position = spans.position(of: original) { return (position, placeholder.text) }
            let before = spans.lastSurvivingEnd(before: placeholder.regionOffset)
            return (sentenceEnd(max((before ?? 0) - 1, 0)), placeholder.text)
        }
        var out = text
        for (position, piece) in placed.sorted(by: { $0.0 < $1.0 }).reversed() {
            out.replace(position..<position, withStyled: piece)
        }
        return out
    }
}
