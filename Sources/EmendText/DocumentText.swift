import Glibc

/// An engine's whole document as a session keeps it: the text in a `TextRope` (edits and
/// reads cost a chunk, not the document) with the runs, intents and protected ranges of an
/// `AttributedText`, and the marks anchors are made of.
///
/// Why not an `AttributedText`: that keeps one `String`, and every replace moves everything
/// after it; a proofread of a 10 MB document delivers thousands of replaces. The API reads
/// like `AttributedText`'s, so code working on a context reads the same; what would cost the
/// whole document (`string`, `attributed`) says so.
public final class DocumentText {
    public let rope: TextRope
    /// The styling, in `SpanList`s: a replace costs the ranges near it, not all of them.
    /// Empty ranges (they style nothing) are not kept.
    private var runs: SpanList<AttributeRun>
    private var intents: SpanList<BlockIntent>
    private var declaredProtection: SpanList<Range<Int>>

    public convenience init(_ text: AttributedText) {
        self.init(text, styleBlockSize: SpanList<AttributeRun>.defaultBlockSize)
    }

    /// `styleBlockSize`: ranges per block of the styling (tests make it small).
    init(_ text: AttributedText, styleBlockSize: Int) {
        rope = TextRope(text.string)
        runs = SpanList(text.attributeRuns, blockSize: styleBlockSize)
        intents = SpanList(text.blockIntents, blockSize: styleBlockSize)
        declaredProtection = SpanList(text.protectedRanges, blockSize: styleBlockSize)
    }

    /// Every run, sorted by start (costs their number).
    public var attributeRuns: [AttributeRun] { runs.elements }
    /// Every block intent, sorted by start (costs their number).
    public var blockIntents: [BlockIntent] { intents.elements }
    /// The protected ranges the engine declared, sorted (costs their number).
    public var protectedRanges: [Range<Int>] { declaredProtection.elements }
    /// Whether the text has no runs, intents or declared protected ranges.
    public var isPlain: Bool { runs.isEmpty && intents.isEmpty && declaredProtection.isEmpty }

    public var utf8Count: Int { rope.utf8Count }

    /// The whole text (costs its length: not for every delivery).
    public var string: String { rope.string }

    /// The whole text with its styling (costs its length).
    public var attributed: AttributedText {
        AttributedText(rope.string, attributeRuns: attributeRuns, blockIntents: blockIntents, protectedRanges: protectedRanges)
    }

    public func substring(_ range: Range<Int>) -> String { rope.substring(range) }

    /// Whether `range` holds exactly `text`, compared in place (what `substring(range) ==
    /// text` says, without copying the range out: a 16 MB change taken back was copied out
    /// three times to be compared).
    public func holds(_ text: String, at range: Range<Int>) -> Bool {
        guard range.count == text.utf8.count, range.lowerBound >= 0, range.upperBound <= utf8Count else { return false }
        guard !range.isEmpty else { return true }
        var text = text
        return text.withUTF8 { expected in
            var same = true
            rope.forEachChunk(in: range) { part, offset in
                guard same, part.count > 0, let bytes = part.baseAddress, let wanted = expected.baseAddress else { return }
                let start = offset - range.lowerBound
                same = memcmp(bytes, wanted + start, part.count) == 0
            }
            return same
        }
    }

    /// The part `range` with its runs, intents and protected ranges clipped to it (costs the
    /// part and the styling near it).
    public func slice(_ range: Range<Int>) -> AttributedText {
        AttributedText.clipped(styling(near: range), to: range, text: substring(range))
    }

    /// The runs, intents and protected ranges near `range`, unclipped, on an empty text.
    func styling(near range: Range<Int>) -> AttributedText {
        let (low, high) = (range.lowerBound, range.upperBound)
        return AttributedText("", attributeRuns: runs.elements(near: low, high), blockIntents: intents.elements(near: low, high),
                              protectedRanges: declaredProtection.elements(near: low, high))
    }

    /// Whether replacing `range` would change protected text (see `AttributedText`); costs
    /// the protected ranges near it and the length of `range`.
    public func touchesProtectedText(_ range: Range<Int>) -> Bool {
        touchesDeclaredProtection(range) || containsAttachment(range)
    }

    /// Whether replacing `range` would change a protected range the engine declared
    /// (attachments aside: costs the protected ranges near it, not the text).
    public func touchesDeclaredProtection(_ range: Range<Int>) -> Bool {
        declaredProtection.elements(near: range.lowerBound, range.upperBound).contains { protected in
            if range.isEmpty { return protected.lowerBound < range.lowerBound && range.lowerBound < protected.upperBound }
            return range.overlaps(protected)
        }
    }

    public func containsAttachment(_ range: Range<Int>) -> Bool {
        range.count >= 3 && !attachmentRanges(in: range).isEmpty
    }

    /// The attachments inside `range`, read from the rope's chunks in place (copying a 10 MB
    /// text to look for them took 10 ms of a session's start).
    func attachmentRanges(in range: Range<Int>) -> [Range<Int>] {
        var found: [Range<Int>] = []
        rope.forEachChunk(in: range) { bytes, offset in
            found += AttributedText.attachmentRanges(in: bytes, at: offset)
        }
        return found
    }

    /// The protected ranges the engine declared overlapping `range`, sorted (no attachment:
    /// costs the ranges near it, not the text).
    public func declaredProtectedRanges(overlapping range: Range<Int>) -> [Range<Int>] {
        declaredProtection.elements(near: range.lowerBound, range.upperBound).filter { $0.overlaps(range) }
    }

    /// Protected ranges and attachments overlapping `range`, sorted; reads only `range`.
    public func protectedRanges(overlapping range: Range<Int>) -> [Range<Int>] {
        (declaredProtection.elements(near: range.lowerBound, range.upperBound).filter { $0.overlaps(range) } + attachmentRanges(in: range))
            .sorted { $0.lowerBound < $1.lowerBound }
    }

    /// Protected ranges plus every attachment, sorted (costs the length of the text).
    public var allProtectedRanges: [Range<Int>] { protectedRanges(overlapping: 0..<utf8Count) }

    /// Replaces `range` with plain `replacement`; styling follows as in `AttributedText`.
    public func replace(_ range: Range<Int>, with replacement: String, prepared: PreparedReplacement? = nil) {
        rope.replace(range, with: replacement.utf8, prepared: prepared)
        let delta = replacement.utf8.count - range.count
        runs.follow(range, delta: delta)
        intents.follow(range, delta: delta)
        declaredProtection.follow(range, delta: delta)
    }

    /// Replaces `range` with `replacement` and its styling, as `AttributedText` does.
    public func replace(_ range: Range<Int>, withStyled replacement: AttributedText, prepared: PreparedReplacement? = nil) {
        replace(range, with: replacement.string, prepared: prepared)
        let start = range.lowerBound
        func placed<Element: Spanned>(_ element: Element) -> Element {
            var moved = element
            moved.range = (element.range.lowerBound + start)..<(element.range.upperBound + start)
            return moved
        }
        let inserted = start..<(start + replacement.utf8Count)
        runs.restyle(inserted, with: replacement.attributeRuns.map(placed))
        intents.restyle(inserted, with: replacement.blockIntents.map(placed))
    }
}
