/// One change of a rewrite as the person reviews it: `span` of the region's text as it stands
/// shows `replacement` where the original had `original`.
struct ReviewChange: Equatable {
    var span: Range<Int>
    var original: String
    var replacement: String
}

/// A rewrite's result split into the changes a person keeps or drops one at a time (like
/// track changes). Why not the ledger's net changes as they are: the ledger trims a change to
/// the bytes it alters ("cat" -> "cats" is an inserted "s", "do not" -> "don't" is " no" ->
/// "n'"), and a person deciding on half a word cannot read it. So each net change grows to the
/// words it touches, never splitting one; changes that then touch, or lie one space apart
/// (the ledger's phrase rule, see ChangePhrases), are one change; unchanged text between
/// changes belongs to none. Every change is a union of whole net changes and unchanged text,
/// so putting its original back undoes exactly those net changes and nothing else.
enum RewriteChanges {
    /// One of Emend's net changes in the region: `span` (region bytes) shows what was
    /// `original`.
    struct NetChange {
        let span: Range<Int>
        let original: [UInt8]
    }

    /// The review changes of `region` (the region's text as it stands) whose net changes are
    /// `changes` (sorted, disjoint, inside the region).
    static func changes(of changes: [NetChange], in region: [UInt8]) -> [ReviewChange] {
        // Each net change grown to whole words, then the grown spans merged where they overlap,
        // touch, or one space lies between them.
        var merged: [Range<Int>] = []
        for change in changes {
            var grown = grownToWords(change, in: region)
            // (Growing left over a word may reach back over earlier changes in it.)
            while let last = merged.last, last.upperBound >= grown.lowerBound
                || (grown.lowerBound - last.upperBound == 1 && region[last.upperBound] == 0x20) {
                grown = min(last.lowerBound, grown.lowerBound)..<max(last.upperBound, grown.upperBound)
                merged.removeLast()
            }
            merged.append(grown)
        }
        // The original of each span: its text with every net change inside put back.
        var next = 0
        return merged.compactMap { span in
            var original: [UInt8] = []
            var at = span.lowerBound
            while next < changes.count, changes[next].span.upperBound <= span.upperBound,
                  changes[next].span.lowerBound >= span.lowerBound {
                original += region[at..<changes[next].span.lowerBound]
                original += changes[next].original
                at = changes[next].span.upperBound
                next += 1
            }
            original += region[at..<span.upperBound]
            return withoutSharedSpaces(span, original: original, replacement: Array(region[span]))
        }
    }

    /// `change`'s span grown over the unchanged word characters beside it, when an edge would
    /// split a word of the text as it stands or of the original.
    private static func grownToWords(_ change: NetChange, in region: [UInt8]) -> Range<Int> {
        var lower = change.span.lowerBound, upper = change.span.upperBound
        let before: UInt8? = lower > 0 ? region[lower - 1] : nil
        let after: UInt8? = upper < region.count ? region[upper] : nil
        // The first and last bytes at the change's edges, as the text stands and as it was.
        let firstNow = change.span.isEmpty ? after : region[lower]
        let lastNow = change.span.isEmpty ? before : region[upper - 1]
        let firstThen = change.original.first ?? after
        let lastThen = change.original.last ?? before
        if isWordByte(before), isWordByte(firstNow) || isWordByte(firstThen) {
            while lower > 0, isWordByte(region[lower - 1]) { lower -= 1 }
        }
        if isWordByte(after), isWordByte(lastNow) || isWordByte(lastThen) {
            while upper < region.count, isWordByte(region[upper]) { upper += 1 }
        }
        return lower..<upper
    }

    /// Letters and digits (any byte of a non-ASCII character counts: never splits one), the
    /// apostrophe of "don't" and the underscore.
    static func isWordByte(_ byte: UInt8?) -> Bool {
        guard let byte else { return false }
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x27, 0x5F, 0x80...0xFF: return true
        default: return false
        }
    }

    /// The change without the spaces its two texts share at their starts and ends (as the
    /// ledger's phrases); nil when it changes nothing. A net change may lie beyond such a
    /// space ("It is really very late" -> "It's late" is "It is" -> "It's", a space, then
    /// "really very " deleted just before "late": the change reads "It is really very" ->
    /// "It's"); an engine edit in the change takes it along all the same (`holdingReach`).
    static let holdingReach = 1
    private static func withoutSharedSpaces(_ span: Range<Int>, original: [UInt8], replacement: [UInt8]) -> ReviewChange? {
        guard original != replacement else { return nil }
        var lead = 0
        while lead < original.count, lead < replacement.count, original[lead] == 0x20, replacement[lead] == 0x20 { lead += 1 }
        var trail = 0
        while trail < original.count - lead, trail < replacement.count - lead,
              original[original.count - 1 - trail] == 0x20, replacement[replacement.count - 1 - trail] == 0x20 {
            trail += 1
        }
        return ReviewChange(span: (span.lowerBound + lead)..<(span.upperBound - trail),
                            original: String(decoding: original[lead..<(original.count - trail)], as: UTF8.self),
                            replacement: String(decoding: replacement[lead..<(replacement.count - trail)], as: UTF8.self))
    }
}
