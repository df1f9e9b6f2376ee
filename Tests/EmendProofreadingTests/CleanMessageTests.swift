import XCTest
import EmendCore
@testable import EmendProofreading

/// Explanations are plain text with every replacement they propose in the suggestion list,
/// and categories have one meaning whatever checker made them.
final class CleanMessageTests: XCTestCase {
    func testLanguageToolMarkupBecomesQuotesAndTheOtherProposalIsListed() {
        let message = "It's never correct to use 'of' after a modal verb. Use <suggestion>could have</suggestion>, or, in informal register, <suggestion>could've</suggestion>."
        let clean = PlainExplanation.cleaned(message, replacement: "could have", original: "could of")
        XCTAssertEqual(clean, "It's never correct to use 'of' after a modal verb. Use “could have”, or, in informal register, “could've”. Other suggestions: “could've”.")
        XCTAssertFalse(clean.contains("<"))
    }

    func testHarperBackticksAndStrayTagsGo() {
        XCTAssertEqual(PlainExplanation.cleaned("Did you mean `their`?", replacement: "their", original: "there"), "Did you mean “their”?")
        XCTAssertEqual(PlainExplanation.cleaned("Use <marker>this</marker> word.", replacement: "x", original: "y"), "Use this word.")
        // A lone "<" is text.
        XCTAssertEqual(PlainExplanation.cleaned("Use a < b here.", replacement: "x", original: "y"), "Use a < b here.")
    }

    func testAProviderListIsExtendedNotRepeated() {
        let hunspell = "“tomorow” is not in the en_US dictionary. Other suggestions: “morrow”."
        XCTAssertEqual(PlainExplanation.cleaned(hunspell, replacement: "tomorrow", original: "tomorow"), hunspell)
        XCTAssertEqual(PlainExplanation.cleaned("Use <suggestion>a</suggestion> or <suggestion>b</suggestion>. Other suggestions: “c”.",
                                                replacement: "a", original: "x"),
                       "Use “a” or “b”. Other suggestions: “c”, “b”.")
    }

    /// The byte pre-check says "surely not there" only where the String search finds nothing:
    /// with curly quotes, combining marks, and the characters canonically equal to K ; `.
    func testTheBytePreCheckNeverHidesWhatAStringSearchFinds() {
        let texts = ["“tomorow” is not in the en_US dictionary. Other suggestions: “morrow”.", "Did you mean `their`?",
                     "Did you mean \u{1FEF}their\u{1FEF}?", "a \u{212A}elvin", "why\u{037E} not", "Use a <\u{338} b", "", "plain"]
        for text in texts {
            for needle in ["`", "<", "K", ";", "<suggestion>", PlainExplanation.othersMarker, "Kelvin"] {
                if PlainExplanation.surelyLacks(text, needle) {
                    XCTAssertFalse(text.contains(needle), "\(needle) in \(text)")
                }
            }
        }
        XCTAssertTrue(PlainExplanation.surelyLacks("“tomorow” is not in the en_US dictionary.", "<suggestion>"))
        XCTAssertFalse(PlainExplanation.surelyLacks("Did you mean \u{1FEF}their\u{1FEF}?", "`"), "the varia is a backtick to a String")
        XCTAssertEqual(PlainExplanation.cleaned("Did you mean \u{1FEF}their\u{1FEF}?", replacement: "their", original: "there"),
                       PlainExplanation.cleaned("Did you mean `their`?", replacement: "their", original: "there"))
    }

    func testTheFilterHandsOnCleanEdits() {
        let text = "You could of done it."
        let filter = ProofreadingFilter(text: text)
        let edit = filter.prepared(ProviderEdit(range: byteRange(of: "could of", in: text), replacement: "could have",
                                                explanation: "Use <suggestion>could have</suggestion>, or <suggestion>could've</suggestion>.",
                                                category: "grammar", ruleID: "MODAL_OF"))
        XCTAssertEqual(edit.explanation, "Use “could have”, or “could've”. Other suggestions: “could've”.")
        XCTAssertEqual(edit.category, "grammar")
    }

    func testCategoriesHaveFixedMeanings() {
        // LanguageTool's "dont" came as grammar with "Possible spelling mistake found."
        XCTAssertEqual(FixedCategory.of(ruleID: "EN_CONTRACTION_SPELLING", category: "grammar", explanation: "Possible spelling mistake found."), .spelling)
        XCTAssertEqual(FixedCategory.of(ruleID: "EN_SIMPLE_REPLACE_KÖLN", category: "grammar", explanation: "Did you mean Cologne?"), .spelling)
        XCTAssertEqual(FixedCategory.of(ruleID: "MORFOLOGIK_RULE_EN_US", category: "grammar", explanation: ""), .spelling)
        XCTAssertEqual(FixedCategory.of(ruleID: "HUNSPELL", category: "spelling", explanation: ""), .spelling)
        XCTAssertEqual(FixedCategory.of(ruleID: "COMMA_COMPOUND_SENTENCE", category: "grammar", explanation: ""), .style)
        XCTAssertEqual(FixedCategory.of(ruleID: "COMMA_COMPOUND_SENTENCE_2", category: "punctuation", explanation: ""), .style)
        XCTAssertEqual(FixedCategory.of(ruleID: "SENT_START_CONJUNCTIVE_LINKING_ADVERB_COMMA", category: "grammar", explanation: ""), .style)
        XCTAssertEqual(FixedCategory.of(ruleID: "ENGLISH_WORD_REPEAT_BEGINNING_RULE", category: "style", explanation: ""), .style)
        XCTAssertEqual(FixedCategory.of(ruleID: "COMMA_PARENTHESIS_WHITESPACE", category: "grammar", explanation: ""), .punctuation)
        XCTAssertEqual(FixedCategory.of(ruleID: "EN_QUOTES", category: "grammar", explanation: ""), .typography)
        XCTAssertEqual(FixedCategory.of(ruleID: "MODAL_OF", category: "grammar", explanation: "Use could have."), .grammar)
        // Rule ids are compared upper-cased, as bytes when ASCII and as Characters beyond.
        XCTAssertEqual(FixedCategory.of(ruleID: "harper:SpellCheck", category: "grammar", explanation: ""), .spelling)
        XCTAssertEqual(FixedCategory.of(ruleID: "x_Semicolon_y", category: "grammar", explanation: ""), .punctuation)
        XCTAssertEqual(FixedCategory.of(ruleID: "ſpelling", category: "grammar", explanation: ""), .spelling, "ſ upper-cases to S")
        XCTAssertEqual(FixedCategory.of(ruleID: "COMM", category: "grammar", explanation: ""), .grammar)
        XCTAssertEqual(FixedCategory.of(ruleID: "SPELLIN", category: "grammar", explanation: ""), .grammar)
        for category in FixedCategory.allCases {
            XCTAssertEqual(FixedCategory.of(ruleID: "", category: category.rawValue, explanation: ""), category)
        }
    }

    func testPickyRulesAreOffByDefaultAndStyleTurnsThemOn() {
        let text = "We agreed and we left the room after that. However we stayed."
        let edit = ProviderEdit(range: byteRange(of: "However", in: text), replacement: "However,", category: "grammar",
                                ruleID: "SENT_START_CONJUNCTIVE_LINKING_ADVERB_COMMA")
        XCTAssertEqual(ProofreadingFilter(text: text).verdict(for: edit), .drop(.familyOff(.style)))
        let on = ProofreadingFilter(text: text, preferences: ProofreadingPreferences(families: [.style]))
        XCTAssertEqual(on.verdict(for: edit), .keep)
        XCTAssertEqual(on.prepared(edit).category, "style")
    }

    func testRepeatedSentenceStartsCountOnlyInTheirParagraph() {
        let styled = ProofreadingPreferences(families: [.style])
        let message = "Three successive sentences begin with the same word. Consider rewording the sentence."
        func verdict(_ text: String) -> ProofreadingFilter.Verdict {
            let last = text.range(of: "Then", options: .backwards)!
            let start = text.utf8.distance(from: text.startIndex, to: last.lowerBound)
            return ProofreadingFilter(text: text, preferences: styled)
                .verdict(for: ProviderEdit(range: start..<(start + 4), replacement: "", explanation: message, category: "style",
                                           ruleID: "ENGLISH_WORD_REPEAT_BEGINNING_RULE"))
        }
        XCTAssertEqual(verdict("Then we left.\n\nThen we ate.\n\nThen we slept."), .drop(.crossesParagraph("ENGLISH_WORD_REPEAT_BEGINNING_RULE")))
        XCTAssertEqual(verdict("- Then we left.\n- Then we ate.\n- Then we slept."), .drop(.crossesParagraph("ENGLISH_WORD_REPEAT_BEGINNING_RULE")))
        XCTAssertEqual(verdict("Then we left. Then we ate.\n\nThen we slept."), .drop(.crossesParagraph("ENGLISH_WORD_REPEAT_BEGINNING_RULE")))
        XCTAssertEqual(verdict("Then we left. Then we ate. Then we slept."), .keep)
        XCTAssertEqual(verdict("Then we left.\nThen we ate.\nThen we slept."), .keep)
    }
}
