import EmendCore
import EmendText

/// Combines the suggestions of several checkers for one request into one set that is better
/// than their union. Pure: the same inputs give the same edits, so it is unit-tested apart
/// from the checkers and the coordinator.
///
/// 1. Edits that cannot both apply (overlapping spans) form a cluster; one edit at most is
///    kept per cluster — the same advice from two rule families or two checkers is one flag.
/// 2. Within a cluster, a replacement several checkers propose wins; then, for spelling, the
///    suggestion that is a plausible slip of the typed word (one or two edits, not a word cut
///    in two unless the typed word has no better reading) and the more reliable speller
///    (`EvidenceModel.spellingAuthority`); then the user's order of providers.
/// 3. A cluster is kept only when the evidence says so: a spelling flag on a word no English
///    dictionary of the machine has, with a slip's fix (one keystroke, two in a long word), is
///    kept whoever stays silent (`isUnknownWordWithASlipsFix`); any other spelling flag needs a majority of
///    the spellers that checked the text when three or more did; with two, a flag only one of
///    them raises needs a suggestion one keystroke away (a slip, not a name the other knows);
///    when two or more spellers flag a word, two of them must agree on its correction or one
///    must see a slip (one keystroke, or two in a long word: `spellersSeeOnlyAName`); and a rule known to be
///    noisy (`EvidenceModel.needsCorroboration`), or any other flag but spelling whose rule's
///    estimated precision on the development set is below `EvidenceModel.minimumLonePrecision`
///    (`RulePrecision`), needs a second checker on the same span. Two
///    checkers proposing the same replacement for the same span keep it, whatever the category
///    of each flag (a spelling flag and a grammar flag can be the same fix: "teached" → "taught").
public struct ProofreadingCombiner: Sendable {
    public var evidence: EvidenceModel
    /// The machine's English dictionaries: a spelling flag on a word none of them has needs no
    /// majority of the spellers (`isUnknownWordWithASlipsFix`).
    public var lexicon: Lexicon

    public init(evidence: EvidenceModel = .standard, lexicon: Lexicon = .installed) {
        self.evidence = evidence
        self.lexicon = lexicon
    }

    /// One proposal: a span and a replacement, and who made it.
    struct Proposal {
        var edit: ProviderEdit
        var supporters: [(id: String, rank: Int)]
        var bestRank: Int { supporters.map(\.rank).min() ?? .max }
    }

    /// The combined edits of `members` for `text` (the request's text), in text order.
    public func combine(_ members: [MemberEdits], text: String) -> [CombinedEdit] {
        let bytes = Array(text.utf8)
        var all: [(edit: ProviderEdit, id: String, rank: Int)] = []
        for member in members {
            for edit in member.edits where edit.range.upperBound <= bytes.count { all.append((edit, member.providerID, member.rank)) }
        }
        all.sort { ($0.edit.range.lowerBound, $0.edit.range.upperBound, $0.rank) < ($1.edit.range.lowerBound, $1.edit.range.upperBound, $1.rank) }
        let voters = Set(members.map(\.providerID)).intersection(evidence.spellers)
        var kept: [CombinedEdit] = []
        for cluster in Self.clusters(all.map(\.edit.range)) {
            let items = cluster.map { all[$0] }
            guard let chosen = choose(items, bytes: bytes) else { continue }
            let flaggedBy = Self.unique(items.sorted { $0.rank < $1.rank }.map(\.id))
            guard keeps(chosen, flaggedBy: flaggedBy, items: items, voters: voters, bytes: bytes) else { continue }
            kept.append(CombinedEdit(edit: chosen.edit, supporters: chosen.supporters.map(\.id), flaggedBy: flaggedBy))
        }
        return kept
    }

    // MARK: - Choosing within a cluster

    private func choose(_ items: [(edit: ProviderEdit, id: String, rank: Int)], bytes: [UInt8]) -> Proposal? {
        var proposals: [Proposal] = []
        for item in items {
            if let index = proposals.firstIndex(where: { $0.edit.range == item.edit.range && $0.edit.replacement == item.edit.replacement }) {
                if !proposals[index].supporters.contains(where: { $0.id == item.id }) {
                    proposals[index].supporters.append((item.id, item.rank))
                    proposals[index].supporters.sort { $0.rank < $1.rank }
                }
            } else {
                proposals.append(Proposal(edit: item.edit, supporters: [(item.id, item.rank)]))
            }
        }
        return proposals.min { better($0, than: $1, bytes: bytes) }
    }

    /// Whether `a` is the better proposal (the ordering `choose` takes the best of).
    private func better(_ a: Proposal, than b: Proposal, bytes: [UInt8]) -> Bool {
        if a.supporters.count != b.supporters.count { return a.supporters.count > b.supporters.count }
        if a.edit.category == "spelling" && b.edit.category == "spelling" {
            let (qa, qb) = (spellingQuality(a.edit, bytes: bytes), spellingQuality(b.edit, bytes: bytes))
            if qa != qb { return qa < qb }
            let (ra, rb) = (authority(a), authority(b))
            if ra != rb { return ra < rb }
        }
        return a.bestRank < b.bestRank
    }

    /// Lower is better: 0 a slip of one or two keystrokes that keeps the first letter (people
    /// seldom get the first letter wrong: "adress" is "address", not "dress"), 1 a slip that
    /// changes it, 2 farther, 3 a word cut in two (right for "alot" → "a lot", where it is the
    /// only reading, and then it wins by default).
    private func spellingQuality(_ edit: ProviderEdit, bytes: [UInt8]) -> Int {
        let original = String(decoding: bytes[edit.range], as: UTF8.self).lowercased()
        let replacement = edit.replacement.lowercased()
        if replacement.contains(" ") && !original.contains(" ") { return 3 }
        if EditDistance.distance(original, replacement, limit: 2) > 2 { return 2 }
        return original.first == replacement.first ? 0 : 1
    }

    private func authority(_ proposal: Proposal) -> Int {
        proposal.supporters.map { evidence.spellingAuthority.firstIndex(of: $0.id) ?? evidence.spellingAuthority.count }.min()
            ?? evidence.spellingAuthority.count
    }

    // MARK: - Evidence

    private func keeps(_ chosen: Proposal, flaggedBy: [String],
                       items: [(edit: ProviderEdit, id: String, rank: Int)], voters: Set<String>, bytes: [UInt8]) -> Bool {
        // A noisy rule alone is not enough.
        if flaggedBy.count < 2, items.allSatisfy({ evidence.needsCorroboration.contains($0.edit.ruleID) }) { return false }
        // Two checkers proposing the same replacement for the same span agree, whatever
        // category each gives it: "teached" → "taught" from LingoTweaker's speller and Harper's
        // `RegularIrregulars` is one fix found twice. Why before the spellers' rules: they look
        // only at spelling flags, and saw LingoTweaker's "taught" and Hunspell's "teased" as two
        // far guesses at a name (heldout4 lost "teached" and "sleeped" so); and the proposal
        // keeps the category of the higher-ranked checker, so without this the same agreement
        // was kept or dropped by the order of the providers. `choose` has already put the
        // agreed replacement first (more supporters win).
        if Self.supportersAgreeOnTheCluster(chosen.supporters.map(\.id), items: items, bytes: bytes) { return true }
        // A flag no other checker raises needs a rule that is usually right: its estimated
        // precision on the development set (`RulePrecision`). Spelling is weighed below by the
        // spellers' vote and the dictionaries, which know more about one word than a rule's
        // average does.
        if flaggedBy.count < 2, chosen.edit.category != "spelling",
           let best = items.map({ evidence.precision($0.id, $0.edit.ruleID) }).max(), best < evidence.minimumLonePrecision {
            return false
        }
        // Spellers that flag the word but each guess a different, farther word: a name.
        if chosen.edit.category == "spelling", Self.spellersSeeOnlyAName(items, spellers: voters, bytes: bytes) { return false }
        // A word no dictionary has, with a fix a slip away, is misspelt whoever stays silent.
        if chosen.edit.category == "spelling", Self.isUnknownWordWithASlipsFix(chosen.edit, lexicon: lexicon, bytes: bytes) {
            return true
        }
        // Spelling: the spellers vote; silence on the word is a vote against.
        if chosen.edit.category == "spelling", voters.count >= 3 {
            return Set(flaggedBy).intersection(voters).count * 2 > voters.count
        }
        // Two spellers and only one flags the word: a slip of one keystroke is believed;
        // a word whose nearest suggestion is farther is more likely a name the other knows.
        if chosen.edit.category == "spelling", voters.count == 2, Set(flaggedBy).intersection(voters).count < 2 {
            let original = String(decoding: bytes[chosen.edit.range], as: UTF8.self).lowercased()
            return EditDistance.withinOne(original, chosen.edit.replacement.lowercased())
        }
        return true
    }

    // MARK: - Helpers

    /// Indices of `ranges` (sorted by start) grouped into runs of edits that conflict.
    static func clusters(_ ranges: [Range<Int>]) -> [[Int]] {
        var result: [[Int]] = []
        var current: [Int] = []
        var end = Int.min
        for (index, range) in ranges.enumerated() {
            if let first = current.first, !(conflicts(range, ranges[first]) || range.lowerBound < end
                                            || current.contains(where: { conflicts(ranges[$0], range) })) {
                result.append(current)
                current = []
                end = Int.min
            }
            current.append(index)
            end = max(end, range.upperBound)
        }
        if !current.isEmpty { result.append(current) }
        return result
    }

    /// Whether two edits of the same text cannot both apply (as the coordinator decides).
    static func conflicts(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        if a.isEmpty && b.isEmpty { return a.lowerBound == b.lowerBound }
        if a.isEmpty { return b.lowerBound < a.lowerBound && a.lowerBound < b.upperBound }
        if b.isEmpty { return a.lowerBound < b.lowerBound && b.lowerBound < a.upperBound }
        return a.overlaps(b)
    }

    private static func unique(_ ids: [String]) -> [String] {
        var seen: Set<String> = []
        return ids.filter { seen.insert($0).inserted }
    }
}
