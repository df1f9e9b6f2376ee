/// "a" or "an" before a word shaped like code or an acronym: "an lsp-mode client",
/// "an SQL query", "a 8-bit value" read either way. Why: the article follows how the next
/// word is said, and the letters of a name do not tell that ("lsp" is said "el-es-pee",
/// "SQL" "sequel" or "es-cue-el"); a checker that reads "lsp" as a word starting with a
/// consonant flags a right "an". Before a plain word ("a apple") the flag stays.
public enum ArticleBeforeCode {
    /// Whether `edit` only swaps "a" and "an" (any letter case) in `bytes`, and the word after
    /// the article has a technical shape.
    public static func applies(to range: Range<Int>, replacement: String, in bytes: [UInt8]) -> Bool {
        guard let original = String(validating: bytes[range], as: UTF8.self) else { return false }
        let articles: Set<String> = ["a", "an"]
        let from = original.lowercased().trimmingTrailingSpace(), to = replacement.lowercased().trimmingTrailingSpace()
        guard articles.contains(from), articles.contains(to), from != to else { return false }
        // The next word: past white space and the opening marks of code or emphasis.
        var i = range.upperBound
        while i < bytes.count, ShieldedText.isSpace(bytes[i]) || "`*_\"'(".utf8.contains(bytes[i]) { i += 1 }
        guard i < bytes.count, ShieldedText.isWordByte(bytes[i]) else { return false }
        let next = WordShape.compound(around: i..<(i + 1), in: bytes)
        return WordShape.of(bytes[next]).isTechnical
    }
}

private extension String {
    /// Without the spaces a checker may include after the article.
    func trimmingTrailingSpace() -> String {
        var s = Substring(self)
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
