import EmendText
import EmendMarkdown

/// Carrying the original's styling into a result: placeholders become the protected text
/// they stand for, attributes of words that survive come along, and protected text the
/// provider left out is put back between the words it stood between when both survive, else
/// after the result as a paragraph of its own — never dropped, never pasted into the middle
/// of a sentence that only happens to share a few letters with the original. Attribute values are the engine's: links the provider
/// wrote back get their original URLs (see OriginalLinkValues and CarriedRuns).
enum AttributeTransfer {
    static func apply(original: AttributedText, result: AttributedText, placeholders: [String: PlaceholderText],
                      styled: Bool, presentationIntents: Bool = false, paragraphSeparator: String = "\n\n") -> AttributedText {
        var (text, missing) = restorePlaceholders(in: result, placeholders, original: original)
        let spans = UnchangedSpans(old: original.string, new: text.string)
        if styled {
            text = OriginalLinkValues.restore(in: text, original: original)
            text = carryRuns(from: original, into: text, spans: spans, presentationIntents: presentationIntents)
        }
        text = insertMissing(missing, into: text, spans: spans, original: original.string, paragraphSeparator: paragraphSeparator)
        return styled ? text : AttributedText(text.string)
    }

    /// Replaces each known token (its first occurrence) by its protected text and drops the
    /// rest, except tokens the original text holds literally (the writer never numbers a
    /// placeholder like them); returns the placeholders that did not appear.
    static func restorePlaceholders(in result: AttributedText, _ placeholders: [String: PlaceholderText],
                                    original: AttributedText) -> (AttributedText, [PlaceholderText]) {
        guard !placeholders.isEmpty else { return (result, []) }
        let literal = Set(PlaceholderToken.find(in: original.string).map(\.number))
        let originalBytes = Array(original.string.utf8), resultBytes = Array(result.string.utf8)
        var text = result
        var seen = Set<String>()
        var replacements: [(Range<Int>, AttributedText)] = []
        for found in PlaceholderToken.find(in: result.string) where !literal.contains(found.number) {
            let token = PlaceholderToken.make(found.number)
            if let placeholder = placeholders[token],
               // A block (a code block) the provider wrote into a sentence goes after the
               // result as a paragraph of its own, as one it left out does.
               !(isBlock(placeholder.range, in: originalBytes) && placeholder.text.string.contains("\n")
                 && !isAlone(found.range, in: resultBytes)),
               seen.insert(token).inserted {
                replacements.append((found.range, placeholder.text))
            } else {
                // The token goes, with one of the spaces around it.
                var range = found.range
                if range.lowerBound > 0, resultBytes[range.lowerBound - 1] == 0x20,
                   range.upperBound == resultBytes.count || [0x20, 0x2E, 0x2C, 0x3B, 0x3A, 0x21, 0x3F, 0x0A].contains(resultBytes[range.upperBound]) {
                    range = (range.lowerBound - 1)..<range.upperBound
                }
                replacements.append((range, AttributedText("")))
            }
        }
        for (range, replacement) in replacements.reversed() { text.replace(range, withStyled: replacement) }
        // A link or code the provider wrote out itself (it read it in the text around the
        // selection, or in a link's words) is there: no second copy.
        let missing = placeholders.filter { !seen.contains($0.key) }.map(\.value)
            .filter { $0.text.utf8Count < 4 || !text.string.contains($0.text.string) }
            .sorted { $0.regionOffset < $1.regionOffset }
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

    /// Puts back protected text the provider left out: between the words around it when the
    /// original's words on both sides survive next to each other (spaced as words are), else
    /// after the result, in the original's order: inline pieces (a link, a code span) as one
    /// paragraph, each block (a code block, a quotation) as a paragraph of its own.
    static func insertMissing(_ missing: [PlaceholderText], into text: AttributedText, spans: UnchangedSpans,
                              original: String, paragraphSeparator: String = "\n\n") -> AttributedText {
        guard !missing.isEmpty else { return text }
        let originalBytes = Array(original.utf8)
        var placed: [(Int, PlaceholderText)] = []
        var atEnd: [PlaceholderText] = []
        for placeholder in missing {
            let range = placeholder.range
            if !isBlock(range, in: originalBytes), let position = spans.anchoredPosition(of: range, context: 8, old: originalBytes) {
                placed.append((position, placeholder))
            } else {
                atEnd.append(placeholder)
            }
        }
        var out = text
        for (position, placeholder) in placed.sorted(by: { $0.0 < $1.0 }).reversed() {
            let bytes = Array(out.string.utf8)
            var piece = placeholder.text
            let before = position > 0 ? bytes[position - 1] : nil
            let after = position < bytes.count ? bytes[position] : nil
            if let before, !isSpace(before), let first = piece.string.utf8.first, !isSpace(first) {
                piece = AttributedText(" ").appending(piece)
            }
            if let after, !isSpace(after), !isClosingPunctuation(after), let last = piece.string.utf8.last, !isSpace(last) {
                piece = piece.appending(AttributedText(" "))
            }
            out.replace(position..<position, withStyled: piece)
        }
        guard !atEnd.isEmpty else { return out }
        // The result's own trailing spaces go after what is added.
        var trailing = 0
        let bytes = Array(out.string.utf8)
        while trailing < bytes.count, isSpace(bytes[bytes.count - 1 - trailing]) { trailing += 1 }
        var tail = AttributedText(bytes.count - trailing > 0 ? paragraphSeparator : "")
        var inline: [PlaceholderText] = []
        func flushInline() {
            guard !inline.isEmpty else { return }
            if tail.utf8Count > 0 && !tail.string.hasSuffix(paragraphSeparator) { tail = tail.appending(AttributedText(paragraphSeparator)) }
            for (index, piece) in inline.enumerated() {
                if index > 0 { tail = tail.appending(AttributedText(" ")) }
                tail = tail.appending(piece.text)
            }
            inline = []
        }
        for placeholder in atEnd {
            let range = placeholder.range
            if isBlock(range, in: originalBytes) {
                flushInline()
                if tail.utf8Count > 0 && !tail.string.hasSuffix(paragraphSeparator) { tail = tail.appending(AttributedText(paragraphSeparator)) }
                tail = tail.appending(placeholder.text)
            } else {
                inline.append(placeholder)
            }
        }
        flushInline()
        let end = bytes.count - trailing
        out.replace(end..<end, withStyled: tail)
        return out
    }

    /// Whether `range` of the result stands alone on its lines (spaces aside).
    private static func isAlone(_ range: Range<Int>, in bytes: [UInt8]) -> Bool {
        var before = range.lowerBound
        while before > 0, bytes[before - 1] == 0x20 || bytes[before - 1] == 0x09 { before -= 1 }
        var after = range.upperBound
        while after < bytes.count, bytes[after] == 0x20 || bytes[after] == 0x09 || bytes[after] == 0x0D { after += 1 }
        return (before == 0 || bytes[before - 1] == 0x0A) && (after == bytes.count || bytes[after] == 0x0A)
    }

    /// Whether `range` of the original is a block of its own: it takes whole lines.
    private static func isBlock(_ range: Range<Int>, in bytes: [UInt8]) -> Bool {
        let startsLine = range.lowerBound == 0 || bytes[range.lowerBound - 1] == 0x0A
        let endsLine = range.upperBound >= bytes.count || bytes[range.upperBound] == 0x0A || bytes[range.upperBound] == 0x0D
        let spansLines = bytes[range].contains(0x0A)
        return (startsLine && endsLine && (spansLines || range.lowerBound > 0 || range.upperBound < bytes.count))
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D }

    private static func isClosingPunctuation(_ byte: UInt8) -> Bool { ".,;:!?)]}".utf8.contains(byte) }
}
