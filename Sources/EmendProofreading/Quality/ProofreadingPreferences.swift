/// What the user chose about proofreading advice, from `[proofreading]` in config.toml:
///
/// ```toml
/// [proofreading]
/// typography = true       # ellipsis, dashes, quotes, Oxford comma (default false)
/// abbreviations = true    # "config" -> "configuration" (default false)
/// style = true            # wordiness, repetition, commas of taste (default false)
/// recurring_words = 3     # a word written this often in the text is not a misspelling (0: off)
/// ```
public struct ProofreadingPreferences: Sendable, Equatable {
    /// Rule families whose suggestions are shown.
    public var families: Set<RuleFamily> = []
    /// A word that occurs at least this often in the checked text is taken as spelled on
    /// purpose (a name, a tool); 0 turns this off. Why 3: a misspelling typed the same way
    /// three times is rare, while a project's own names recur in every paragraph.
    public var recurringWords = 3

    public init(families: Set<RuleFamily> = [], recurringWords: Int = 3) {
        self.families = families
        self.recurringWords = recurringWords
    }
}
