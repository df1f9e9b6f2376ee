import XCTest
import EmendCore
@testable import EmendProofreading

/// The false-alarm rules every proofreading provider's suggestions pass: technical words,
/// shielded text, recurring words, the user's dictionary and ignored rules, rule families.
final class ProofreadingFilterTests: XCTestCase {
    /// A spelling edit on the first occurrence of `word` in `text`.
    private func spelling(_ word: String, in text: String, rule: String = "SpellCheck", category: String = "spelling") -> ProviderEdit {
        let bytes = Array(text.utf8), needle = Array(word.utf8)
        let start = (0...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }!
        return ProviderEdit(range: start..<(start + needle.count), replacement: "x", category: category, ruleID: rule)
    }

    private func verdict(_ word: String, in text: String, category: String = "spelling", rule: String = "SpellCheck",
                         dictionary: PersonalDictionary = PersonalDictionary(),
                         preferences: ProofreadingPreferences = ProofreadingPreferences()) -> ProofreadingFilter.Verdict {
        ProofreadingFilter(text: text, dictionary: dictionary, preferences: preferences)
            .verdict(for: spelling(word, in: text, rule: rule, category: category))
    }

    func testIdentifiersAcronymsAndVersionsAreNotMisspelt() {
        let text = "Link libjpeg_turbo with OpenSSL, CMake and ATK; the APIs of os.path in libpng16, v6b, X.509 and 1.2.3 differ."
        XCTAssertEqual(verdict("libjpeg_turbo", in: text), .drop(.technicalWord(.snakeCase)))
        XCTAssertEqual(verdict("OpenSSL", in: text), .drop(.technicalWord(.camelCase)))
        XCTAssertEqual(verdict("CMake", in: text), .drop(.technicalWord(.camelCase)))
        XCTAssertEqual(verdict("ATK", in: text), .drop(.technicalWord(.acronym)))
        XCTAssertEqual(verdict("APIs", in: text), .drop(.technicalWord(.acronym)))
        XCTAssertEqual(verdict("path", in: text), .drop(.technicalWord(.dotted)), "a word inside os.path")
        XCTAssertEqual(verdict("libpng16", in: text), .drop(.technicalWord(.withDigits)))
        XCTAssertEqual(verdict("v6b", in: text), .drop(.technicalWord(.withDigits)))
        XCTAssertEqual(verdict("X", in: text), .drop(.technicalWord(.withDigits)), "the X of X.509")
        XCTAssertEqual(verdict("differ", in: text), .keep)
    }

    func testLibraryNamesCommandsCapitalsOnlyAndJoinedNames() {
        let text = "Link libcurl, not the library or libary; run npm and gpg, not tomorow."
        XCTAssertEqual(verdict("libcurl", in: text), .drop(.technicalWord(.libraryName)))
        XCTAssertEqual(verdict("libary", in: text), .keep, "a slip of library")
        XCTAssertEqual(verdict("npm", in: text), .drop(.technicalWord(.noVowel)))
        let f = ProofreadingFilter(text: "Edit the toml file and run pathlib; we had alot of fun.")
        XCTAssertEqual(f.verdict(for: ProviderEdit(range: 9..<13, replacement: "TOML", category: "spelling")),
                       .drop(.capitalsOnly("toml")))
        let pkg = ProofreadingFilter(text: "Use toml-file in english.")
        XCTAssertEqual(pkg.verdict(for: ProviderEdit(range: 4..<13, replacement: "TOML-file", category: "spelling")),
                       .drop(.capitalsOnly("toml-file")))
        XCTAssertEqual(pkg.verdict(for: ProviderEdit(range: 17..<24, replacement: "English", category: "spelling")), .keep)
        XCTAssertEqual(f.verdict(for: ProviderEdit(range: 27..<34, replacement: "path lib", category: "spelling")),
                       .drop(.joinedName("pathlib")))
        XCTAssertEqual(f.verdict(for: ProviderEdit(range: 43..<47, replacement: "a lot", category: "spelling")), .keep)
    }

    func testPlainMisspellingsAreKept() {
        let text = "We will meet tomorow, and Their going to recieve it."
        XCTAssertEqual(verdict("tomorow", in: text), .keep)
        XCTAssertEqual(verdict("Their", in: text, category: "grammar", rule: "TheirThey"), .keep)
        XCTAssertEqual(verdict("recieve", in: text), .keep)
    }

    func testUrlsPathsMailHtmlLinksAndCodeShieldEveryRule() {
        let text = "Run ./autogen.sh, see https://exmaple.org/docs/instal or mail someone@exmaple.org; "
            + "a line<br>break and [the manual](docs/manul.md) too."
        XCTAssertEqual(verdict("autogen", in: text, category: "grammar"), .drop(.shielded(.path)))
        XCTAssertEqual(verdict("instal", in: text), .drop(.shielded(.url)))
        XCTAssertEqual(verdict("someone", in: text), .drop(.shielded(.email)))
        XCTAssertEqual(verdict("br", in: text), .drop(.shielded(.htmlTag)))
        XCTAssertEqual(verdict("manul", in: text), .drop(.shielded(.linkDestination)))
        XCTAssertEqual(verdict("manual", in: text), .keep, "link text is prose")
        let options = "Run git rebase -i or pass --as-needed and -DBUILD_SHARED=ON; a well-known - dash."
        XCTAssertEqual(ProofreadingFilter(text: options).verdict(for: ProviderEdit(range: 16..<17, replacement: "I", category: "grammar")),
                       .drop(.shielded(.commandOption)), "the i of -i")
        XCTAssertEqual(verdict("needed", in: options), .drop(.shielded(.commandOption)))
        XCTAssertEqual(verdict("DBUILD", in: options), .drop(.shielded(.commandOption)))
        XCTAssertEqual(verdict("known", in: options), .keep, "a hyphen inside a word is no option")
        XCTAssertEqual(verdict("line", in: text), .keep)
    }

    func testAWordTheTextRepeatsIsNotMisspeltButOnlyFromTheThreshold() {
        let twice = "Install pixbuf first. Then pixbuf loads."
        let thrice = twice + " Without pixbuf nothing works."
        XCTAssertEqual(verdict("pixbuf", in: twice), .keep)
        XCTAssertEqual(verdict("pixbuf", in: thrice), .drop(.recurringWord("pixbuf")))
        // A typo one letter away from its correction stays a typo however often it is made.
        let typo = "See you tomorow. Not tomorow? Yes, tomorow."
        let filter = ProofreadingFilter(text: typo)
        XCTAssertEqual(filter.verdict(for: ProviderEdit(range: 8..<15, replacement: "tomorrow", category: "spelling")), .keep)
        XCTAssertEqual(filter.verdict(for: ProviderEdit(range: 8..<15, replacement: "tumor", category: "spelling")),
                       .drop(.recurringWord("tomorow")))
        // Occurrences in protected text (code) do not count.
        let code = "Use pixbuf. `pixbuf` and `pixbuf`."
        let protected = ProofreadingFilter(text: code, protectedRanges: [12..<20, 25..<33])
        XCTAssertEqual(protected.verdict(for: ProviderEdit(range: 4..<10, replacement: "pixie", category: "spelling")), .keep)
        XCTAssertEqual(verdict("pixbuf", in: thrice, preferences: ProofreadingPreferences(recurringWords: 0)), .keep)
        XCTAssertEqual(verdict("pixbuf", in: thrice, category: "grammar", rule: "X"), .keep, "only spelling rules")
    }

    func testTheUsersWordsAndIgnoredRules() {
        let dictionary = PersonalDictionary(words: ["pixbuf", "Emend"], ignoredRules: ["LongSentences"])
        let text = "Pixbuf and Emend and EMEND and emend work."
        XCTAssertEqual(verdict("Pixbuf", in: text, dictionary: dictionary), .drop(.userWord("Pixbuf")))
        XCTAssertEqual(verdict("Emend", in: text, dictionary: dictionary), .drop(.userWord("Emend")))
        XCTAssertEqual(verdict("EMEND", in: text, dictionary: dictionary), .drop(.userWord("EMEND")), "an entry accepts its upper case")
        XCTAssertEqual(verdict("emend", in: text, dictionary: dictionary), .keep, "an entry with capitals is not its lower case")
        XCTAssertEqual(verdict("work", in: text, category: "style", rule: "LongSentences", dictionary: dictionary),
                       .drop(.ignoredRule("LongSentences")))
    }

    func testTypographyAndAbbreviationsAreOffUnlessConfigured() {
        let text = "Wait... see ISO 639-3 and pkg-config."
        XCTAssertEqual(verdict("...", in: text, category: "style", rule: "UseEllipsisCharacter"), .drop(.familyOff(.typography)))
        XCTAssertEqual(verdict("-", in: text, category: "typography", rule: "DASH"), .drop(.familyOff(.typography)))
        XCTAssertEqual(verdict("config", in: text, category: "style", rule: "ExpandConfiguration"), .drop(.familyOff(.abbreviations)))
        let on = ProofreadingPreferences(families: [.typography])
        XCTAssertEqual(verdict("...", in: text, category: "style", rule: "UseEllipsisCharacter", preferences: on), .keep)
        XCTAssertEqual(verdict("config", in: text, category: "style", rule: "ExpandConfiguration", preferences: on),
                       .drop(.familyOff(.abbreviations)))
    }

    func testAnEditOverSeveralWordsIsJudgedAsGrammar() {
        let text = "This is a example of an API."
        XCTAssertEqual(verdict("a example", in: text, category: "grammar", rule: "AnA"), .keep)
    }
}
