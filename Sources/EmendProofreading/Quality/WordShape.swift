/// The shape of the word a suggestion is about, read from the text around it. Why: on
/// technical prose most spelling false alarms are words that no dictionary holds but whose
/// shape says they are names of code, not misspelt English — `camelCase`, `snake_case`,
/// `os.path`, `libpng16`, `v6b`, `X.509`, `1.2.3`, `ATK`, `APIs` — so a spelling suggestion
/// on such a word is dropped by `ProofreadingFilter`.
public enum WordShape: String, Sendable, Equatable, CaseIterable {
    /// Has an underscore: `snake_case`, `__init__`.
    case snakeCase
    /// A capital inside a word after a lower-case letter, or two capitals then lower case:
    /// `camelCase`, `OpenSSL`, `iPhone`, `CMake`.
    case camelCase
    /// Letters and digits mixed, or a version: `libpng16`, `v6b`, `1.2.3`, `X.509`.
    case withDigits
    /// Words joined by dots or by `::`: `os.path`, `node.js`, `example.com`,
    /// `ParseError::Eof`, `std::vector`.
    case dotted
    /// Two or more capitals, with an optional plural `s`: `ATK`, `GTK`, `APIs`, `CPUs`.
    case acronym
    /// A Unix library's name: `lib` and then a consonant other than r (`libjpeg`, `libcurl`;
    /// not `library`, `liberty`, `libel`, nor the slip `libary`).
    case libraryName
    /// Lower-case letters without a vowel (a, e, i, o, u, y): a command or an abbreviation,
    /// `npm`, `gpg`, `gdk`, `ls` — English words have one.
    case noVowel
    /// Plain word: letters, maybe one inner apostrophe or hyphen.
    case plain

    /// Whether suggestions on a word of this shape are kept.
    public var isTechnical: Bool { self != .plain }

    /// The compound around `range` (UTF-8 bytes of `bytes`): word bytes, joined by `.`, `-`,
    /// `'`, `_` or `::` when a word byte follows.
    public static func compound(around range: Range<Int>, in bytes: [UInt8]) -> Range<Int> {
        var start = min(range.lowerBound, bytes.count), end = min(max(range.upperBound, start), bytes.count)
        let colon = UInt8(ascii: ":")
        while start > 0 {
            let c = bytes[start - 1]
            if ShieldedText.isWordByte(c) { start -= 1; continue }
            if c == colon, start >= 3, bytes[start - 2] == colon, ShieldedText.isWordByte(bytes[start - 3]), start < bytes.count,
               ShieldedText.isWordByte(bytes[start]) { start -= 2; continue }
            if isJoiner(c), start >= 2, ShieldedText.isWordByte(bytes[start - 2]), start < bytes.count,
               ShieldedText.isWordByte(bytes[start]) { start -= 1; continue }
            break
        }
        while end < bytes.count {
            let c = bytes[end]
            if ShieldedText.isWordByte(c) { end += 1; continue }
            if c == colon, end > 0, ShieldedText.isWordByte(bytes[end - 1]), end + 2 < bytes.count, bytes[end + 1] == colon,
               ShieldedText.isWordByte(bytes[end + 2]) { end += 2; continue }
            if isJoiner(c), end > 0, ShieldedText.isWordByte(bytes[end - 1]), end + 1 < bytes.count,
               ShieldedText.isWordByte(bytes[end + 1]) { end += 1; continue }
            break
        }
        return start..<end
    }

    /// The shape of `word` (the bytes of one compound).
    public static func of<Bytes: Collection>(_ word: Bytes) -> WordShape where Bytes.Element == UInt8 {
        let w = Array(word)
        guard !w.isEmpty else { return .plain }
        if w.contains(UInt8(ascii: "_")) { return .snakeCase }
        if w.contains(where: ShieldedText.isDigit) { return .withDigits }
        if w.contains(UInt8(ascii: ".")) || w.contains(UInt8(ascii: ":")) { return .dotted }
        // Look at each part between hyphens and apostrophes on its own.
        var shape = WordShape.plain
        for part in w.split(whereSeparator: { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "'") }) {
            shape = partShape(Array(part))
            if shape != .plain { return shape }
        }
        return shape
    }

    private static func partShape(_ p: [UInt8]) -> WordShape {
        func upper(_ c: UInt8) -> Bool { c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z") }
        func lower(_ c: UInt8) -> Bool { c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z") }
        if p.count >= 2, p.allSatisfy(lower) {
            if !p.contains(where: { "aeiouy".utf8.contains($0) }) { return .noVowel }
            if p.count >= 5, p.starts(with: "lib".utf8), !"aeiouyr".utf8.contains(p[3]) { return .libraryName }
        }
        let capitals = p.filter(upper).count
        if capitals >= 2 {
            if capitals == p.count { return .acronym }
            if capitals == p.count - 1, p.last == UInt8(ascii: "s") { return .acronym }   // APIs
        }
        for i in 1..<max(p.count, 1) where upper(p[i]) {
            if lower(p[i - 1]) { return .camelCase }                                      // camelCase, OpenSSL
            if i + 1 < p.count, upper(p[i - 1]), lower(p[i + 1]), i == 1 { return .camelCase }  // CMake
        }
        return .plain
    }

    private static func isJoiner(_ c: UInt8) -> Bool {
        c == UInt8(ascii: ".") || c == UInt8(ascii: "-") || c == UInt8(ascii: "'")
    }
}
