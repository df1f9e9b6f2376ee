/// A lower-case name built on an English word by letters before or after it: `pytest` →
/// "test", `virtualenv` → "virtual". Why: when the suggestion is the word with two or more
/// letters cut from an end, the word is the known word plus a prefix or suffix — the way
/// tool names are made — rather than a slip: people seldom type two extra letters in a row.
/// One letter cut is a slip's reading as often as a name's (`happend` → "happen", a dropped
/// "e" of "-ed"; `suprise` → "uprise"), so it is kept, as is anything else than a cut (the
/// slips the checkers fix).
public enum AffixedName {
    /// Whether `replacement` is `word` (all lower-case letters) with two or more letters cut
    /// from its start or its end.
    public static func applies(word: String, replacement: String) -> Bool {
        let w = Array(word.unicodeScalars), r = Array(replacement.lowercased().unicodeScalars)
        guard w.allSatisfy({ $0.isLowerCaseLetter }), r.count >= 3, r.count + 2 <= w.count,
              r.allSatisfy({ $0.isLowerCaseLetter }) else { return false }
        return Array(w[(w.count - r.count)...]) == r || Array(w[..<r.count]) == r
    }
}
