/// Sentence and paragraph boundaries of plain text, as UTF-8 byte ranges.
///
/// A sentence ends after . ! ? … (and CJK 。！？, which need no following space) when
/// whitespace or the end of the text follows; closing quotes and brackets after the mark stay
/// with it. A line break always ends a sentence. Abbreviations (e.g. "Dr.", "e.g."), initials
/// ("J. R. R."), decimals, URLs and an ellipsis followed by a lowercase word do not.
public enum SentenceSegmenter {
    /// Sentences covering all of `text` in order, as UTF-8 byte ranges; each sentence includes its trailing whitespace.
    public static func sentences(in text: String) -> [Range<Int>] {
        let bytes = Array(text.utf8)
        return SentenceScanner.sentences(in: bytes, range: 0..<bytes.count)
    }

    /// How many bytes the first `count` sentences of a text of `length` bytes cover (all of
    /// it when it holds fewer), reading its bytes through `read`. Reads a window that doubles
    /// until it holds those sentences and the start of the next, so the cost follows the
    /// sentences asked for, not the length of the text.
    public static func firstSentences(_ count: Int, length: Int, read: (Range<Int>) -> [UInt8]) -> Int {
        guard count > 0 else { return 0 }
        var window = 4096
        while true {
            var bytes = read(0..<min(window, length))
            let whole = bytes.count == length
            // Never cut a character: back to the start of the scalar the window ends in.
            if !whole {
                var end = bytes.count
                while end > 0, bytes[end - 1] & 0xC0 == 0x80 { end -= 1 }
                if end > 0, bytes[end - 1] >= 0xC0 { end -= 1 }
                bytes.removeSubrange(end...)
            }
            let sentences = SentenceScanner.sentences(in: bytes, range: 0..<bytes.count)
            if whole { return sentences.prefix(count).last?.upperBound ?? 0 }
            // A sentence after the last one asked for: every rule those looked at lies inside.
            if sentences.count > count { return sentences[count - 1].upperBound }
            window *= 2
        }
    }

    /// How many bytes the first `count` sentences of `text` cover.
    public static func firstSentences(_ count: Int, in text: String) -> Int {
        let bytes = Array(text.utf8)
        return firstSentences(count, length: bytes.count) { Array(bytes[$0]) }
    }

    /// Paragraphs (each line break ends one) covering the text, as byte ranges, each including its trailing newlines
    /// and the blank lines after it.
    public static func paragraphs(in text: String) -> [Range<Int>] {
        ParagraphScanner.paragraphs(in: Array(text.utf8))
    }

    /// `range` widened to whole sentences (an empty range/caret widens to the sentence around it).
    /// A caret at the very end of a text that ends with a line break stays empty.
    public static func expandToSentences(_ range: Range<Int>, in text: String) -> Range<Int> {
        let bytes = Array(text.utf8)
        let n = bytes.count
        let lower = min(max(range.lowerBound, 0), n)
        let upper = min(max(range.upperBound, lower), n)
        guard n > 0 else { return 0..<0 }
        if lower == n && upper == n {
            if ParagraphScanner.followsLineBreak(n, in: bytes) { return n..<n }
        }
        let first = min(lower, n - 1)
        let last = max(first, upper - 1)
        let span = ParagraphScanner.paragraph(containing: first, in: bytes).lowerBound
            ..< ParagraphScanner.paragraph(containing: last, in: bytes).upperBound
        let sentences = SentenceScanner.sentences(in: bytes, range: span)
        let start = sentences.first { $0.contains(first) }?.lowerBound ?? span.lowerBound
        let end = sentences.last { $0.contains(last) }?.upperBound ?? span.upperBound
        return start..<end
    }

    /// The paragraphs around `range` (the one before, those covering it, the one after), for model context.
    public static func surroundingContext(_ range: Range<Int>, in text: String) -> Range<Int> {
        let bytes = Array(text.utf8)
        let n = bytes.count
        guard n > 0 else { return 0..<0 }
        let first = min(max(range.lowerBound, 0), n - 1)
        let last = max(first, min(range.upperBound, n) - 1)
        var start = ParagraphScanner.paragraph(containing: first, in: bytes).lowerBound
        var end = ParagraphScanner.paragraph(containing: last, in: bytes).upperBound
        if start > 0 { start = ParagraphScanner.paragraph(containing: start - 1, in: bytes).lowerBound }
        if end < n { end = ParagraphScanner.paragraph(containing: end, in: bytes).upperBound }
        return start..<end
    }
}
