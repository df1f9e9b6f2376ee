import Glibc

/// Which suggestions may be applied without a person looking at each (`emend proofread
/// --write` and `--diff`). Why stricter than what is shown: a flag the user reads costs a
/// glance when it is wrong, an applied edit a damaged file. Refused:
/// - a suggestion whose category is off (`RuleFamily`), should a checker send one;
/// - a suggestion that joins or cuts words (`WordBoundaries`: `libgcc_s and` → `libgcc_sand`,
///   `plugin` → `plug in`), unless no word it replaces is in any dictionary and every word it
///   writes is (`alot` → `a lot`). The dictionaries are the installed Hunspell and system
///   word lists of the language and the user's `dictionary.txt`;
/// - a spelling suggestion that writes another word than a slip of one letter would
///   (`Frobnicator` → `Fornicator`: a name the dictionaries lack, respelled as a real word),
///   while `Teh` → `The`, `recieve` → `receive` go in;
/// - a suggestion that only adds or removes hyphens (`Quickstart` → `Quick-start`): a
///   matter of the house style, not a slip.
public struct WriteSafety: Sendable {
    public enum Refusal: Sendable, Equatable {
        case categoryOff(RuleFamily)
        case changesWordBoundaries(String)
        case respellsFar(String)
        case changesHyphenation(String)
    }

    public let preferences: ProofreadingPreferences
    /// Lower-cased words of every dictionary found.
    let words: Set<String>

    public init(preferences: ProofreadingPreferences, words: Set<String>) {
        self.preferences = preferences
        self.words = words
    }

    /// The dictionaries of `language` (a BCP 47 tag) installed in `directories`, plus the
    /// user's words from `personal`.
    public static func loading(language: String, preferences: ProofreadingPreferences, personal: PersonalDictionary,
                               directories: [String] = ["/usr/share/hunspell", "/usr/share/myspell", "/usr/share/myspell/dicts", "/usr/share/dict"]) -> WriteSafety {
        let base = String(language.split(whereSeparator: { $0 == "-" || $0 == "_" }).first ?? "en").lowercased()
        var words = Set(personal.words.map { $0.lowercased() })
        for directory in directories {
            for name in Self.files(in: directory) {
                let lower = name.lowercased()
                let isHunspell = lower.hasSuffix(".dic") && lower.hasPrefix(base)
                let isWordList = directory.hasSuffix("/dict") && !lower.contains(".") && (base == "en" ? ["words", "american-english", "british-english"].contains(lower) : false)
                guard isHunspell || isWordList else { continue }
                Self.read(directory + "/" + name, into: &words)
            }
        }
        return WriteSafety(preferences: preferences, words: words)
    }

    /// Why `original` → `replacement` may not be applied unseen; nil when it may.
    public func refusal(original: String, replacement: String, category: String, ruleID: String) -> Refusal? {
        if let family = RuleFamily.of(ruleID: ruleID, category: category), !preferences.families.contains(family) {
            return .categoryOff(family)
        }
        if WordBoundaries.joinsOrSplits(original, replacement) {
            let typed = WordBoundaries.words(original), written = WordBoundaries.words(replacement)
            if typed.contains(where: { knows($0) }) || !written.allSatisfy({ knows($0) }) {
                return .changesWordBoundaries(original)
            }
        }
        let dehyphenated = { (text: String) in text.lowercased().filter { $0 != "-" && $0 != "\u{2010}" && $0 != " " } }
        if original != replacement, original.contains("-") != replacement.contains("-"),
           dehyphenated(original) == dehyphenated(replacement) {
            return .changesHyphenation(original)
        }
        if category == FixedCategory.spelling.rawValue, WordBoundaries.words(original).count == 1,
           WordBoundaries.words(replacement).count == 1,
           Self.editDistance(Array(original.lowercased()), Array(replacement.lowercased()), atMost: 1) > 1 {
            return .respellsFar(original)
        }
        return nil
    }

    /// The optimal-string-alignment distance of `a` and `b` (a transposition counts one), or
    /// `limit + 1` as soon as it is sure to exceed `limit`.
    static func editDistance(_ a: [Character], _ b: [Character], atMost limit: Int) -> Int {
        if abs(a.count - b.count) > limit { return limit + 1 }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var beforePrevious: [Int] = [], previous = Array(0...b.count)
        for i in 1...a.count {
            var row = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { row[j] = min(row[j], beforePrevious[j - 2] + 1) }
            }
            if row.min()! > limit { return limit + 1 }
            beforePrevious = previous
            previous = row
        }
        return previous[b.count]
    }

    /// Whether some dictionary has `word` (or it with a plural or possessive ending cut).
    public func knows(_ word: Substring) -> Bool {
        let w = word.lowercased().trimmingPunctuation()
        guard !w.isEmpty else { return true }
        if words.contains(w) { return true }
        for ending in ["'s", "s", "es"] where w.hasSuffix(ending) && words.contains(String(w.dropLast(ending.count))) { return true }
        return false
    }

    private static func files(in directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) } }
            if !name.hasPrefix(".") { names.append(name) }
        }
        return names.sorted()
    }

    /// One word a line; Hunspell's `word/FLAGS` and its first line (the count) too.
    private static func read(_ path: String, into words: inout Set<String>) {
        guard let file = fopen(path, "r") else { return }
        defer { fclose(file) }
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        while getline(&line, &capacity, file) > 0, let line {
            var text = String(cString: line)
            if let slash = text.firstIndex(of: "/") { text = String(text[..<slash]) }
            let word = text.trimmingCharacters().lowercased()
            if !word.isEmpty { words.insert(word) }
        }
    }
}

private extension String {
    func trimmingCharacters() -> String {
        var s = Substring(self)
        while let c = s.first, c.isWhitespace { s = s.dropFirst() }
        while let c = s.last, c.isWhitespace { s = s.dropLast() }
        // Hunspell's morphological fields after a tab.
        if let tab = s.firstIndex(of: "\t") { s = s[..<tab] }
        return String(s)
    }

    func trimmingPunctuation() -> String {
        var s = Substring(self)
        while let c = s.first, !c.isLetter && !c.isNumber { s = s.dropFirst() }
        while let c = s.last, !c.isLetter && !c.isNumber { s = s.dropLast() }
        return String(s)
    }
}
