/// The five categories a suggestion can have, with one meaning whatever checker made it.
/// Why: each checker names its own ("TYPOS" holds LanguageTool's "dont" → "don't" and its
/// "Köln" → "Cologne", which its server reported as grammar; Harper's lint kinds are not
/// LanguageTool's categories), so a front end could neither explain a flag nor let the user
/// turn a kind of advice off. `FilteringProofreader` rewrites every edit's category to one of
/// these before anything else looks at it.
public enum FixedCategory: String, Sendable, Equatable, CaseIterable {
    /// A word not in the dictionary, or a word written for another ("dont", "Köln").
    case spelling
    /// Agreement, word forms, confusions, word order.
    case grammar
    /// Commas, full stops, apostrophes, brackets.
    case punctuation
    /// Wordiness, repetition, register; and the "picky" rules that are right only by taste
    /// (`pickyRules`). Off unless `[proofreading] style = true`.
    case style
    /// Ellipsis, dashes, quotes, spacing. Off unless `[proofreading] typography = true`.
    case typography

    /// The category of a suggestion from its checker's rule id, category and message.
    public static func of(ruleID: String, category: String, explanation: String) -> FixedCategory {
        let category = category.lowercased()
        if category == "typography" || RuleFamily.typographyRules.contains(ruleID) { return .typography }
        if pickyRules.contains(ruleID) { return .style }
        if isSpellingRule(ruleID) || category == "spelling" || category == "typo" || category == "typos" { return .spelling }
        if explanation.hasPrefix("Possible spelling mistake") { return .spelling }
        if category == "style" || category == "redundancy" { return .style }
        if category == "punctuation" || isPunctuationRule(ruleID) { return .punctuation }
        return .grammar
    }

    /// Rules that are taste, not error, and the most frequent false alarms on correct
    /// sentences: style whatever their checker calls them.
    public static let pickyRules: Set<String> = [
        "ENGLISH_WORD_REPEAT_BEGINNING_RULE", "COMMA_COMPOUND_SENTENCE", "COMMA_COMPOUND_SENTENCE_2",
        "SENT_START_CONJUNCTIVE_LINKING_ADVERB_COMMA", "PUNCTUATION_PARAGRAPH_END", "TOO_LONG_SENTENCE",
        "TOO_LONG_PARAGRAPH", "PASSIVE_VOICE", "READABILITY_RULE_SIMPLE", "READABILITY_RULE_DIFFICULT",
        "EN_REPEATEDWORDS_GOOD", "EN_REPEATEDWORDS_NICE", "EN_REPEATEDWORDS_IMPORTANT", "WORD_REPEAT_BEGINNING_RULE",
        "STYLE_REPEATED_WORD_RULE", "EN_PLAIN_ENGLISH_REPLACE", "EN_WORDINESS_PREMIUM",
        // Harper's comma after "However" at a sentence start, as SENT_START_CONJUNCTIVE_LINKING_ADVERB_COMMA.
        "DiscourseMarkers",
    ]

    /// Dictionary spellers (`MORFOLOGIK_RULE_EN_US`, `HUNSPELL`, Harper's `SpellCheck`) and
    /// rules that replace one misspelt form by its word (`EN_CONTRACTION_SPELLING` "dont",
    /// `EN_SIMPLE_REPLACE_KÖLN`).
    static func isSpellingRule(_ id: String) -> Bool {
        contains(id, anyOf: spellingMarks)
    }

    static func isPunctuationRule(_ id: String) -> Bool {
        contains(id, anyOf: punctuationMarks)
    }

    private static let spellingMarks = ["MORFOLOGIK", "SPELLER", "HUNSPELL", "SPELLCHECK", "SPELLING", "SIMPLE_REPLACE"]
        .map { Array($0.utf8) }
    private static let punctuationMarks = ["COMMA", "PUNCTUATION", "APOSTROPHE", "SEMICOLON", "UNPAIRED_BRACKETS", "QUESTION_MARK",
                                           "EXCLAMATION_MARK", "DOUBLE_PUNCTUATION"].map { Array($0.utf8) }

    /// Whether `id`, upper-cased, contains one of the (ASCII, upper-case) `marks`. An ASCII id
    /// is compared as bytes. Why: `String.contains` of a string cost a tenth of the CPU
    /// of a proofread with thousands of suggestions (every edit is categorised).
    static func contains(_ id: String, anyOf marks: [[UInt8]]) -> Bool {
        guard id.utf8.allSatisfy({ $0 < 0x80 }) else {
            // Beyond ASCII, upper-casing can make ASCII letters ("ſ" → "S"): as Strings.
            let upper = id.uppercased()
            return marks.contains { upper.contains(String(decoding: $0, as: UTF8.self)) }
        }
        let upper = id.utf8.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }
        return marks.contains { needle in
            guard needle.count <= upper.count else { return false }
            for start in 0...(upper.count - needle.count) where upper[start] == needle[0] {
                if upper[start..<start + needle.count].elementsEqual(needle) { return true }
            }
            return false
        }
    }
}
