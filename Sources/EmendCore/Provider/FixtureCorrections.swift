import EmendText

/// The fixture's proofreading table: misspellings and a few grammar patterns.
enum FixtureCorrections {
    struct Rule {
        let pattern: [String]
        let replacement: String
        let category: String
        let ruleID: String
        let explanation: String
    }

    static let spelling: [String: String] = [
        "tomorow": "tomorrow", "teh": "the", "recieve": "receive", "dont": "don't",
        "isnt": "isn't", "doesnt": "doesn't", "alot": "a lot", "definately": "definitely",
        "seperate": "separate", "occured": "occurred", "wich": "which", "untill": "until",
        "adress": "address", "beleive": "believe", "wierd": "weird", "thier": "their",
    ]

    static let grammar: [Rule] = [
        Rule(pattern: ["could", "of"], replacement: "could have", category: "grammar", ruleID: "COULD_OF",
             explanation: "Use “could have”, not “could of”."),
        Rule(pattern: ["should", "of"], replacement: "should have", category: "grammar", ruleID: "COULD_OF",
             explanation: "Use “should have”, not “should of”."),
        Rule(pattern: ["a", "example"], replacement: "an example", category: "grammar", ruleID: "A_AN",
             explanation: "Use “an” before a vowel sound."),
        Rule(pattern: ["a", "error"], replacement: "an error", category: "grammar", ruleID: "A_AN",
             explanation: "Use “an” before a vowel sound."),
        Rule(pattern: ["they", "has"], replacement: "they have", category: "grammar", ruleID: "AGREEMENT",
             explanation: "“They” takes “have”."),
        Rule(pattern: ["she", "dont"], replacement: "she doesn't", category: "grammar", ruleID: "AGREEMENT",
             explanation: "“She” takes “doesn't”."),
    ]

    /// Suggested edits inside the request's selection, outside protected ranges.
    static func edits(in request: ProviderRequest) -> [ProviderEdit] {
        let words = WordScanner.words(in: request.text).filter {
            $0.range.lowerBound >= request.selection.lowerBound && $0.range.upperBound <= request.selection.upperBound
                && !request.protectedRanges.contains(where: $0.range.overlaps)
        }
        var edits: [ProviderEdit] = []
        var index = 0
        while index < words.count {
            if let (edit, used) = grammarEdit(at: index, in: words, text: request.text) {
                edits.append(edit)
                index += used
                continue
            }
            let word = words[index]
            if index + 1 < words.count, words[index + 1].text.lowercased() == word.text.lowercased(),
               word.range.upperBound + 1 == words[index + 1].range.lowerBound {
                edits.append(ProviderEdit(range: word.range.lowerBound..<words[index + 1].range.lowerBound, replacement: "",
                                          explanation: "The word “\(word.text)” is repeated.", category: "grammar",
                                          ruleID: "REPEATED_WORD"))
                index += 2
                continue
            }
            if let fixed = spelling[word.text.lowercased()] {
                edits.append(ProviderEdit(range: word.range, replacement: matchCase(fixed, to: word.text),
                                          explanation: "“\(word.text)” may be misspelled.", category: "spelling",
                                          ruleID: "SPELLING"))
            }
            index += 1
        }
        return edits
    }

    private static func grammarEdit(at index: Int, in words: [WordScanner.Word], text: String) -> (ProviderEdit, Int)? {
        for rule in grammar where index + rule.pattern.count <= words.count {
            let slice = words[index..<index + rule.pattern.count]
            guard zip(slice, rule.pattern).allSatisfy({ $0.text.lowercased() == $1 }) else { continue }
            let range = slice.first!.range.lowerBound..<slice.last!.range.upperBound
            let original = AttributedText(text).substring(range)
            guard original.split(separator: " ").count == rule.pattern.count else { continue }
            return (ProviderEdit(range: range, replacement: matchCase(rule.replacement, to: original),
                                 explanation: rule.explanation, category: rule.category, ruleID: rule.ruleID),
                    rule.pattern.count)
        }
        return nil
    }

    /// `word` with the first letter's case of `model`.
    static func matchCase(_ word: String, to model: String) -> String {
        guard let first = model.first, first.isUppercase, let head = word.first else { return word }
        return head.uppercased() + word.dropFirst()
    }
}
