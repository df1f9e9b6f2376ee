import XCTest
import EmendCore
@testable import EmendProofreading

/// `--write` keeps a suggestion only while the checkers still propose it once the earlier
/// suggestions of its sentence are applied; the checker here reads context as LanguageTool's
/// pattern rules do (a rule fires on its words only where its whole pattern stands).
final class NeighbourRecheckTests: XCTestCase {
    /// A pattern rule: where `pattern` stands, `target` (a part of it) becomes `replacement`.
    private struct Rule {
        let pattern: String, target: String, replacement: String
        /// A speller's: it judges its word alone.
        var spelling = false
    }

    private let rules = [
        // LanguageTool's IN_YOU_RE_NN and BEEN_PART_AGREEMENT on "thanks for you're message".
        Rule(pattern: "you're message", target: "you're", replacement: "your"),
        Rule(pattern: "you're message", target: "message", replacement: "messaged"),
        // Independent neighbours.
        Rule(pattern: "They has", target: "has", replacement: "have"),
        Rule(pattern: "a example", target: "a", replacement: "an"),
        Rule(pattern: "teh", target: "teh", replacement: "the", spelling: true),
    ]


    private static func suggestions(_ rules: [Rule], in text: String) -> [NeighbourRecheck.Candidate] {
        var found: [NeighbourRecheck.Candidate] = []
        let bytes = Array(text.utf8)
        for rule in rules {
            let pattern = Array(rule.pattern.utf8), target = Array(rule.target.utf8)
            guard pattern.count <= bytes.count else { continue }
            let within = (0...(pattern.count - target.count)).first { Array(pattern[$0..<($0 + target.count)]) == target }!
            for start in 0...(bytes.count - pattern.count) where Array(bytes[start..<(start + pattern.count)]) == pattern {
                found.append(.init(range: (start + within)..<(start + within + target.count), replacement: rule.replacement,
                                   readsNeighbours: !rule.spelling))
            }
        }
        return found
    }

    private func run(_ text: String) -> (result: String, calls: [String]) {
        var calls: [String] = []
        let candidates = Self.suggestions(rules, in: text)
        // The checker: every rule's suggestions in the text; the texts it was given are kept.
        let keep = NeighbourRecheck.standing(in: Array(text.utf8), candidates: candidates) { bytes in
            let checked = String(decoding: bytes, as: UTF8.self)
            calls.append(checked)
            return Self.suggestions(rules, in: checked)
        }
        var bytes = Array(text.utf8)
        for (candidate, kept) in zip(candidates, keep).sorted(by: { $0.0.range.lowerBound > $1.0.range.lowerBound }) where kept {
            bytes.replaceSubrange(candidate.range, with: Array(candidate.replacement.utf8))
        }
        return (String(decoding: bytes, as: UTF8.self), calls)
    }

    func testASuggestionThatReadItsNeighboursWordsIsHeldBack() {
        let (result, calls) = run("Hi. Thanks for you're message! Bye.\n")
        XCTAssertEqual(result, "Hi. Thanks for your message! Bye.\n")
        // One re-check, of that sentence alone, with the first suggestion applied.
        XCTAssertEqual(calls, ["Thanks for your message!"])
    }

    func testIndependentNeighboursBothGoIn() {
        let (result, calls) = run("They has a example ready.\n")
        XCTAssertEqual(result, "They have an example ready.\n")
        XCTAssertEqual(calls, ["They have a example ready."])
    }

    func testSentencesAreRecheckedTogetherAndRoundsAreBounded() {
        let text = "They has a example, teh end. Lone teh here.\n\nThanks for you're message\nsee teh list"
        let (result, calls) = run(text)
        XCTAssertEqual(result, "They have an example, the end. Lone the here.\n\nThanks for your message\nsee the list")
        // One round: both sentences with several candidates in one text; after it only
        // spelling is left to apply (a speller judges its word alone), so no second round.
        XCTAssertEqual(calls, ["They have a example, teh end.\n\nThanks for your message\nsee teh list"])
    }

    func testSpellingNeedsNoRecheck() {
        // Grammar first, then only spelling: nothing to judge, no re-check.
        let (result, calls) = run("They has teh teh.\n")
        XCTAssertEqual(result, "They have the the.\n")
        XCTAssertEqual(calls, [])
    }

    func testRoundsFollowTheCandidatesThatReadNeighbours() {
        // has, a (grammar) and the pair: each round applies one more of each sentence.
        let (result, calls) = run("They has a example. Thanks for you're message.")
        XCTAssertEqual(result, "They have an example. Thanks for your message.")
        XCTAssertEqual(calls, ["They have a example.\n\nThanks for your message."])
    }

    func testAnIncompleteRecheckHoldsBackWhatItWasToConfirm() {
        let text = "They has a example. Lone teh.\n"
        let candidates = Self.suggestions(rules, in: text)
        let keep = NeighbourRecheck.standing(in: Array(text.utf8), candidates: candidates) { _ in nil }
        let kept = zip(candidates, keep).filter { $0.1 }.map { String(decoding: Array(text.utf8)[$0.0.range], as: UTF8.self) }
        // The first of a sentence needs no re-check, nor does a sentence's only one.
        XCTAssertEqual(Set(kept), ["has", "teh"])
    }

    func testSentenceBounds() {
        let text = Array("One. Two is e.g. here? Three\n\nFour".utf8)
        func sentence(of word: String) -> String {
            let start = Array(text).indices.first { Array(text[$0...]).starts(with: Array(word.utf8)) }!
            return String(decoding: text[NeighbourRecheck.sentence(around: start..<(start + word.utf8.count), in: text)], as: UTF8.self)
        }
        XCTAssertEqual(sentence(of: "One"), "One.")
        XCTAssertEqual(sentence(of: "Two"), "Two is e.g.")
        XCTAssertEqual(sentence(of: "here"), "here?")
        XCTAssertEqual(sentence(of: "Three"), "Three")
        XCTAssertEqual(sentence(of: "Four"), "Four")
    }
}

/// The language of a finding's paragraph, found by a binary search of the detected paragraphs.
final class WriteSafetyByLanguageTests: XCTestCase {
    func testEachOffsetGetsItsParagraphsLanguage() {
        // Paragraphs given out of order, with gaps (the request's language) between them.
        let detected = [Completeness.DetectedLanguage(range: 50..<80, language: "fr"),
                        .init(range: 10..<20, language: "de"), .init(range: 20..<30, language: "nl"),
                        .init(range: 100..<101, language: "it")]
        let safeties = WriteSafetyByLanguage(language: "en-US", detected: detected, preferences: ProofreadingPreferences(),
                                             personal: PersonalDictionary())
        for offset in -1...120 {
            let expected = detected.first { $0.range.contains(offset) }?.language ?? "en-US"
            XCTAssertEqual(safeties.language(at: offset), expected, "\(offset)")
        }
        let none = WriteSafetyByLanguage(language: "en-GB", detected: [], preferences: ProofreadingPreferences(),
                                         personal: PersonalDictionary())
        XCTAssertEqual(none.language(at: 5), "en-GB")
    }
}
