/// Sentence widening and the paragraphs around a range for a text read through a function
/// (a context's rope): only a window around the range is read, not the whole text.
///
/// Why: a session's start on a selection of a 10 MB document made the whole document one
/// `String` and then one array of its bytes, twice (the region, then the paragraphs around
/// it), on the engine's thread. Both answers depend only on the paragraphs at the range's
/// edges: every byte the scanners read lies within a few bytes of the paragraphs they find
/// (`ParagraphScanner` scans outward from a position to the nearest paragraph edges; the
/// sentences are scanned inside those paragraphs). So the answer found in a window is the
/// whole text's when those paragraphs end away from the window's cut edges; else the window
/// grows and the search runs again (`SentenceWindowTests` compares with the whole text).
extension SentenceSegmenter {
    /// `expandToSentences(range, in:)` of a text of `length` bytes read through `read`.
    public static func expandToSentences(_ range: Range<Int>, length: Int, initialWindow: Int = 4096,
                                         read: (Range<Int>) -> [UInt8]) -> Range<Int> {
        inWindow(around: range, length: length, initialWindow: initialWindow, read: read) { range, text, bytes in
            let result = expandToSentences(range, in: text)
            let n = bytes.count
            guard n > 0 else { return (result, result) }
            let lower = min(max(range.lowerBound, 0), n), upper = min(max(range.upperBound, lower), n)
            let first = min(lower, n - 1), last = max(first, upper - 1)
            let span = ParagraphScanner.paragraph(containing: first, in: bytes).lowerBound
                ..< ParagraphScanner.paragraph(containing: last, in: bytes).upperBound
            return (result, min(span.lowerBound, result.lowerBound)..<max(span.upperBound, result.upperBound))
        }
    }

    /// `surroundingContext(range, in:)` of a text of `length` bytes read through `read`.
    public static func surroundingContext(_ range: Range<Int>, length: Int, initialWindow: Int = 4096,
                                          read: (Range<Int>) -> [UInt8]) -> Range<Int> {
        inWindow(around: range, length: length, initialWindow: initialWindow, read: read) { range, text, _ in
            let result = surroundingContext(range, in: text)
            return (result, result)
        }
    }

    /// Bytes a scanner reads past the edges of what it finds (a scalar, a CR LF).
    private static let readsPastEdges = 8

    /// Runs `body` on a window of the text around `range` (its range in the window, the
    /// window's text and bytes), which answers its result and the part of the window its
    /// scanners relied on; grows the window until that part ends away from its cut edges.
    private static func inWindow(around range: Range<Int>, length: Int, initialWindow: Int, read: (Range<Int>) -> [UInt8],
                                 _ body: (Range<Int>, String, [UInt8]) -> (result: Range<Int>, reach: Range<Int>)) -> Range<Int> {
        let lower = min(max(range.lowerBound, 0), length), upper = min(max(range.upperBound, lower), length)
        var window = max(initialWindow, 2 * readsPastEdges)
        while true {
            var low = max(0, lower - window)
            let high = min(length, upper + window)
            var bytes = read(low..<high)
            // Whole characters only: a cut one at either edge is left out (the range's own
            // edges are between characters, and the window keeps room around them).
            var drop = 0
            while low > 0, drop < bytes.count, bytes[drop] & 0xC0 == 0x80 { drop += 1 }
            if drop > 0 { bytes.removeFirst(drop); low += drop }
            if high < length {
                var end = bytes.count
                while end > 0, bytes[end - 1] & 0xC0 == 0x80 { end -= 1 }
                if end > 0, bytes[end - 1] >= 0xC0 { end -= 1 }
                bytes.removeSubrange(end...)
            }
            let cutHigh = low + bytes.count
            let text = String(decoding: bytes, as: UTF8.self)
            let (result, reach) = body((lower - low)..<(upper - low), text, bytes)
            let clearOfLow = low == 0 || reach.lowerBound >= readsPastEdges
            let clearOfHigh = cutHigh == length || reach.upperBound <= bytes.count - readsPastEdges
            if clearOfLow && clearOfHigh { return (result.lowerBound + low)..<(result.upperBound + low) }
            window *= 4
        }
    }
}
