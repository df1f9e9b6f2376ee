/// The British or American spelling of a word, where the checker's dictionary has only the
/// other: "colour" → "color" under en-US, "organize" → "organise" under en-GB. Why: a writer
/// who spells one way is not misspelling, and READMEs mix both; the flag is a false alarm when
/// another English dictionary of the machine (`Lexicon`, e.g. hunspell-en-gb beside en-US)
/// has the word as written. Only the regular correspondences count, each checked both ways:
/// -our/-or, -ise/-ize (-isation, -ising, -ised), -yse/-yze, -re/-er, -ogue/-og, -ence/-ense,
/// a doubled l before an ending (travelled/traveled), ae/e and oe/e (anaemia, manoeuvre).
public enum SpellingVariant {
    /// Whether `replacement` is `word` spelled the other way (letter case aside) and an English
    /// dictionary of the machine has `word` (without one, the flag stands: "untill" → "until"
    /// is a slip, not a variant).
    public static func applies(word: String, replacement: String, lexicon: Lexicon) -> Bool {
        let (w, r) = (word.lowercased(), replacement.lowercased())
        guard w != r, w.count >= 4, isVariant(w, r) || isVariant(r, w) else { return false }
        return lexicon.knows(word) == true
    }

    /// Pairs of British and American letters, British first.
    static let pairs: [(String, String)] = [
        ("our", "or"), ("ise", "ize"), ("isa", "iza"), ("isi", "izi"), ("yse", "yze"), ("ysi", "yzi"), ("tre", "ter"),
        ("bre", "ber"), ("ogue", "og"), ("ence", "ense"), ("ll", "l"), ("ae", "e"), ("oe", "e"),
    ]

    /// Whether replacing one occurrence of a British letter group of `a` by its American one
    /// gives `b`.
    static func isVariant(_ a: String, _ b: String) -> Bool {
        let aa = Array(a)
        for (british, american) in pairs {
            let bs = Array(british)
            guard bs.count <= aa.count else { continue }
            for start in 0...(aa.count - bs.count) where Array(aa[start..<(start + bs.count)]) == bs {
                if String(aa[..<start]) + american + String(aa[(start + bs.count)...]) == b { return true }
            }
        }
        return false
    }
}
