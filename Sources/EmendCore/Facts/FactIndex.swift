/// Facts by key, so that "is this fact among those?" is a dictionary lookup rather than a
/// scan: the guard asks it once for every fact of a text, and a long text has thousands of
/// facts (a scan made checking a 1 MB rewrite take seconds).
struct FactIndex {
    /// Facts sharing a key differ only in kind or unit, so a bucket stays small; a fact
    /// that matches one already there is not stored again.
    private var byKey: [String: [Fact]] = [:]

    init(_ facts: [Fact] = []) {
        for fact in facts { insert(fact) }
    }

    /// Whether some fact of the index states the same as `fact` (Fact.matches).
    func containsMatch(for fact: Fact) -> Bool {
        byKey[fact.key]?.contains { $0.matches(fact) } ?? false
    }

    /// Adds `fact`; returns false (and adds nothing) when a matching fact is there already.
    @discardableResult
    mutating func insert(_ fact: Fact) -> Bool {
        if containsMatch(for: fact) { return false }
        byKey[fact.key, default: []].append(fact)
        return true
    }
}
