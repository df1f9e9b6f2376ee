/// Families of rules that the user turns on or off as a whole, across checkers. Why: the
/// same advice comes from several checkers under different ids (Harper's
/// `UseEllipsisCharacter`, LanguageTool's `EN_ELLIPSIS`), and on technical prose these rules
/// are mostly false alarms ("ISO 639-3" → en dash, "pkg-config" → "pkg-configuration"), so
/// they are off unless `[proofreading]` in config.toml turns them on.
public enum RuleFamily: String, Sendable, Equatable, CaseIterable {
    /// Ellipsis, dashes, quotes and spacing, the Oxford comma.
    case typography
    /// Writing out short forms ("config" → "configuration", "dir" → "directory").
    case abbreviations
    /// Style and the "picky" rules (`FixedCategory.style`): wordiness, repetition, commas
    /// that are a matter of taste. Most of the false alarms on correct sentences.
    case style

    /// The family of a suggestion, from its rule id and category; nil for any other rule.
    public static func of(ruleID: String, category: String) -> RuleFamily? {
        if category == "typography" || typographyRules.contains(ruleID) { return .typography }
        if ruleID.hasPrefix("Expand"), ruleID.count > 6, ruleID.dropFirst(6).first?.isUppercase == true {
            return .abbreviations   // Harper's ExpandConfiguration, ExpandDirectory, ...
        }
        if category == FixedCategory.style.rawValue || FixedCategory.pickyRules.contains(ruleID) { return .style }
        return nil
    }

    /// Typography rules of the checkers that ship with Emend, where their category does not
    /// say so (LingoTweaker's server reports its TYPOGRAPHY category as "typography").
    static let typographyRules: Set<String> = [
        // Harper
        "UseEllipsisCharacter", "EllipsisLength", "NumericRangeEnDash", "Dashes", "OxfordComma", "NoOxfordComma",
        "QuoteSpacing", "Spaces", "NoFrenchSpaces", "WrongApostrophe",
        // LanguageTool's rules (LingoTweaker)
        "EN_ELLIPSIS", "DASH_RULE", "EN_DASH_RULE", "SERIAL_COMMA_ON", "SERIAL_COMMA_OFF", "EN_QUOTES",
        "WHITESPACE_RULE", "ENGLISH_WORD_REPEAT_BEGINNING_RULE_TYPOGRAPHY", "MULTIPLICATION_SIGN", "ARROWS",
    ]
}
