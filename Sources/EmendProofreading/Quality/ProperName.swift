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
    ///
    /// A non-ASCII character counts as a word's only when it is a letter, a mark or a digit:
    /// an emoji or another symbol before the word (`# 🚀 Relase notes`, `- ✅ Improvd
    /// startup`) is decoration at a line's start, and is passed over like the spaces. Why:
    /// every byte of an emoji once counted as a letter, so the word after it looked like a
    /// name inside a sentence and its misspelling was dropped for every checker.
    static func isInsideSentence(_ start: Int, in bytes: [UInt8]) -> Bool {
        var i = start
        while i > 0 {
            let c = bytes[i - 1]
            if c == 0x20 || c == 0x09 || "\"'([*_`".utf8.contains(c) { i -= 1; continue }
            guard c >= 0x80 else { break }
            // The scalar that ends at i: back over continuation bytes to its lead byte.
            var lead = i - 1
            while lead > 0, bytes[lead] & 0xC0 == 0x80 { lead -= 1 }
            guard let scalar = String(decoding: bytes[lead..<i], as: UTF8.self).unicodeScalars.first else { break }
            if isWordScalar(scalar) { return true }
            i = lead    // an emoji, a symbol, a variation selector or a joiner: decoration
        }
        guard i > 0 else { return false }
        let c = bytes[i - 1]
        return ShieldedText.isAlnum(c) || ",;)]".utf8.contains(c)
    }

    /// A letter, a combining mark or a digit: a scalar of a word.
    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber:
            return true
        case .nonspacingMark, .spacingMark, .enclosingMark:
            return scalar.value != 0xFE0F && scalar.value != 0xFE0E && scalar.value != 0x20E3   // emoji presentation, keycap
        default:
            return false
        }
    }

    /// Days and months, lower-cased.
    static let calendarNames: Set<String> = [
        "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
        "november", "december",
    ]
}
