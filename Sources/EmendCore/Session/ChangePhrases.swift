import EmendText

/// A rewrite's changes as the phrases a writer sees. A result arrives as word edits ("We are"
/// -> "We're" is "We" -> "We're" and "are " deleted); edits touching or one space apart are
/// one phrase, and spaces a phrase shares with the text at its ends are not part of it. Why:
/// the phrase is the change emend.h's CHANGES rule counts whole — an engine edit in it makes
/// all of it the engine's, one at its edge ("It's|XYZ") is beside it — and the same phrase
/// must mean the same bytes to the saved versions and to the ledger.
enum ChangePhrases {
    /// `hunks` (sorted, disjoint, in base bytes) joined into phrases; `base` is the base text
    /// from base byte `offset` on, which holds the gaps between them.
    static func phrases(_ hunks: [LedgerHunk], in base: AttributedText, offset: Int) -> [LedgerHunk] {
        var result: [LedgerHunk] = []
        for hunk in hunks {
            if let last = result.last, let joined = joined(last, hunk, in: base, offset: offset) {
                result[result.count - 1] = joined
            } else {
                result.append(hunk)
            }
        }
        return result.map(withoutSharedSpaces)
    }

    /// `first` and `second` as one change when they touch or one space lies between them.
    private static func joined(_ first: LedgerHunk, _ second: LedgerHunk, in base: AttributedText, offset: Int) -> LedgerHunk? {
        let gap = (first.base.upperBound - offset)..<(second.base.lowerBound - offset)
        guard gap.count <= 1, gap.lowerBound >= 0, gap.upperBound <= base.utf8Count,
              [first.baseText, first.text, second.baseText, second.text].allSatisfy(\.isPlain) else { return nil }
        let between = base.substring(gap)
        guard between.isEmpty || between == " " else { return nil }
        return LedgerHunk(base: first.base.lowerBound..<second.base.upperBound,
                          baseText: AttributedText(first.baseText.string + between + second.baseText.string),
                          text: AttributedText(first.text.string + between + second.text.string))
    }

    /// The hunk without the spaces its two texts share at their starts and at their ends
    /// (plain text only).
    static func withoutSharedSpaces(_ hunk: LedgerHunk) -> LedgerHunk {
        guard hunk.baseText.isPlain, hunk.text.isPlain else { return hunk }
        let old = Array(hunk.baseText.string.utf8), new = Array(hunk.text.string.utf8)
        var lead = 0
        while lead < old.count, lead < new.count, old[lead] == 0x20, new[lead] == 0x20 { lead += 1 }
        var trail = 0
        while trail < old.count - lead, trail < new.count - lead, old[old.count - 1 - trail] == 0x20, new[new.count - 1 - trail] == 0x20 {
            trail += 1
        }
        guard lead > 0 || trail > 0 else { return hunk }
        return LedgerHunk(base: (hunk.base.lowerBound + lead)..<(hunk.base.upperBound - trail),
                          baseText: AttributedText(String(decoding: old[lead..<(old.count - trail)], as: UTF8.self)),
                          text: AttributedText(String(decoding: new[lead..<(new.count - trail)], as: UTF8.self)))
    }
}
