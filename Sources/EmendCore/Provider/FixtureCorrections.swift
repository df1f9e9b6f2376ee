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
        var text = request.text
        return text.withUTF8 { bytes in edits(in: bytes, request: request) }
    }

    private static func edits(in bytes: UnsafeBufferPointer<UInt8>, request: ProviderRequest) -> [ProviderEdit] {
        // Protected ranges merged and in order, so each word is checked against one of them
        // (a Markdown document has thousands: checking them all per word was quadratic).
        let protected = request.protectedRanges.mergedRanges()
        var next = 0
        let words = WordScanner.words(in: bytes).filter { word in
            guard word.range.lowerBound >= request.selection.lowerBound && word.range.upperBound <= request.selection.upperBound else {
                return false
            }
            while next < protected.count, protected[next].upperBound <= word.range.lowerBound { next += 1 }
            return next == protected.count || !protected[next].overlaps(word.range)
        }
        let lowered = words.map { lowercased($0.text) }
        var edits: [ProviderEdit] = []
        var index = 0
        while index < words.count {
            if let (edit, used) = grammarEdit(at: index, in: words, lowered: lowered, bytes: bytes) {
                edits.append(edit)
                index += used
                continue
            }
            let word = words[index]
            if index + 1 < words.count, lowered[index + 1] == lowered[index],
               word.range.upperBound + 1 == words[index + 1].range.lowerBound {
                edits.append(ProviderEdit(range: word.range.lowerBound..<words[index + 1].range.lowerBound, replacement: "",
                                          explanation: "The word “\(word.text)” is repeated.", category: "grammar",
                                          ruleID: "REPEATED_WORD"))
                index += 2
                continue
            }
            if let fixed = spelling[lowered[index]] {
                edits.append(ProviderEdit(range: word.range, replacement: matchCase(fixed, to: word.text),
                                          explanation: "“\(word.text)” may be misspelled.", category: "spelling",
                                          ruleID: "SPELLING"))
            }
            index += 1
        }
        return edits
    }

    private static func grammarEdit(at index: Int, in words: [WordScanner.Word], lowered: [String],
                                    bytes: UnsafeBufferPointer<UInt8>) -> (ProviderEdit, Int)? {
        for rule in grammar where index + rule.pattern.count <= words.count {
            guard zip(lowered[index..<index + rule.pattern.count], rule.pattern).allSatisfy({ $0 == $1 }) else { continue }
            let range = words[index].range.lowerBound..<words[index + rule.pattern.count - 1].range.upperBound
            let original = String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
            guard original.split(separator: " ").count == rule.pattern.count else { continue }
            return (ProviderEdit(range: range, replacement: matchCase(rule.replacement, to: original),
                                 explanation: rule.explanation, category: rule.category, ruleID: rule.ruleID),
                    rule.pattern.count)
        }
        return nil
    }

    /// `word` in lower case; ASCII without the full Unicode mapping (most words are ASCII).
    private static func lowercased(_ word: String) -> String {
        guard word.utf8.allSatisfy({ $0 < 0x80 }) else { return word.lowercased() }
        guard word.utf8.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) else { return word }
        return String(decoding: word.utf8.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// `word` with the first letter's case of `model`.
    static func matchCase(_ word: String, to model: String) -> String {
        guard let first = model.first, first.isUppercase, let head = word.first else { return word }
        return head.uppercased() + word.dropFirst()
    }
}
