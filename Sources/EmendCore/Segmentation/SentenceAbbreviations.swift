/// Words whose trailing period does not end a sentence (abbreviations, initials, dotted acronyms).
enum SentenceAbbreviations {
    /// Lowercased abbreviations without their final period.
    static let known: Set<String> = [
        "mr", "mrs", "ms", "mx", "dr", "prof", "sr", "jr", "st", "vs", "etc", "e.g", "i.e",
        "cf", "approx", "dept", "fig", "figs", "gen", "gov", "lt", "col", "capt", "sgt", "rev",
        "hon", "mt", "ave", "esp", "incl", "resp", "viz", "al", "ca", "vol", "pp", "eq", "ref",
        "z.b", "d.h", "bzw", "usw", "u.a", "mme", "mlle",
    ]

    /// Abbreviations that may also close a sentence: they end one when a capital letter follows.
    static let sentenceFinal: Set<String> = ["etc"]

    /// How the period after `word` behaves: `nil` when it is an ordinary word.
    enum Kind { case always, unlessCapitalFollows }

    /// Classifies the word (the text just before a period, without it).
    static func kind(of word: String) -> Kind? {
        guard !word.isEmpty else { return nil }
        let lower = word.lowercased()
        if sentenceFinal.contains(lower) { return .unlessCapitalFollows }
        if known.contains(lower) { return .always }
        if word.count == 1, let c = word.first, c.isUppercase { return .always }
        let parts = word.split(separator: ".", omittingEmptySubsequences: false)
        if parts.count >= 2 && parts.allSatisfy({ $0.count == 1 && $0.first!.isLetter }) {
            return .always
        }
        return nil
    }
}
