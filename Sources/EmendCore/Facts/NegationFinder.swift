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
        "up", "there", "here", "now", "then", "please", "who", "which", "whom", "whose", "also",
    ]
    private static let clauseBreakers: Set<String> = ["but", "and", "or", "because", "so", "while", "although", "though", "since", "until"]

    static func isNegator(_ word: String) -> Bool {
        negators.contains(word) || word.hasSuffix("n't")
    }

    /// The negations of `words`, each with the clause it negates.
    static func negations(in words: [FactWord]) -> [Fact] {
        words.indices.compactMap { index in
            isNegator(words[index].lower) && !words[index].isAddress ? negation(at: index, in: words)?.fact : nil
        }
    }

    /// The negation whose negator is `words[index]` and the words of its clause after it; nil
    /// when it negates nothing with content ("not at all") or is a contrast ("not only").
    private static func negation(at index: Int, in words: [FactWord]) -> (fact: Fact, scope: [FactWord])? {
        let word = words[index]
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
        if let next = scope.first, ["only", "just", "merely", "simply"].contains(next.lower) { return nil }
        guard let content = scope.first(where: { !fillers.contains($0.lower) }) else { return nil }
        let start = scope.firstIndex(of: content) ?? 0
        let clause = scope[start...].map(\.text).joined(separator: " ")
        return (Fact(kind: .negation, shown: clause, key: stem(content.lower)), scope)
    }

    /// A negation with what it is tied to: who or what it is said of (the content words of its
    /// clause before the negator: "Sarah Jones" in "Sarah Jones will not attend the two
    /// meetings") and what it negates (the content words after it: "attend", "two",
    /// "meetings"), as stems. A rewrite that keeps a "not" but ties it to something else ("the
    /// two meetings will not be taking place") changed the fact.
    struct Tie {
        let fact: Fact
        let subject: Set<String>
        let scope: Set<String>
    }

    /// The negations of `words` with what each is tied to (the same negations, in the same
    /// order, as `negations(in:)`).
    static func ties(in words: [FactWord]) -> [Tie] {
        var ties: [Tie] = []
        for (index, word) in words.enumerated() where isNegator(word.lower) && !word.isAddress {
            guard let (fact, scope) = negation(at: index, in: words) else { continue }
            var subject: Set<String> = []
            var cursor = index - 1
            // Back to the clause's start: a sentence's first word, a word before a comma, a
            // conjunction; at most eight words.
            while cursor >= 0, index - cursor <= 8 {
                let previous = words[cursor]
                if previous.endsClause || clauseBreakers.contains(previous.lower) || isNegator(previous.lower) { break }
                if !fillers.contains(previous.lower) { subject.insert(stem(previous.lower)) }
                if previous.startsSentence { break }
                cursor -= 1
            }
            let content = Set(scope.filter { !fillers.contains($0.lower) }.map { stem($0.lower) })
            ties.append(Tie(fact: fact, subject: subject, scope: content))
        }
        return ties
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
