import EmendCore

/// Edits that can damage a document whatever its format, refused for every checker and every
/// front end. Why apart from the checkers: LanguageTool, Harper and Hunspell read any text as
/// prose, so in LaTeX, HTML or Markdown that a front end did not protect they "correct"
/// markup (`\frac` → `\franc`, `u$` → `up`, deleting the `$` that closes math), and joining
/// or cutting a name changes what it names (`libgcc_s and` → `libgcc_sand`).
public enum EditHazard: Sendable, Equatable {
    /// The edit's text or its replacement holds markup punctuation (`\ $ { } < > \``): a
    /// change there is a change of the markup, not of the prose.
    case markupPunctuation(String)
    /// The edit changes the name of a command (`\nabla`, the word right after a backslash).
    case commandName(String)
    /// The edit joins a code-shaped word to the next word, or cuts one (`libgcc_s and` →
    /// `libgcc_sand`).
    case joinsTechnicalWord(String)
    /// The edit turns a lower-case word into an acronym it is not written as (`libc` →
    /// `LBC`): the checker knows an acronym close to a name.
    case acronymForName(String)
    /// The edit changes a Unix library's short name (`libm` → `limb`, `libc` → `lib`): `lib`
    /// and a consonant other than r begins no English word.
    case libraryName(String)
    /// The edit deletes capitalised words of a name (`General Public Licenses` → `Public`).
    case cutsName(String)

    /// Characters that belong to markup in the formats Emend reads (LaTeX, HTML, Markdown).
    static let markup: Set<UInt8> = Set("\\${}<>`".utf8)

    /// The hazard of `edit` on `bytes` (the request's text, UTF-8) apart from `ofWord`'s, or
    /// nil when it has none.
    public static func of(_ edit: ProviderEdit, in bytes: [UInt8]) -> EditHazard? {
        let range = edit.range.clamped(to: 0..<bytes.count)
        let original = bytes[range]
        if let c = original.first(where: markup.contains) ?? edit.replacement.utf8.first(where: markup.contains) {
            return .markupPunctuation(String(UnicodeScalar(c)))
        }
        // A word right after a backslash is a command's name (`\frac`, `\nabla`).
        var start = range.lowerBound
        while start > 0 && isASCIILetter(bytes[start - 1]) { start -= 1 }
        if start > 0, bytes[start - 1] == UInt8(ascii: "\\"), start < range.upperBound || range.isEmpty {
            var stop = start
            while stop < bytes.count && isASCIILetter(bytes[stop]) { stop += 1 }
            return .commandName(String(decoding: bytes[start..<stop], as: UTF8.self))
        }
        let text = String(decoding: original, as: UTF8.self)
        if let joined = joinsTechnicalWord(text, edit.replacement) { return .joinsTechnicalWord(joined) }
        if cutsName(text, edit.replacement) { return .cutsName(text) }
        return nil
    }

    /// The hazards of a one-word edit that `ProofreadingFilter` looks at after its own word
    /// rules (which name most such words more precisely: `capitalsOnly`, `technicalWord`).
    public static func ofWord(_ edit: ProviderEdit, in bytes: [UInt8]) -> EditHazard? {
        let text = String(decoding: bytes[edit.range.clamped(to: 0..<bytes.count)], as: UTF8.self)
        if isAcronymForName(text, edit.replacement) { return .acronymForName(text) }
        if isLibraryName(text) { return .libraryName(text) }
        return nil
    }

    static func isASCIILetter(_ c: UInt8) -> Bool { (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) }

    /// The words of `original` joined or cut by `replacement` when one of them is shaped like
    /// code: the same characters apart from spaces, and some word technical.
    static func joinsTechnicalWord(_ original: String, _ replacement: String) -> String? {
        guard WordBoundaries.joinsOrSplits(original, replacement) else { return nil }
        let words = original.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
            + replacement.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
        for word in words where WordShape.of(Array(word.utf8)[...]).isTechnical || word.contains("_") {
            return String(word)
        }
        return nil
    }

    /// A word without capitals replaced by one with two or more that is not the same word in
    /// capitals (`libc` → `LBC`; `npm` → `NPM` is `ProofreadingFilter`'s `capitalsOnly`).
    static func isAcronymForName(_ original: String, _ replacement: String) -> Bool {
        guard !original.isEmpty, !original.contains(" "), !replacement.contains(" "),
              original.unicodeScalars.allSatisfy({ !$0.properties.isUppercase }) else { return false }
        return replacement.unicodeScalars.filter({ $0.properties.isUppercase }).count >= 2
    }

    /// `lib`, then a consonant other than r, then letters or digits (`libc`, `libm`, `libz`).
    static func isLibraryName(_ word: String) -> Bool {
        let w = Array(word.utf8)
        guard w.count >= 4, w.starts(with: "lib".utf8), isASCIILetter(w[3]), !"aeiouyrAEIOUYR".utf8.contains(w[3]) else { return false }
        return w.allSatisfy { isASCIILetter($0) || ($0 >= 0x30 && $0 <= 0x39) }
    }

    /// Two or more capitalised words of which the replacement keeps fewer, all taken from
    /// them (`General Public Licenses` → `Public`): a rule that reads a name as wordy prose.
    static func cutsName(_ original: String, _ replacement: String) -> Bool {
        let words = original.split(separator: " ")
        guard words.count >= 2, words.allSatisfy({ $0.first?.isUppercase == true }) else { return false }
        let kept = replacement.split(separator: " ")
        return kept.count < words.count && kept.allSatisfy { word in words.contains(word) }
    }
}
