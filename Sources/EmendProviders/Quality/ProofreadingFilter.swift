import EmendCore

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
    }

    public enum Verdict: Sendable, Equatable {
        case keep
        case drop(Reason)
    }

    public let dictionary: PersonalDictionary
    public let preferences: ProofreadingPreferences
    private let bytes: [UInt8]
    private let shielded: ShieldedText
    /// How often each compound occurs in the text (case-sensitive), for `recurringWords`.
    private let counts: [ArraySlice<UInt8>: Int]

    public init(text: String, protectedRanges: [Range<Int>] = [], dictionary: PersonalDictionary = PersonalDictionary(),
                preferences: ProofreadingPreferences = ProofreadingPreferences()) {
        self.dictionary = dictionary
        self.preferences = preferences
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

    /// Whether `edit` (request-relative UTF-8 bytes) is shown.
    public func verdict(for edit: ProviderEdit) -> Verdict {
        if !edit.ruleID.isEmpty, dictionary.ignores(rule: edit.ruleID) { return .drop(.ignoredRule(edit.ruleID)) }
        if let family = RuleFamily.of(ruleID: edit.ruleID, category: edit.category), !preferences.families.contains(family) {
            return .drop(.familyOff(family))
        }
        let range = edit.range.clamped(to: 0..<bytes.count)
        if let kind = shielded.kind(touching: range) { return .drop(.shielded(kind)) }
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
        if edit.category == "spelling", range == compound {
            // Only the letter case changes, to two or more capitals ("pkg-config" →
            // "PKG-config"; "english" → "English" is a real error and stays).
            if word.unicodeScalars.allSatisfy({ !$0.properties.isUppercase }), word.count > 1,
               edit.replacement.lowercased() == word.lowercased(),
               edit.replacement.unicodeScalars.filter({ $0.properties.isUppercase }).count >= 2 {
                return .drop(.capitalsOnly(word))
            }
            let parts = edit.replacement.split(separator: " ")
            if parts.count == 2, parts.joined().lowercased() == word.lowercased(),
               !Self.functionWords.contains(parts[0].lowercased()) {
                return .drop(.joinedName(word))
            }
        }
        if edit.category == "spelling", preferences.recurringWords > 0,
           counts[bytes[compound], default: 0] >= preferences.recurringWords,
           !EditDistance.withinOne(word.lowercased(), edit.replacement.lowercased()) {
            return .drop(.recurringWord(word))
        }
        return .keep
    }
}
