/// A capitalised word inside a sentence that no dictionary holds: the name of a product,
/// a project or a person ("Vulkan" → "Vulcan", "Deno" → "Demo", "Junio Hamano" → "Junior
/// Haman"). Why: the writer capitalised it on purpose, away from a sentence start, and README
/// prose is full of such names; a learner's slip on a common word does not come with a
/// capital in the middle of a sentence. Kept: a flag at a sentence start (any word is
/// capitalised there), a flag that only changes letter case, and a flag whose suggestion is
/// a day or a month — the proper nouns learners do misspell ("Febuary", "Wensday").
public enum ProperName {
    /// Whether the spelling flag on `word` (the whole compound at `range` of `bytes`),
    /// suggesting `replacement`, is on a name.
    public static func applies(word: String, range: Range<Int>, replacement: String, in bytes: [UInt8]) -> Bool {
        let scalars = Array(word.unicodeScalars)
        guard let first = scalars.first, first.isUpperCaseLetter, scalars.count >= 2,
              scalars.dropFirst().allSatisfy({ $0.isLowerCaseLetter || $0 == "-" || $0 == "'" }),
              replacement.lowercased() != word.lowercased(),
              !calendarNames.contains(replacement.lowercased()) else { return false }
        return isInsideSentence(range.lowerBound, in: bytes)
    }

    /// Whether the word starting at `start` follows other words of its sentence: the text
    /// before it (past spaces and opening quotes, brackets and emphasis) ends with a letter,
    /// a digit, a comma, a semicolon or a closing bracket — not a sentence's end, a colon, a
    /// line start or nothing.
    static func isInsideSentence(_ start: Int, in bytes: [UInt8]) -> Bool {
        var i = start
        while i > 0, bytes[i - 1] == 0x20 || bytes[i - 1] == 0x09 || "\"'([*_`".utf8.contains(bytes[i - 1]) { i -= 1 }
        guard i > 0 else { return false }
        let c = bytes[i - 1]
        return ShieldedText.isAlnum(c) || c >= 0x80 || ",;)]".utf8.contains(c)
    }

    /// Days and months, lower-cased.
    static let calendarNames: Set<String> = [
        "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
        "november", "december",
    ]
}
