/// Distances between a word and a suggested spelling, in characters. Why: whether a
/// suggestion is one keystroke away (a typo: a letter missing, added, changed or two
/// swapped) tells a slip from a word the checker does not know, for recurring words and for
/// ranking spelling suggestions.
public enum EditDistance {
    /// Optimal string alignment distance (Levenshtein plus adjacent transpositions), capped:
    /// returns `limit + 1` as soon as the distance must exceed `limit`.
    public static func distance(_ a: String, _ b: String, limit: Int = 8) -> Int {
        // ASCII without CR (which joins an LF into one character) is one byte a character:
        // compared as bytes, without breaking the strings into characters (a tenth of a dense
        // proofread's provider time went there).
        func isPlainASCII(_ s: String) -> Bool { s.utf8.allSatisfy { $0 < 0x80 && $0 != 0x0D } }
        if isPlainASCII(a) && isPlainASCII(b) { return distance(Array(a.utf8), Array(b.utf8), limit: limit) }
        return distance(Array(a), Array(b), limit: limit)
    }

    /// The same over any elements (bytes, Characters), capped at `limit + 1` as above. Why
    /// public: the fact guard's spelling corrections (EmendCore) measure words by it too.
    public static func distance<Element: Equatable>(_ x: [Element], _ y: [Element], limit: Int) -> Int {
        if abs(x.count - y.count) > limit { return limit + 1 }
        if x.isEmpty || y.isEmpty { return min(max(x.count, y.count), limit + 1) }
        var previous2 = [Int](repeating: 0, count: y.count + 1)
        var previous = Array(0...y.count)
        var current = [Int](repeating: 0, count: y.count + 1)
        for i in 1...x.count {
            current[0] = i
            var rowBest = current[0]
            for j in 1...y.count {
                let cost = x[i - 1] == y[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] { value = min(value, previous2[j - 2] + 1) }
                current[j] = value
                rowBest = min(rowBest, value)
            }
            if rowBest > limit { return limit + 1 }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return min(previous[y.count], limit + 1)
    }

    /// Whether `b` is at most one edit from `a`.
    public static func withinOne(_ a: String, _ b: String) -> Bool { distance(a, b, limit: 1) <= 1 }
}
