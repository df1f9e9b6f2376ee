import EmendText

/// Whether a word of a result is a word of its source spelled right: "tomorow" → "tomorrow",
/// "wensday" → "Wednesday", "Micheal" → "Michael", "Jose" → "José". A rewrite that only
/// corrects a misspelling states the text's own fact, not a new one; refusing it would cost
/// the writer a good result. Conservative by design, as the rest of the guard:
///
/// - Only a word that is no fact of its own may be a misspelling: "Monday" → "Sunday",
///   "sixty" → "fifty" and "today" → "tonight" replace a fact the text states. A name is
///   the exception (a capital says it is a name, not that it is spelled right), but a name
///   is corrected only by folding (case, diacritics) or by swapping two neighbouring
///   letters: "Jon" → "John" and "Marion" → "Marian" are other people.
/// - Digits are never a spelling: "15" → "16" is another number.
/// - The edit must be small for the word's length (Damerau-Levenshtein, adjacent swaps
///   count as one): none below four letters, one letter added or left out at four ("wek" →
///   "week"; "tan" → "ten" is another word), one edit up to seven letters, two from eight.
///   Function words ("on" → "one") are never misspellings.
enum SpellingCorrection {
    /// Whether `corrected`, a word of a fact of kind `kind`, is `original` spelled right.
    static func corrects(_ original: String, to corrected: String, kind: Fact.Kind) -> Bool {
        let a = Array(folded(original)), b = Array(folded(corrected))
        guard a.allSatisfy(isSpellingLetter), b.allSatisfy(isSpellingLetter), !a.isEmpty else { return false }
        if a == b { return true }
        if kind == .name { return a.count >= 4 && isAdjacentSwap(a, b) }
        let shorter = min(a.count, b.count), longer = max(a.count, b.count)
        guard shorter >= 3 else { return false }
        let allowed: Int
        switch longer {
        case ..<4: return false
        case 4: guard a.count != b.count else { return false }; allowed = 1
        case 5...7: allowed = 1
        default: allowed = 2
        }
        return EditDistance.distance(a, b, limit: allowed) <= allowed
    }

    /// A letter a spelling is made of (no digits, no punctuation but an apostrophe or a hyphen).
    private static func isSpellingLetter(_ c: Character) -> Bool {
        c.isLetter || c == "'" || c == "-"
    }

    /// `b` is `a` with two neighbouring letters swapped ("micheal" / "michael").
    private static func isAdjacentSwap(_ a: [Character], _ b: [Character]) -> Bool {
        guard a.count == b.count else { return false }
        let differing = a.indices.filter { a[$0] != b[$0] }
        guard differing.count == 2, differing[1] == differing[0] + 1 else { return false }
        return a[differing[0]] == b[differing[1]] && a[differing[1]] == b[differing[0]]
    }

    /// Lower case, without diacritics: combining marks dropped, precomposed Latin letters
    /// ("é", "ñ", "ø", "ł") as their base letter.
    static func folded(_ word: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in word.lowercased().unicodeScalars {
            if scalar.properties.canonicalCombiningClass != .notReordered { continue }
            if scalar.value < 0x80 { out.append(scalar); continue }
            if let base = latinBase[scalar] { out.append(contentsOf: base.unicodeScalars) } else { out.append(scalar) }
        }
        return String(out)
    }

    /// Latin letters with diacritics (lower case; folding lowercases first) and their base letters.
    private static let latinBase: [Unicode.Scalar: String] = {
        let groups: [(String, String)] = [
            ("àáâãäåāăą", "a"), ("çćĉċč", "c"), ("ďđ", "d"), ("èéêëēĕėęě", "e"), ("ĝğġģ", "g"), ("ĥħ", "h"),
            ("ìíîïĩīĭįı", "i"), ("ĵ", "j"), ("ķ", "k"), ("ĺļľŀł", "l"), ("ñńņňŉ", "n"), ("òóôõöøōŏő", "o"),
            ("ŕŗř", "r"), ("śŝşšș", "s"), ("ţťŧț", "t"), ("ùúûüũūŭůűų", "u"), ("ŵ", "w"), ("ýÿŷ", "y"), ("źżž", "z"),
            ("æ", "ae"), ("œ", "oe"), ("ß", "ss"), ("þ", "th"), ("ð", "d"),
        ]
        var table: [Unicode.Scalar: String] = [:]
        for (letters, base) in groups { for scalar in letters.unicodeScalars { table[scalar] = base } }
        return table
    }()
}

/// The words of one text that a word of the other may be a spelling correction of (or,
/// from the other side, that may correct it), found by first letter and length so that a
/// lookup reads a few words, not the whole text. Built on first use: most results state
/// no fact the text does not, and never ask.
final class SpellingNeighbours {
    private let words: [FactWord]
    private let excluded: Set<String>
    private var buckets: [Key: [String]]?
    private var present: Set<String> = []

    private struct Key: Hashable {
        let first: Character
        let length: Int
    }

    /// `words` of a text; `excluded` (lower case) are words that cannot be misspellings
    /// (the words of its facts other than names).
    init(_ words: [FactWord], excluding excluded: Set<String> = []) {
        self.words = words
        self.excluded = excluded
    }

    /// Whether the text has `word` (lower case) as it is.
    func has(_ word: String) -> Bool {
        build()
        return present.contains(word)
    }

    /// Whether some word of the text and `word` are one word, one of them spelled right:
    /// `word` corrects it (`wordIsCorrection`) or it corrects `word`.
    func hasSpelling(of word: String, wordIsCorrection: Bool, kind: Fact.Kind) -> Bool {
        build()
        let target = Array(SpellingCorrection.folded(word))
        guard let first = target.first else { return false }
        // A swap of the first two letters moves the first letter.
        let firsts: Set<Character> = target.count > 1 ? [first, target[1]] : [first]
        for initial in firsts {
            for length in max(1, target.count - 2)...(target.count + 2) {
                for candidate in buckets?[Key(first: initial, length: length)] ?? [] {
                    let matches = wordIsCorrection
                        ? SpellingCorrection.corrects(candidate, to: word, kind: kind)
                        : SpellingCorrection.corrects(word, to: candidate, kind: kind)
                    if matches { return true }
                }
            }
        }
        return false
    }

    private func build() {
        guard buckets == nil else { return }
        var buckets: [Key: [String]] = [:]
        var seen: Set<String> = []
        for word in words where !word.isAddress {
            let lower = word.lower.hasSuffix("'s") ? String(word.lower.dropLast(2)) : word.lower
            present.insert(lower)
            let folded = SpellingCorrection.folded(lower)
            guard folded.count >= 3, !excluded.contains(lower), !AddedStatements.functionWords.contains(lower),
                  seen.insert(folded).inserted, let first = folded.first else { continue }
            buckets[Key(first: first, length: folded.count), default: []].append(folded)
        }
        self.buckets = buckets
    }
}
