import EmendCore

/// One proofreading suggestion, placed in the text as it was read (the coordinator reports
/// where a suggestion's text is now, i.e. after its replacement went into the document).
struct Finding {
    /// Index of the suggestion in its coordinator's `suggestions`.
    let index: Int
    /// UTF-8 byte range in the original text.
    let range: Range<Int>
    let original: String
    let replacement: String
    let explanation: String
    let category: String
    let ruleID: String

    /// The suggestions of a resting proofread session, placed in the original text: each
    /// one's current range, less what the suggestions before it changed.
    static func from(_ suggestions: [Coordinator.SuggestionInfo]) -> [Finding] {
        // Invalid ones (superseded by a more preferred provider's) hold their original text.
        let placed = suggestions.enumerated().filter { $0.element.state != .invalid }
            .compactMap { index, info in info.range.map { (index, info, $0) } }
            .sorted { $0.2.lowerBound < $1.2.lowerBound }
        var delta = 0
        var findings: [Finding] = []
        for (index, info, range) in placed {
            let start = range.lowerBound - delta
            let inText = info.state == .rejected ? info.original : info.replacement
            delta += inText.utf8.count - info.original.utf8.count
            findings.append(Finding(index: index, range: start..<(start + info.original.utf8.count), original: info.original,
                                    replacement: info.replacement, explanation: info.explanation,
                                    category: info.category, ruleID: info.ruleID))
        }
        return findings
    }

    /// What to say when the provider gave no explanation.
    var message: String {
        if !explanation.isEmpty { return explanation }
        if replacement.isEmpty { return "Remove “\(original)”." }
        if original.isEmpty { return "Insert “\(replacement)”." }
        return "Replace “\(original)” with “\(replacement)”."
    }
}
