import XCTest
import EmendCore
@testable import EmendProofreading

/// The filter's rules for the false alarms of README prose — code elements, tokens in backticks,
/// articles before code, names inside sentences, names built on words, words no English
/// word starts like — each next to a real error that must stay flagged.
final class TechnicalProseFilterTests: XCTestCase {
    /// The verdict on an edit of the first occurrence of `word` in `text`.
    private func verdict(_ word: String, _ replacement: String, in text: String, category: String = "spelling",
                         rule: String = "SpellCheck") -> ProofreadingFilter.Verdict {
        ProofreadingFilter(text: text).verdict(for: ProviderEdit(range: byteRange(of: word, in: text), replacement: replacement,
                                                                 category: category, ruleID: rule))
    }

    func testOptionsAndPathsInsideBackticksKeepTheirShapeButAPlainWordIsChecked() {
        let text = "Pass `--json` or run `./autogen.sh`; `teh` and `cairo` are words to check."
        XCTAssertEqual(verdict("json", "Jason", in: text), .drop(.shielded(.commandOption)))
        XCTAssertEqual(verdict("autogen", "autogenous", in: text), .drop(.shielded(.path)))
        XCTAssertEqual(verdict("teh", "the", in: text), .keep, "code spans are the engine's to protect")
        XCTAssertEqual(verdict("cairo", "Cairo", in: text), .keep)
    }

    func testCodeElementsAreShieldedButNotTheProseAroundThem() {
        let text = "Press <kbd>Esc</kbd> or <code class=\"x\">gdk_init</code> to close the dailog."
        XCTAssertEqual(verdict("Esc", "Es", in: text), .drop(.shielded(.codeElement)))
        XCTAssertEqual(verdict("dailog", "dialog", in: text), .keep)
        XCTAssertEqual(verdict("close", "clothe", in: text), .keep)
        XCTAssertEqual(ShieldedText(text).ranges.filter { $0.kind == .codeElement }.count, 2)
    }

    func testWordsBehindASigilAndHiddenFilesAreShielded() {
        let text = "Pass a `&mut Vec` to $HOME or %APPDATA%, thanks @octocat (#1423); the .env and .gitignore files are recieved."
        XCTAssertEqual(verdict("mut", "mat", in: text), .drop(.shielded(.sigil)))
        XCTAssertEqual(verdict("HOME", "Home", in: text), .drop(.shielded(.sigil)))
        XCTAssertEqual(verdict("APPDATA", "App data", in: text), .drop(.shielded(.sigil)))
        XCTAssertEqual(verdict("octocat", "octet", in: text), .drop(.shielded(.sigil)))
        XCTAssertEqual(verdict("env", "Env", in: text, category: "grammar", rule: "SentenceCapitalization"), .drop(.shielded(.path)))
        XCTAssertEqual(verdict("gitignore", "git ignore", in: text), .drop(.shielded(.path)))
        XCTAssertEqual(verdict("recieved", "received", in: text), .keep)
        XCTAssertEqual(verdict("files", "file", in: text, category: "grammar", rule: "X"), .keep)
        XCTAssertEqual(verdict("and", "an", in: "Wait ...and see.", category: "grammar", rule: "X"), .keep, "an ellipsis is no hidden file")
    }

    func testAPathOfCodeJoinedByDoubleColonsIsTechnical() {
        let text = "Returns ParseError::Eof or std::vector, not a recieved: value."
        XCTAssertEqual(verdict("Eof", "EOF", in: text), .drop(.technicalWord(.dotted)))
        XCTAssertEqual(verdict("std", "STD", in: text), .drop(.technicalWord(.dotted)))
        XCTAssertEqual(verdict("recieved", "received", in: text), .keep, "a single colon joins nothing")
    }

    func testEmojiShortcodesAreShieldedButNotColonsInsideWords() {
        let text = "PRs welcome :tada: and :white_check_mark: :+1: at 12:30:45 on localhost:8000 in std::io; the tada recieved."
        XCTAssertEqual(verdict("tada", "taxa", in: text), .drop(.shielded(.emojiShortcode)))
        XCTAssertEqual(verdict("white_check_mark", "x", in: text), .drop(.shielded(.emojiShortcode)))
        XCTAssertEqual(ShieldedText.emojiShortcodes(Array(text.utf8)).count, 3, "not the time, the port or the path")
        let plain = byteRange(of: "the tada", in: text).lowerBound + 4
        XCTAssertEqual(ProofreadingFilter(text: text).verdict(for: ProviderEdit(range: plain..<(plain + 4), replacement: "taxa",
                                                                                  category: "spelling")), .keep)
        XCTAssertEqual(verdict("recieved", "received", in: text), .keep)
    }

    func testAnArticleBeforeCodeIsLeftAsWritten() {
        let text = "Emacs talks to an lsp-mode client and an SQL server; it is a apple."
        XCTAssertEqual(verdict("an", "a", in: text, category: "grammar", rule: "AnA"), .drop(.articleBeforeCode))
        let sql = ProofreadingFilter(text: text)
        let at = byteRange(of: "an SQL", in: text).lowerBound
        XCTAssertEqual(sql.verdict(for: ProviderEdit(range: at..<(at + 2), replacement: "a", category: "grammar", ruleID: "EN_A_VS_AN")),
                       .drop(.articleBeforeCode))
        XCTAssertEqual(verdict("a apple", "an apple", in: text, category: "grammar", rule: "AnA"), .keep)
        let plain = "It is a apple."
        XCTAssertEqual(verdict("a", "an", in: plain, category: "grammar", rule: "AnA"), .keep, "before a plain word")
    }

    func testACapitalisedNameInsideASentenceIsNotMisspelt() {
        let text = "The GPU path needs Vulkan drivers, Deno and Febuary; Vulkan's docs are tomorow."
        XCTAssertEqual(verdict("Vulkan", "Vulcan", in: text), .drop(.properName("Vulkan")))
        XCTAssertEqual(verdict("Deno", "Demo", in: text), .drop(.properName("Deno")), "after a comma")
        XCTAssertEqual(verdict("Febuary", "February", in: text), .keep, "a month learners misspell")
        XCTAssertEqual(verdict("tomorow", "tomorrow", in: text), .keep)
        XCTAssertEqual(verdict("Vulkan", "Vulcan", in: "Vulkan is fast."), .keep, "a sentence start")
        XCTAssertEqual(verdict("Vulkan", "Vulcan", in: "It is fast. Vulkan too."), .keep, "after a full stop")
        XCTAssertEqual(verdict("Vulkan", "Vulcan", in: "Note: Vulkan too."), .keep, "after a colon")
        XCTAssertEqual(verdict("Pizza", "pizza", in: "I like Pizza."), .keep, "only the letter case changes")
    }

    func testANameBuiltOnAWordIsNotItsSlip() {
        let text = "Use virtualenv and pytest, not glibc; it happend untill now, a suprise, frome here."
        XCTAssertEqual(verdict("virtualenv", "virtual", in: text), .drop(.affixedName("virtualenv")))
        XCTAssertEqual(verdict("pytest", "test", in: text), .drop(.affixedName("pytest")))
        XCTAssertEqual(verdict("happend", "happen", in: text), .keep, "one letter cut: a dropped e of -ed")
        XCTAssertEqual(verdict("happend", "happened", in: text), .keep)
        XCTAssertFalse(AffixedName.applies(word: "glibc", replacement: "glib"), "one letter cut: as often a slip")
        XCTAssertEqual(verdict("untill", "until", in: text), .keep)
        XCTAssertEqual(verdict("suprise", "uprise", in: text), .keep)
        XCTAssertEqual(verdict("frome", "from", in: text), .keep)
    }

    func testAWordNoEnglishWordEndsLikeIsAName() {
        let text = "The systemd unit, glibc and fluentd; the strenght of it doesnt matter, it happend."
        XCTAssertEqual(verdict("systemd", "system", in: text), .drop(.foreignCoda("systemd")))
        XCTAssertEqual(verdict("glibc", "glib", in: text), .drop(.foreignCoda("glibc")))
        XCTAssertEqual(verdict("fluentd", "fluent", in: text), .drop(.foreignCoda("fluentd")))
        XCTAssertEqual(verdict("strenght", "strength", in: text), .keep, "two letters swapped")
        XCTAssertEqual(verdict("doesnt", "doesn't", in: text), .keep, "a letter restored")
        XCTAssertEqual(verdict("happend", "happen", in: text), .keep, "an English end")
        XCTAssertEqual(verdict("unit", "unity", in: text), .keep)
        XCTAssertEqual(verdict("adn", "ad", in: "Salt adn pepper."), .keep, "too short to tell")
    }

    func testAPossessiveIsJudgedAsItsName() {
        let text = "Hot reloading uses esbuild's watch mode and Vulkan's API; the systemd's unit is recieved."
        XCTAssertEqual(verdict("esbuild", "build", in: text), .drop(.affixedName("esbuild")))
        XCTAssertEqual(verdict("Vulkan", "Vulcan", in: text), .drop(.properName("Vulkan")))
        XCTAssertEqual(verdict("systemd", "system", in: text), .drop(.foreignCoda("systemd")))
        XCTAssertEqual(verdict("recieved", "received", in: text), .keep)
    }

    func testAWordNoEnglishWordStartsLikeIsAName() {
        let text = "The ncurses UI runs behind nginx and wget; hte bcause thhe ones are slips."
        XCTAssertEqual(verdict("ncurses", "nurses", in: text), .drop(.foreignOnset("ncurses")))
        XCTAssertEqual(verdict("nginx", "nine", in: text), .drop(.foreignOnset("nginx")))
        XCTAssertEqual(verdict("wget", "widget", in: text), .drop(.foreignOnset("wget")))
        XCTAssertEqual(verdict("hte", "the", in: text), .keep, "two letters swapped")
        XCTAssertEqual(verdict("bcause", "because", in: text), .keep, "a letter dropped")
        XCTAssertEqual(verdict("thhe", "the", in: text), .keep, "a letter doubled")
        XCTAssertEqual(verdict("slips", "slip", in: text), .keep, "an English start")
    }
}
