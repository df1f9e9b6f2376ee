import EmendText

/// A rewrite's changes as the phrases a writer sees. A result arrives as word edits ("We are"
/// -> "We're" is "We" -> "We're" and "are " deleted); edits touching or one space apart are
/// one phrase, and spaces a phrase shares with the text at its ends are not part of it. Why:
/// the phrase is the change emend.h's CHANGES rule counts whole — an engine edit in it makes
/// all of it the engine's, one at its edge ("It's|XYZ") is beside it — and the same phrase
/// must mean the same bytes to the saved versions and to the ledger.
enum ChangePhrases {
    /// The most bytes a phrase joins (of its original and of its new text): a change that
    /// would make it longer starts a phrase of its own. Why: undoing a phrase is one replace
    /// (revert, show original), and that replace moves the anchors of every suggestion in it
    /// within one dispatch; a proofread of every word of "a a a …" joined a million changes
    /// into one phrase, whose revert held the engine's thread for over a second. At 1 KiB a
    /// phrase holds at most about five hundred changes (each is a byte and a space at least),
    /// whose anchors its restoring replace moves in about a quarter of a millisecond (at 2 KiB
    /// that replace was 0.5–1.2 ms, and a dispatch that began one at the end of its 3 ms budget
    /// reached 4.1–4.4 ms); a phrase a writer reads as one ("We are" -> "We're") is far shorter.
    static let longestJoined = 1024

    /// Whether `first`, a gap of `between` bytes and `second` (in that order, in base bytes)
    /// stay within `longestJoined` as one phrase.
    static func fitOnePhrase(_ first: LedgerHunk, _ between: Int, _ second: LedgerHunk) -> Bool {
        fitOnePhrase(first.base.lowerBound..<second.base.upperBound,
                     textBytes: first.text.utf8Count + between + second.text.utf8Count)
    }

    /// Whether a phrase over base bytes `base` whose text is `textBytes` long stays within
    /// `longestJoined` (the ledger asks with the bases it keeps shifted per block).
    static func fitOnePhrase(_ base: Range<Int>, textBytes: Int) -> Bool {
        base.count <= longestJoined && textBytes <= longestJoined
    }

    /// `hunks` (sorted, disjoint, in base bytes) joined into phrases; `base` is the base text
    /// from base byte `offset` on, which holds the gaps between them.
    static func phrases(_ hunks: [LedgerHunk], in base: AttributedText, offset: Int) -> [LedgerHunk] {
        var result: [LedgerHunk] = []
        for hunk in hunks {
            if !result.isEmpty, let between = gap(result[result.count - 1], hunk, in: base, offset: offset) {
                // Grown in place: a phrase of every word of a long text is appended to, not
                // copied for each word it takes in (that was quadratic).
                join(&result[result.count - 1], between, hunk)
            } else {
                result.append(hunk)
            }
        }
        return result.map(withoutSharedSpaces)
    }

    /// The text between `first` and `second` when they are one phrase (they touch or one
    /// space lies between them, all plain text, and the phrase stays within
    /// `longestJoined`): "" or " "; nil when they are not.
    private static func gap(_ first: LedgerHunk, _ second: LedgerHunk, in base: AttributedText, offset: Int) -> String? {
        let gap = (first.base.upperBound - offset)..<(second.base.lowerBound - offset)
        guard gap.count <= 1, gap.lowerBound >= 0, gap.upperBound <= base.utf8Count, fitOnePhrase(first, gap.count, second),
              [first.baseText, first.text, second.baseText, second.text].allSatisfy(\.isPlain) else { return nil }
        let between = base.substring(gap)
        return between.isEmpty || between == " " ? between : nil
    }

    /// Makes `first` the phrase of `first`, `between` and `second` (plain texts), appending
    /// to its texts where they are: costs `second`, not the phrase.
    static func join(_ first: inout LedgerHunk, _ between: String, _ second: LedgerHunk) {
        first.base = first.base.lowerBound..<second.base.upperBound
        let baseEnd = first.baseText.utf8Count, textEnd = first.text.utf8Count
        first.baseText.replace(baseEnd..<baseEnd, with: between + second.baseText.string)
        first.text.replace(textEnd..<textEnd, with: between + second.text.string)
    }

    /// The hunk without the spaces its two texts share at their starts and at their ends
    /// (plain text only).
    static func withoutSharedSpaces(_ hunk: LedgerHunk) -> LedgerHunk {
        guard hunk.baseText.isPlain, hunk.text.isPlain else { return hunk }
        // Counted at the ends only: a phrase may be a megabyte long, and is seldom trimmed.
        let old = hunk.baseText.string.utf8, new = hunk.text.string.utf8
        let lead = zip(old, new).prefix { $0 == 0x20 && $1 == 0x20 }.count
        let trail = zip(old.reversed(), new.reversed()).prefix { $0 == 0x20 && $1 == 0x20 }.count
        let shared = min(trail, old.count - lead, new.count - lead)
        guard lead > 0 || shared > 0 else { return hunk }
        let oldBytes = Array(old), newBytes = Array(new)
        return LedgerHunk(base: (hunk.base.lowerBound + lead)..<(hunk.base.upperBound - shared),
                          baseText: AttributedText(String(decoding: oldBytes[lead..<(oldBytes.count - shared)], as: UTF8.self)),
                          text: AttributedText(String(decoding: newBytes[lead..<(newBytes.count - shared)], as: UTF8.self)))
    }
}
