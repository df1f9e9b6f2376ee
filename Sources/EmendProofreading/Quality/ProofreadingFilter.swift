import EmendCore
import EmendText

/// Decides, for one request's text, which suggestions of any checker are false alarms. Why
/// here and not in each checker: every proofreading provider's edits pass through it (the
/// registry wraps them in `FilteringProofreader`), so the user's dictionary, the ignored
/// rules and the rules for technical prose hold for third-party plugins too.
public struct ProofreadingFilter: Sendable {
    /// Why a suggestion was dropped.
    public enum Reason: Sendable, Equatable {
        /// Its rule id is in `ignored-rules.txt`.
        case ignoredRule(String)
        /// Its word is in the user's `dictionary.txt`.
        case userWord(String)
        /// It touches a URL, path, e-mail address, HTML tag, link destination or inline code.
        case shielded(ShieldedText.Kind)
        /// A spelling suggestion on a word shaped like code or an acronym.
        case technicalWord(WordShape)
        /// A spelling suggestion on a word the text uses at least `recurringWords` times
        /// (outside protected and shielded text), unless the suggestion is one edit away (a
        /// typo made again and again is still a typo: "tomorow" → "tomorrow").
        case recurringWord(String)
        /// Its rule family is off.
        case familyOff(RuleFamily)
        /// A spelling suggestion that only writes a lower-case word with capitals, two or more
        /// (`npm` → `NPM`, `pkg-config` → `PKG-config`): the checker knows an acronym; in
        /// lower case it is a command's name.
        case capitalsOnly(String)
        /// A spelling suggestion that only cuts a word in two (`pathlib` → `path lib`,
        /// `Makefile` → `Make file`): a joined name. Kept when the first part is a small
        /// function word, as in the real slips `alot` → `a lot`, `infact` → `in fact`.
        case joinedName(String)
        /// "a" ↔ "an" before a word shaped like code or an acronym (`ArticleBeforeCode`).
        case articleBeforeCode
        /// A spelling suggestion on a capitalised word inside a sentence (`ProperName`).
        case properName(String)
        /// An edit that can damage the document (`EditHazard`): markup punctuation, a
        /// command's name, a name joined, cut or turned into an acronym.
        case hazard(EditHazard)
        /// A rule that looks across sentences counted sentences of another paragraph
        /// (`ParagraphScope`).
        case crossesParagraph(String)
        /// A spelling suggestion that cuts letters off a lower-case name built on a word
        /// (`AffixedName`): `zlib` → "lib".
        case affixedName(String)
        /// A spelling suggestion on a lower-case word that starts the way no English word
        /// does (`EnglishOnset`): `ncurses` → "nurses".
        case foreignOnset(String)
        /// A spelling suggestion on a lower-case word that ends the way no English word does
        /// (`EnglishCoda`): `systemd` → "system".
        case foreignCoda(String)
        /// A word written as code is called or indexed: followed by `(` or `[` (`malloc()`,
        /// `argv[0]`).
        case codeName(String)
        /// A spelling suggestion, or a capital at a sentence start, on a name this machine
        /// knows and no English dictionary has (`SystemNames`): `pcre`, `gunzip`, `gzip`.
        case systemName(String)
        /// A spelling suggestion that only turns a British spelling into an American one or
        /// back, on a word another English dictionary has (`SpellingVariant`).
        case spellingVariant(String)
    }

    public enum Verdict: Sendable, Equatable {
        case keep
        case drop(Reason)
    }

    public let dictionary: PersonalDictionary
    public let preferences: ProofreadingPreferences
    /// The machine's names of packages and commands (`FilteringProofreader` passes
    /// `.installed`; `.none` by default, so that tests do not depend on the machine).
    public let systemNames: SystemNames
    /// The machine's English dictionaries, for `SpellingVariant`.
    public let lexicon: Lexicon
    /// Whether the request is in English: the rules that know English words' shapes
    /// (`ProperName`, `EnglishOnset`, `EnglishCoda`, `SpellingVariant`) apply only then. Why:
    /// a paragraph checked as German (language detection, `--language de`) has capitalised
    /// nouns inside every sentence, and "Tesst" is no name there.
    public let isEnglish: Bool
    let bytes: [UInt8]
    private let shielded: ShieldedText
    /// How often each compound occurs in the text (case-sensitive), for `recurringWords`.
    private let counts: [ArraySlice<UInt8>: Int]

    public init(text: String, protectedRanges: [Range<Int>] = [], dictionary: PersonalDictionary = PersonalDictionary(),
                preferences: ProofreadingPreferences = ProofreadingPreferences(), systemNames: SystemNames = .none,
                lexicon: Lexicon = .none, language: String = "en-US") {
        self.isEnglish = language.lowercased() == "en" || language.lowercased().hasPrefix("en-")
        self.dictionary = dictionary
        self.preferences = preferences
        self.systemNames = systemNames
        self.lexicon = lexicon
        let bytes = Array(text.utf8)
        self.bytes = bytes
        let shielded = ShieldedText(text)
        self.shielded = shielded
        var counts: [ArraySlice<UInt8>: Int] = [:]
        if preferences.recurringWords > 0 {
            var i = 0
            while i < bytes.count {
                guard ShieldedText.isWordByte(bytes[i]) else { i += 1; continue }
                let word = WordShape.compound(around: i..<i, in: bytes)
                if !protectedRanges.contains(where: { $0.overlaps(word) }), shielded.kind(touching: word) == nil {
                    counts[bytes[word], default: 0] += 1
                }
                i = max(word.upperBound, i + 1)
            }
        }
        self.counts = counts
    }

    /// Small words that start the real two-word slips ("alot" → "a lot", "aswell" → "as well",
    /// "infact", "eventhough", "everytime", "nevermind").
    static let functionWords: Set<String> = [
        "a", "an", "the", "as", "at", "in", "on", "to", "of", "by", "for", "and", "or", "no", "not", "so", "up", "out",
        "off", "all", "any", "some", "every", "each", "even", "never", "no", "my", "your", "our", "their", "its", "his",
        "her", "into", "with", "thank", "in", "be", "may", "some", "what", "how", "who", "where", "when", "there",
    ]

    /// `compound` without a final "'s" (`esbuild's` → `esbuild`); unchanged when it has none.
    static func withoutPossessive(_ compound: Range<Int>, in bytes: [UInt8]) -> Range<Int> {
        guard compound.count > 2, bytes[compound.upperBound - 2] == UInt8(ascii: "'"),
              bytes[compound.upperBound - 1] | 0x20 == UInt8(ascii: "s") else { return compound }
        return compound.lowerBound..<(compound.upperBound - 2)
    }

    /// Whether `replacement` is `word` (all lower case) with its first letter a capital: a
    /// sentence-start rule's advice ("gzip compresses" → "Gzip").
    static func onlyCapitalizes(_ word: String, to replacement: String) -> Bool {
        guard let first = replacement.unicodeScalars.first, first.properties.isUppercase,
              word.unicodeScalars.allSatisfy({ !$0.properties.isUppercase }) else { return false }
        return replacement.lowercased() == word && replacement.dropFirst() == word.dropFirst()
    }

    /// Whether `edit` (request-relative UTF-8 bytes) is shown.
    public func verdict(for edit: ProviderEdit) -> Verdict {
        if !edit.ruleID.isEmpty, dictionary.ignores(rule: edit.ruleID) { return .drop(.ignoredRule(edit.ruleID)) }
        let edit = prepared(edit)
        if let family = RuleFamily.of(ruleID: edit.ruleID, category: edit.category), !preferences.families.contains(family) {
            return .drop(.familyOff(family))
        }
        let range = edit.range.clamped(to: 0..<bytes.count)
        if let kind = shielded.kind(touching: range) { return .drop(.shielded(kind)) }
        if let hazard = EditHazard.of(edit, in: bytes) { return .drop(.hazard(hazard)) }
        if ParagraphScope.crossesParagraph(edit, in: bytes) { return .drop(.crossesParagraph(edit.ruleID)) }
        // The rest is about one word: an edit spanning several words ("a example") is not.
        guard bytes[range].contains(where: ShieldedText.isWordByte), bytes[range].allSatisfy({ ShieldedText.isWordByte($0) || "-.'".utf8.contains($0) }) else {
            return .keep
        }
        let compound = WordShape.compound(around: range, in: bytes)
        guard !compound.isEmpty, compound.lowerBound <= range.lowerBound, range.upperBound <= compound.upperBound,
              let word = String(validating: bytes[compound], as: UTF8.self) else { return .keep }
        if dictionary.contains(word) { return .drop(.userWord(word)) }
        let inner = String(validating: bytes[range], as: UTF8.self) ?? ""
        if inner != word, !inner.isEmpty, dictionary.contains(inner) { return .drop(.userWord(inner)) }
        let shape = WordShape.of(bytes[compound])
        // A word shaped like code is left alone by every rule ("libjpeg" is no sentence start
        // to capitalise); a plain word only by spelling rules.
        if shape.isTechnical { return .drop(.technicalWord(shape)) }
        // Called or indexed like code: `malloc()`, `argv[0]`.
        if compound.upperBound < bytes.count, "([".utf8.contains(bytes[compound.upperBound]) { return .drop(.codeName(word)) }
        if ArticleBeforeCode.applies(to: range, replacement: edit.replacement, in: bytes) { return .drop(.articleBeforeCode) }
        // A possessive's "'s" is no part of the name: the rules below judge "esbuild" in
        // "esbuild's" as they would judge it alone.
        let named = Self.withoutPossessive(compound, in: bytes)
        if named.lowerBound <= range.lowerBound, range.upperBound <= named.upperBound,
           let name = String(validating: bytes[named], as: UTF8.self), systemNames.contains(name) {
            // The word as the edit would leave it: a capital alone may be the whole edit ("g" → "G").
            let corrected = String(decoding: bytes[named.lowerBound..<range.lowerBound] + Array(edit.replacement.utf8)
                                   + bytes[range.upperBound..<named.upperBound], as: UTF8.self)
            if (edit.category == "spelling" && range == named) || Self.onlyCapitalizes(name, to: corrected) {
                return .drop(.systemName(name))
            }
        }
        if edit.category == "spelling", range == named, let name = String(validating: bytes[named], as: UTF8.self) {
            // Only the letter case changes, to two or more capitals ("pkg-config" →
            // "PKG-config"; "english" → "English" is a real error and stays).
            if name.unicodeScalars.allSatisfy({ !$0.isUpperCaseLetter }), name.count > 1,
               edit.replacement.lowercased() == name.lowercased(),
               edit.replacement.unicodeScalars.filter({ $0.isUpperCaseLetter }).count >= 2 {
                return .drop(.capitalsOnly(name))
            }
            let parts = edit.replacement.split(separator: " ")
            if parts.count == 2, parts.joined().lowercased() == name.lowercased(),
               !Self.functionWords.contains(parts[0].lowercased()) {
                return .drop(.joinedName(name))
            }
            if isEnglish, ProperName.applies(word: name, range: named, replacement: edit.replacement, in: bytes) {
                return .drop(.properName(name))
            }
            if AffixedName.applies(word: name, replacement: edit.replacement) { return .drop(.affixedName(name)) }
            if isEnglish, EnglishOnset.applies(word: name, replacement: edit.replacement) { return .drop(.foreignOnset(name)) }
            if isEnglish, EnglishCoda.applies(word: name, replacement: edit.replacement) { return .drop(.foreignCoda(name)) }
            if isEnglish, SpellingVariant.applies(word: name, replacement: edit.replacement, lexicon: lexicon) {
                return .drop(.spellingVariant(name))
            }
        }
        if edit.category == "spelling", preferences.recurringWords > 0,
           counts[bytes[compound], default: 0] >= preferences.recurringWords,
           !EditDistance.withinOne(word.lowercased(), edit.replacement.lowercased()) {
            return .drop(.recurringWord(word))
        }
        if let hazard = EditHazard.ofWord(edit, in: bytes) { return .drop(.hazard(hazard)) }
        return .keep
    }
}
