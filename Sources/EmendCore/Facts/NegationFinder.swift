/// Negations attached to their clause: "please dont tell customers a date yet" holds the
/// negated clause "tell customers a date", whose first content word ("tell") is its key. A
/// rewrite that keeps "tell" but loses the "not" flipped the meaning; that is what the guard
/// looks for.
enum NegationFinder {
    static let negators: Set<String> = [
        "not", "no", "never", "without", "cannot", "nobody", "nothing", "none", "nor", "neither", "nowhere",
        // Written without the apostrophe, as people type.
        "dont", "doesnt", "didnt", "isnt", "arent", "wasnt", "werent", "wont", "wouldnt", "cant", "couldnt",
        "shouldnt", "hasnt", "havent", "hadnt", "mustnt", "neednt", "aint",
    ]
    /// Words that carry no content of their own in a negated clause ("is not yet really done").
    static let fillers: Set<String> = [
        "be", "been", "being", "is", "are", "was", "were", "am", "do", "does", "did", "have", "has", "had", "will", "would",
        "can", "could", "should", "shall", "may", "might", "must", "yet", "still", "really", "even", "ever", "to", "a",
        "an", "the", "any", "at", "all", "too", "just", "quite", "very", "so", "it", "that", "this", "we", "you", "they",
        "he", "she", "i", "me", "us", "them", "our", "your", "their", "my", "his", "her", "its", "longer", "more", "again",
        "get", "got", "go", "going", "in", "on", "of", "for", "with", "by", "from", "into", "about", "inside", "out",
        "up", "there", "here", "now", "then",
    ]
    private static let clauseBreakers: Set<String> = ["but", "and", "or", "because", "so", "while", "although", "though", "since", "until"]

    static func isNegator(_ word: String) -> Bool {
        negators.contains(word) || word.hasSuffix("n't")
    }

    /// The negations of `words`, each with the clause it negates.
    static func negations(in words: [FactWord]) -> [Fact] {
        var facts: [Fact] = []
        for (index, word) in words.enumerated() where isNegator(word.lower) && !word.isAddress {
            var scope: [FactWord] = []
            var cursor = index
            if !word.endsClause {
                cursor += 1
                while cursor < words.count, scope.count < 6 {
                    let next = words[cursor]
                    if next.startsSentence || clauseBreakers.contains(next.lower) || isNegator(next.lower) { break }
                    scope.append(next)
                    if next.endsClause { break }
                    cursor += 1
                }
            }
            // "not only ... but", "not just ...": a contrast, not a negation.
            if let next = scope.first, ["only", "just", "merely", "simply"].contains(next.lower) { continue }
            guard let content = scope.first(where: { !fillers.contains($0.lower) }) else { continue }
            let start = scope.firstIndex(of: content) ?? 0
            let clause = scope[start...].map(\.text).joined(separator: " ")
            facts.append(Fact(kind: .negation, shown: clause, key: stem(content.lower)))
        }
        return facts
    }

    /// A crude stem, so that "tell" / "tells" / "telling" and "sign" / "signed" meet.
    static func stem(_ word: String) -> String {
        var w = word
        for suffix in ["ing", "ed", "es", "s"] where w.count > suffix.count + 2 && w.hasSuffix(suffix) {
            w.removeLast(suffix.count)
            break
        }
        return w
    }

    /// The stems of every word of `words` that no negator governs (a word of a negated
    /// clause does not count as said plainly).
    static func plainStems(_ words: [FactWord]) -> Set<String> {
        var negated: Set<Int> = []
        for (index, word) in words.enumerated() where isNegator(word.lower) {
            var cursor = index + 1
            while cursor < words.count, cursor - index <= 6 {
                let next = words[cursor]
                if next.startsSentence || clauseBreakers.contains(next.lower) { break }
                negated.insert(cursor)
                if next.endsClause { break }
                cursor += 1
            }
        }
        var stems: Set<String> = []
        for (index, word) in words.enumerated() where !negated.contains(index) && !isNegator(word.lower) {
            stems.insert(stem(word.lower))
        }
        return stems
    }
}
