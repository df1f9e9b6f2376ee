/// Aligns one changed block (a run of sentences) by word tokens and collects the resulting edits.
struct BlockAligner {
    let original: String
    let proposed: String
    let bytesOfOriginal: [UInt8]
    let bytesOfProposed: [UInt8]
    var interner: ByteRangeInterner
    let granularity: AlignmentGranularity
    private(set) var edits: [TextEdit] = []
    /// Myers steps left (see `SequenceDiff.hunks`).
    var budget = 0

    init(original: String, proposed: String, bytesOfOriginal: [UInt8], bytesOfProposed: [UInt8],
         interner: ByteRangeInterner, granularity: AlignmentGranularity) {
        self.original = original
        self.proposed = proposed
        self.bytesOfOriginal = bytesOfOriginal
        self.bytesOfProposed = bytesOfProposed
        self.interner = interner
        self.granularity = granularity
    }

    /// Whether pieces of these lengths are too unequal to align word by word: one above
    /// 1 KB and more than eight times the other. Why: Myers costs the sum of the lengths
    /// times the edits, and the edits are at least the difference, so a long sentence in
    /// place of a short one costs the square of its length to find the few words they share
    /// (11 ms for 6.5 KB of words against a 10-byte sentence); one edit says the same.
    static func isLopsided(_ a: Int, _ b: Int) -> Bool {
        let longer = max(a, b), shorter = min(a, b)
        return longer > 1_024 && shorter * 8 < longer
    }

    /// Adds the edits that turn `original[a]` into `proposed[b]`.
    mutating func align(_ a: Range<Int>, _ b: Range<Int>) {
        if a.isEmpty || b.isEmpty {
            emit(a, b)
            return
        }
        // A long piece against one an eighth its size (a model's endless sentence in place of
        // a short one) has little to match word by word; tokenizing and diffing 1.5 MB of it
        // took tens of ms on the engine's thread while a result streamed. One edit.
        if Self.isLopsided(a.count, b.count) {
            emit(a, b)
            return
        }
        let tokensA = AlignmentTokenizer.tokens(in: bytesOfOriginal, a, of: original)
        let tokensB = AlignmentTokenizer.tokens(in: bytesOfProposed, b, of: proposed)
        let idsA = tokensA.map { interner.id($0, inProposed: false) }
        let idsB = tokensB.map { interner.id($0, inProposed: true) }
        for hunk in SequenceDiff.hunks(idsA, idsB, anchorsFirst: false, budget: &budget) {
            emit(TextAlignment.span(of: hunk.a, in: tokensA, total: a.upperBound),
                 TextAlignment.span(of: hunk.b, in: tokensB, total: b.upperBound))
        }
    }

    private mutating func emit(_ a: Range<Int>, _ b: Range<Int>) {
        var a = a
        var b = b
        if granularity == .character && !a.isEmpty && !b.isEmpty {
            (a, b) = CharacterTrim.narrow(a, of: original, b, of: proposed)
        }
        edits.append(TextEdit(range: a, replacement: String(decoding: bytesOfProposed[b], as: UTF8.self)))
    }
}
