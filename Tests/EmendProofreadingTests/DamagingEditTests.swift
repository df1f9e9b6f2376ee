import XCTest
import EmendCore
@testable import EmendProofreading

/// The damaging edits testers saw, each refused by the filter every checker's edits pass
/// (`EditHazard`), or by `--write`'s `WriteSafety`; and the edits next to them that stay.
final class DamagingEditTests: XCTestCase {
    private func verdict(_ text: String, _ needle: String, _ replacement: String, category: String = "spelling",
                         rule: String = "MORFOLOGIK_RULE_EN_US") -> ProofreadingFilter.Verdict {
        ProofreadingFilter(text: text).verdict(for: ProviderEdit(range: byteRange(of: needle, in: text), replacement: replacement,
                                                                 explanation: category == "spelling" ? "Possible spelling mistake found." : "",
                                                                 category: category, ruleID: rule))
    }

    func testLaTeXCommandNamesAreNotWords() {
        let text = "We take $\\frac{a}{b}$ and \\nabla here."
        XCTAssertEqual(verdict(text, "frac", "franc"), .drop(.hazard(.commandName("frac"))))
        XCTAssertEqual(verdict(text, "nabla", "nail"), .drop(.hazard(.commandName("nabla"))))
        // The same words without a backslash are prose.
        XCTAssertEqual(verdict("We take frac and nabla here.", "nabla", "nail"), .keep)
    }

    func testAnEditThatDeletesTheDollarClosingMathIsRefused() {
        let text = "Let $x = u$ be given."
        XCTAssertEqual(verdict(text, "u$", "up"), .drop(.hazard(.markupPunctuation("$"))))
        // A replacement that writes markup is refused as well.
        XCTAssertEqual(verdict("Call it now.", "it", "`it`", category: "grammar", rule: "X"), .drop(.hazard(.markupPunctuation("`"))))
        XCTAssertEqual(verdict("if a <b then", "a <b", "a b", category: "grammar", rule: "X"),
                       .drop(.hazard(.markupPunctuation("<"))))
    }

    func testJoiningACodeNameToTheNextWordIsRefused() {
        let text = "It needs libgcc_s and libc, libm at run time."
        XCTAssertEqual(verdict(text, "libgcc_s and", "libgcc_sand", category: "grammar", rule: "JOIN"),
                       .drop(.hazard(.joinsTechnicalWord("libgcc_s"))))
    }

    func testShortLibraryNamesAreNotRespelled() {
        let text = "It needs libgcc_s and libc, libm at run time."
        XCTAssertEqual(verdict(text, "libc", "LBC"), .drop(.hazard(.acronymForName("libc"))))
        XCTAssertEqual(verdict(text, "libm", "limb"), .drop(.hazard(.libraryName("libm"))))
        // A slip of a real word starting with "lib" is still corrected.
        XCTAssertEqual(verdict("The libary is open.", "libary", "library"), .keep)
    }

    func testANameIsNotCutToOneOfItsWords() {
        let text = "See the GNU General Public Licenses for details."
        XCTAssertEqual(verdict(text, "General Public Licenses", "Public", category: "style", rule: "GENERAL_XX"),
                       .drop(.familyOff(.style)))
        let on = ProofreadingFilter(text: text, preferences: ProofreadingPreferences(families: [.style]))
        XCTAssertEqual(on.verdict(for: ProviderEdit(range: byteRange(of: "General Public Licenses", in: text), replacement: "Public",
                                                    category: "style", ruleID: "GENERAL_XX")),
                       .drop(.hazard(.cutsName("General Public Licenses"))))
    }

    func testWriteNeverJoinsOrSplitsDictionaryWords() {
        let safety = WriteSafety(preferences: ProofreadingPreferences(), words: ["plugin", "plug", "in", "a", "lot", "and", "some", "times"])
        XCTAssertEqual(safety.refusal(original: "plugin", replacement: "plug in", category: "spelling", ruleID: "X"),
                       .changesWordBoundaries("plugin"))
        XCTAssertEqual(safety.refusal(original: "libgcc_s and", replacement: "libgcc_sand", category: "grammar", ruleID: "X"),
                       .changesWordBoundaries("libgcc_s and"))
        XCTAssertEqual(safety.refusal(original: "some times", replacement: "sometimes", category: "grammar", ruleID: "X"),
                       .changesWordBoundaries("some times"))
        // A word no dictionary has, cut into words every dictionary has: a real slip.
        XCTAssertNil(safety.refusal(original: "alot", replacement: "a lot", category: "spelling", ruleID: "X"))
        XCTAssertNil(safety.refusal(original: "teh", replacement: "the", category: "spelling", ruleID: "X"))
        // A category that is off is never written.
        XCTAssertEqual(safety.refusal(original: "very unique", replacement: "unique", category: "style", ruleID: "X"),
                       .categoryOff(.style))
    }

    func testWriteNeverRespellsANameOrRehyphenates() {
        let safety = WriteSafety(preferences: ProofreadingPreferences(), words: [])
        // A name no dictionary has, respelled as another word (LanguageTool's speller).
        XCTAssertEqual(safety.refusal(original: "Frobnicator", replacement: "Fornicator", category: "spelling", ruleID: "MORFOLOGIK_RULE_EN_US"),
                       .respellsFar("Frobnicator"))
        XCTAssertEqual(safety.refusal(original: "frobnicate", replacement: "fornicate", category: "spelling", ruleID: "X"),
                       .respellsFar("frobnicate"))
        // Slips of one letter (a transposition counts one) go in, whatever their case.
        for (typed, meant) in [("Teh", "The"), ("recieve", "receive"), ("tomorow", "tomorrow"), ("definately", "definitely"), ("untill", "until")] {
            XCTAssertNil(safety.refusal(original: typed, replacement: meant, category: "spelling", ruleID: "X"), typed)
        }
        // Grammar is judged by its rule, not by letters ("you're" -> "your").
        XCTAssertNil(safety.refusal(original: "you're", replacement: "your", category: "grammar", ruleID: "IN_YOU_RE_NN"))
        XCTAssertEqual(safety.refusal(original: "Quickstart", replacement: "Quick-start", category: "spelling", ruleID: "X"),
                       .changesHyphenation("Quickstart"))
        XCTAssertEqual(safety.refusal(original: "e-mail", replacement: "email", category: "grammar", ruleID: "X"),
                       .changesHyphenation("e-mail"))
    }

    func testWriteSafetyReadsTheInstalledDictionary() throws {
        guard FileManager.default.fileExists(atPath: "/usr/share/hunspell/en_US.dic") else {
            throw XCTSkip("no en_US Hunspell dictionary installed (scripts/install-deps.sh installs hunspell-en-us)")
        }
        let safety = WriteSafety.loading(language: "en-US", preferences: ProofreadingPreferences(), personal: PersonalDictionary())
        XCTAssertTrue(safety.knows("plugin"))
        XCTAssertTrue(safety.knows("plugins"))
        XCTAssertFalse(safety.knows("alot"))
        XCTAssertEqual(safety.refusal(original: "plugin", replacement: "plug in", category: "spelling", ruleID: "X"),
                       .changesWordBoundaries("plugin"))
        XCTAssertNil(safety.refusal(original: "alot", replacement: "a lot", category: "spelling", ruleID: "X"))
    }
}
