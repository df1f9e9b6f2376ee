/// Computes the edits that turn one text into another, for showing and applying suggestions.
///
/// Sentences (and lines) are aligned first by their hashes; inside each changed run of sentences,
/// word tokens are aligned with a bounded Myers diff, and adjacent changed tokens form one edit.
public enum TextAlignment {
    /// Minimal edits that turn `original` into `proposed`: sorted by range, non-overlapping,
    /// ranges in UTF-8 byte offsets of `original`; TextEdit.apply(edits, to: original) == proposed, always.
    public static func edits(from original: String, to proposed: String,
                             granularity: AlignmentGranularity = .word) -> [TextEdit] {
        let a = bytes(of: original)
        let b = bytes(of: proposed)
        if a == b { return [] }
        if a.isEmpty || b.isEmpty { return [TextEdit(range: 0..<a.count, replacement: proposed)] }
        let unitsA = SentenceScanner.sentences(in: a, range: 0..<a.count)
        let unitsB = SentenceScanner.sentences(in: b, range: 0..<b.count)
        var interner = ByteRangeInterner(original: a, proposed: b, capacity: unitsA.count + unitsB.count)
        let idsA = unitsA.map { interner.id($0, inProposed: false) }
        let idsB = unitsB.map { interner.id($0, inProposed: true) }
        var aligner = BlockAligner(original: original, proposed: proposed, bytesOfOriginal: a,
                                   bytesOfProposed: b, interner: interner, granularity: granularity)
        aligner.budget = stepBudget(a.count, b.count)
        for hunk in SequenceDiff.hunks(idsA, idsB, anchorsFirst: true, budget: &aligner.budget) {
            aligner.align(span(of: hunk.a, in: unitsA, total: a.count),
                          span(of: hunk.b, in: unitsB, total: b.count))
        }
        return aligner.edits
    }

    /// Myers steps allowed for one alignment: beyond that, large changed blocks become single edits.
    static func stepBudget(_ a: Int, _ b: Int) -> Int {
        10_000_000 + 25 * (a + b)
    }

    /// The UTF-8 bytes of `text`, copied in one go when the storage is contiguous.
    static func bytes(of text: String) -> [UInt8] {
        text.utf8.withContiguousStorageIfAvailable { Array($0) } ?? Array(text.utf8)
    }

    /// The bytes covered by the units `range` (an insertion point when it is empty).
    static func span(of range: Range<Int>, in units: [Range<Int>], total: Int) -> Range<Int> {
        if range.isEmpty {
            let at = range.lowerBound < units.count ? units[range.lowerBound].lowerBound : total
            return at..<at
        }
        return units[range.lowerBound].lowerBound..<units[range.upperBound - 1].upperBound
    }
}
