import EmendCore

/// The `WriteSafety` of each paragraph's language: the detected language's dictionaries for
/// the paragraphs language detection checked in another language (`Completeness.languages`),
/// the request's for the rest. Why: `--write` holds back a suggestion that joins or splits
/// words unless every word it writes is in a dictionary, and a German paragraph's
/// `istfertig` → `ist fertig` looked up in English ones was held back (and an English word
/// that is also German could let a bad German split through). Each language's dictionaries
/// are read once, when a finding in it first needs them.
public struct WriteSafetyByLanguage {
    public let language: String
    public let detected: [Completeness.DetectedLanguage]
    public let preferences: ProofreadingPreferences
    public let personal: PersonalDictionary
    private var loaded: [String: WriteSafety] = [:]

    /// `language`: the request's (a BCP 47 tag); `detected`: the paragraphs in other languages
    /// (disjoint; put in text order here if they are not).
    public init(language: String, detected: [Completeness.DetectedLanguage], preferences: ProofreadingPreferences,
                personal: PersonalDictionary) {
        self.language = language
        self.detected = detected.sorted { $0.range.lowerBound < $1.range.lowerBound }
        self.preferences = preferences
        self.personal = personal
    }

    /// The language of the text at byte `offset`: a binary search of the paragraphs (it runs
    /// once per finding, and a long file has thousands of both).
    public func language(at offset: Int) -> String {
        // The first paragraph that starts after `offset`; the one before it may hold it.
        var low = 0, high = detected.count
        while low < high {
            let middle = (low + high) / 2
            if detected[middle].range.lowerBound <= offset { low = middle + 1 } else { high = middle }
        }
        guard low > 0, detected[low - 1].range.contains(offset) else { return language }
        return detected[low - 1].language
    }

    /// The safety of the paragraph that holds byte `offset`.
    public mutating func safety(at offset: Int) -> WriteSafety {
        let language = language(at: offset)
        if let safety = loaded[language] { return safety }
        let safety = WriteSafety.loading(language: language, preferences: preferences, personal: personal)
        loaded[language] = safety
        return safety
    }
}
