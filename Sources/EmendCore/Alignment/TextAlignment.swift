/// Computes the edits that turn one text into another, for showing and applying suggestions.
///
/// Sentences (and lines) are aligned first by their hashes; inside each changed run of sentences,
/// word tokens are aligned with a bounded Myers diff, and adjacent changed tokens form one edit.
public enum TextAlignment {
    /// Minimal edits that turn `original` into `proposed`: sorted by range, non-overlapping,
    /// ranges in UTF-8 byte offsets of `original`; TextEdit.apply(edits, to: original) == proposed, always.
    /// `stepBudget`: the Myers steps the whole alignment may take (about 3 ns each) before
    /// what is left becomes one edit; nil grows it with the texts (`stepBudget(_:_:)`). Work
    /// on the engine's thread that must stay short passes a small one.
    public static func edits(from original: String, to proposed: String,
                             granularity: AlignmentGranularity = .word, stepBudget budget: Int? = nil) -> [TextEdit] {
        // Text both share at the start and the end (cut at whitespace, so no word is split) is
        // left out of the alignment: a long result that streamed into the text differs from
        // it in its last sentence, and aligning 1.5 MB word by word for that took 60 ms on
        // the engine's thread. Found in the strings' own storage, without copying them.
        var original = original, proposed = proposed
        let shared = original.withUTF8 { a in
            proposed.withUTF8 { b -> (same: Bool, prefix: Int, suffix: Int, middles: (String, String)?) in
                if a.count == b.count && CommonBytes.prefix(a, b) == a.count { return (true, 0, 0, nil) }
                let (prefix, suffix) = sharedEnds(a, b)
                guard prefix > 0 || suffix > 0 else { return (false, 0, 0, nil) }
                return (false, prefix, suffix, (String(decoding: UnsafeBufferPointer(rebasing: a[prefix..<(a.count - suffix)]), as: UTF8.self),
                                                String(decoding: UnsafeBufferPointer(rebasing: b[prefix..<(b.count - suffix)]), as: UTF8.self)))
            }
        }
        if shared.same { return [] }
        if let (middleA, middleB) = shared.middles {
            return edits(from: middleA, to: middleB, granularity: granularity, stepBudget: budget).map {
                TextEdit(range: ($0.range.lowerBound + shared.prefix)..<($0.range.upperBound + shared.prefix), replacement: $0.replacement)
            }
        }
        let a = bytes(of: original)
        let b = bytes(of: proposed)
        if a == b { return [] }
        if a.isEmpty || b.isEmpty { return [TextEdit(range: 0..<a.count, replacement: proposed)] }
        // Texts too unequal to align (see BlockAligner.isLopsided) are one edit before either
        // is cut into sentences: segmenting a 1.5 MB sentence only to find it so took 4 ms.
        if BlockAligner.isLopsided(a.count, b.count) { return [TextEdit(range: 0..<a.count, replacement: proposed)] }
        let unitsA = SentenceScanner.sentences(in: a, range: 0..<a.count)
        let unitsB = SentenceScanner.sentences(in: b, range: 0..<b.count)
        var interner = ByteRangeInterner(original: a, proposed: b, capacity: unitsA.count + unitsB.count)
        let idsA = unitsA.map { interner.id($0, inProposed: false) }
        let idsB = unitsB.map { interner.id($0, inProposed: true) }
        var aligner = BlockAligner(original: original, proposed: proposed, bytesOfOriginal: a,
                                   bytesOfProposed: b, interner: interner, granularity: granularity)
        aligner.budget = budget ?? stepBudget(a.count, b.count)
        for hunk in SequenceDiff.hunks(idsA, idsB, anchorsFirst: true, budget: &aligner.budget) {
            aligner.align(span(of: hunk.a, in: unitsA, total: a.count),
                          span(of: hunk.b, in: unitsB, total: b.count))
        }
        return aligner.edits
    }

    /// The bytes `a` and `b` share at their start and at their end (not overlapping), each
    /// cut right after whitespace in both texts (a shared part that ends inside a word leaves
    /// that word to the alignment), and at least 4 KB long (shorter ones are not worth it).
    static func sharedEnds(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> (prefix: Int, suffix: Int) {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D }
        // A cut at `k` of `x` is after whitespace and before ASCII (a combining mark after a
        // space, or the LF of a CRLF, would be split from its character), or at an end.
        func isCut(_ x: UnsafeBufferPointer<UInt8>, _ k: Int) -> Bool {
            if k <= 0 || k >= x.count { return true }
            return isSpace(x[k - 1]) && x[k] < 0x80 && !(x[k - 1] == 0x0D && x[k] == 0x0A)
        }
        var prefix = CommonBytes.prefix(a, b)
        while prefix > 0 && !(isCut(a, prefix) && isCut(b, prefix)) { prefix -= 1 }
        var suffix = CommonBytes.suffix(a, b, limit: min(a.count, b.count) - prefix)
        while suffix > 0 && !(isCut(a, a.count - suffix) && isCut(b, b.count - suffix)) { suffix -= 1 }
        return (prefix >= 4096 ? prefix : 0, suffix >= 4096 ? suffix : 0)
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
