import Foundation
import Glibc
import XCTest
import EmendTestSupport

/// `--language` is checked against the installed proofreaders before any work: a tag that is
/// no language, or that no installed proofreader serves, is a usage error (exit 2) that lists
/// what is installed; a checker that cannot serve a real language (Hunspell with no dictionary
/// for it) is named on standard error, not skipped without a word.
final class LanguageOptionTests: XCTestCase {
    private var sandbox: CLISandbox!

    override func setUp() { sandbox = CLISandbox() }
    override func tearDown() { sandbox = nil }

    func testAWordThatIsNoLanguageTagIsAnError() {
        sandbox.write("t.txt", "I beleive it.\n")
        let result = sandbox.run(["proofread", "--language", "german", "t.txt"])
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(result.stderr.contains("--language german: not a BCP 47 language tag"), result.stderr)
        XCTAssertTrue(result.stderr.contains("installed: any language (org.emend.fixture)"), result.stderr)
        XCTAssertFalse(result.stderr.contains("no suggestions"), result.stderr)
    }

    func testAnUnknownLanguageCodeIsAnError() throws {
        try XCTSkipUnless(FileManager.default.isReadableFile(atPath: "/usr/share/iso-codes/json/iso_639-3.json"),
                          "iso-codes is not installed (bash scripts/install-deps.sh)")
        sandbox.write("t.txt", "I beleive it.\n")
        let result = sandbox.run(["proofread", "--language", "xx-YY", "t.txt"])
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(result.stderr.contains("--language xx-YY: \"xx\" is not a language code (ISO 639)"), result.stderr)
        // A real language the fixture serves (it declares no list) still works.
        let german = sandbox.run(["proofread", "--language", "de-DE", "t.txt"])
        XCTAssertEqual(german.status, 1, german.stderr)
    }

    /// Hunspell built from providers/hunspell and found through EMEND_PROVIDER_PATH, with the
    /// scanner discovery runs (scripts/build-scanner.sh).
    private func installHunspell() throws {
        guard (try? TestProcess.shell("pkg-config --exists hunspell")) != nil,
              FileManager.default.isReadableFile(atPath: "/usr/share/hunspell/en_US.dic") else {
            throw XCTSkip("libhunspell-dev or hunspell-en-us is not installed (bash scripts/install-deps.sh)")
        }
        let plugins = sandbox.root + "/plugins"
        try TestProcess.shell("/bin/sh '\(CLISandbox.repoRoot)/providers/hunspell/build.sh' '\(plugins)'")
        try TestProcess.shell("bash '\(CLISandbox.repoRoot)/scripts/build-scanner.sh' '\(sandbox.root)'")
        sandbox.environment["EMEND_PROVIDER_PATH"] = plugins
        sandbox.environment["EMEND_SCANNER"] = sandbox.root + "/emend-scan"
        let listing = sandbox.run(["providers"]).stdout
        XCTAssertTrue(listing.contains("org.emend.hunspell — "), listing)
    }

    func testALanguageOnlyHunspellCouldServeWithoutItsDictionaryListsTheInstalledOnes() throws {
        try installHunspell()
        try XCTSkipIf(FileManager.default.fileExists(atPath: "/usr/share/hunspell/xh_ZA.dic"), "a Xhosa dictionary is installed")
        sandbox.write("t.txt", "Molo, unjani?\n")
        let result = sandbox.run(["proofread", "--language", "xh-ZA", "t.txt"])
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(result.stderr.contains("--language xh-ZA: no installed proofreader serves it (installed: "), result.stderr)
        XCTAssertTrue(result.stderr.contains("en_US"), result.stderr)
        XCTAssertTrue(result.stderr.contains("(org.emend.hunspell)"), result.stderr)
    }

    /// A real language none of whose Hunspell dictionaries is installed here (German is, since
    /// install-deps.sh installs hunspell-de-de for language detection).
    private func languageWithoutADictionary() throws -> (tag: String, suffix: String) {
        // The suffix of Debian's package: hunspell-fr (there is no hunspell-fr-fr).
        for (tag, file) in [("fr-FR", "fr_FR"), ("it-IT", "it_IT"), ("nl-NL", "nl_NL"), ("sv-SE", "sv_SE")]
        where !FileManager.default.fileExists(atPath: "/usr/share/hunspell/\(file).dic") {
            return (tag, String(tag.prefix(2)))
        }
        throw XCTSkip("French, Italian, Dutch and Swedish Hunspell dictionaries are all installed")
    }

    func testHunspellWithoutTheDictionaryIsNamedAndSkipped() throws {
        try installHunspell()
        let (tag, suffix) = try languageWithoutADictionary()
        try FileManager.default.createDirectory(atPath: sandbox.root + "/config/emend", withIntermediateDirectories: true)
        try "[tools]\nproofread = [\"org.emend.hunspell\", \"org.emend.fixture\"]\n"
            .write(toFile: sandbox.root + "/config/emend/config.toml", atomically: true, encoding: .utf8)
        sandbox.write("t.txt", "Je ne le beleive pas.\n")
        let result = sandbox.run(["proofread", "--language", tag, "t.txt"])
        XCTAssertNotEqual(result.status, 2, result.stderr)
        XCTAssertTrue(result.stderr.contains("note: Hunspell spelling (org.emend.hunspell) has no dictionary for \(tag) (installed: "),
                      result.stderr)
        XCTAssertTrue(result.stderr.contains("en_US"), result.stderr)
        XCTAssertTrue(result.stderr.contains("on Debian, the hunspell-\(suffix) package"), result.stderr)
        // Skipped with the reason, not a gap: the fixture's suggestion, exit 1, not 4.
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertFalse(result.stderr.contains("partial"), result.stderr)
        XCTAssertTrue(result.stderr.contains("org.emend.hunspell did not take part: no Hunspell dictionary for the language \(tag)"),
                      result.stderr)
        let json = sandbox.run(["proofread", "--json", "--language", tag, "t.txt"])
        XCTAssertEqual(json.status, 1, json.stderr)
        let object = try? JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        XCTAssertEqual((object?["warnings"] as? [String: Any])?["incompleteResults"] as? Bool, false, json.stdout)
        // en-US is served by the same configuration without a note.
        let english = sandbox.run(["proofread", "--language", "en-US", "t.txt"])
        XCTAssertFalse(english.stderr.contains("note:"), english.stderr)
    }

    /// Without --language, a German paragraph inside English is detected (libexttextcat) and
    /// checked as German: Hunspell's German dictionary flags its slip, and --json names it.
    func testAGermanParagraphInsideEnglishIsCheckedAsGerman() throws {
        try installHunspellWithGerman()
        sandbox.write("notes.md", Self.mixedNotes)
        let result = sandbox.run(["proofread", "--json", "notes.md"])
        XCTAssertEqual(result.status, 1, result.stderr)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], result.stdout)
        let matches = object["matches"] as? [[String: Any]] ?? []
        let fixes = matches.compactMap { ($0["replacements"] as? [[String: Any]])?.first?["value"] as? String }
        XCTAssertEqual(fixes, ["believe", "verbessert"], result.stdout)
        XCTAssertTrue(matches.allSatisfy { ($0["message"] as? String ?? "").contains("en_US") == (($0["line"] as? Int) == 3) },
                      "English slips against en_US, German ones against de_DE: \(result.stdout)")
        let detected = (object["language"] as? [String: Any])?["detectedLanguages"] as? [[String: Any]] ?? []
        XCTAssertEqual(detected.map { $0["code"] as? String }, ["de"], result.stdout)
        XCTAssertEqual(detected.first?["line"] as? Int, 5, result.stdout)
        // Asked for English, every paragraph is English: the German one's words are flagged as English.
        let english = sandbox.run(["proofread", "--json", "--language", "en-US", "notes.md"])
        let englishObject = try? JSONSerialization.jsonObject(with: Data(english.stdout.utf8)) as? [String: Any]
        XCTAssertNil((englishObject?["language"] as? [String: Any])?["detectedLanguages"], english.stdout)
        XCTAssertGreaterThan((englishObject?["matches"] as? [Any])?.count ?? 0, 2, english.stdout)
    }

    /// Hunspell alone (config.toml), German's dictionary and libexttextcat installed.
    private func installHunspellWithGerman() throws {
        try installHunspell()
        try HunspellLanguages.skipUnlessInstalled()
        try HunspellLanguages.configureHunspellAlone(home: sandbox.root)
    }

    private static let mixedNotes = """
        # Release notes

        We have fixed the startup crash and improved the speed of the importer. I beleive it is ready.

        Wir haben den Fehler beim Starten behoben und die Geschwindigkeit verbesert. Ich glaube, dass die neue Version fertig ist.

        """

    private func replacements(_ stdout: String) -> [String] {
        let object = try? JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any]
        let matches = object?["matches"] as? [[String: Any]] ?? []
        return matches.compactMap { ($0["replacements"] as? [[String: Any]])?.first?["value"] as? String }
    }

    /// `--provider ID` gets the same one proofreader as the default checkers, with just that
    /// checker: the German paragraph is checked as German, not flagged word by word as English.
    func testANamedProviderChecksEachParagraphInItsLanguageToo() throws {
        try installHunspellWithGerman()
        sandbox.write("notes.md", Self.mixedNotes)
        let result = sandbox.run(["proofread", "--json", "--provider", "org.emend.hunspell", "notes.md"])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertEqual(replacements(result.stdout), ["believe", "verbessert"], result.stdout)
        // A provider that is not installed is still an error that lists what is, never another checker.
        let unknown = sandbox.run(["proofread", "--provider", "org.emend.nothing", "notes.md"])
        XCTAssertNotEqual(unknown.status, 1, unknown.stderr)
        XCTAssertTrue(unknown.stderr.contains("no provider \"org.emend.nothing\""), unknown.stderr)
    }

    /// --write judges a suggestion that splits a word with the dictionaries of its paragraph's
    /// language: `inzwei` → `in zwei` in a German paragraph is two German words (held back
    /// against English dictionaries, which lack `zwei`).
    func testWriteJudgesAGermanSplitWithGermanDictionaries() throws {
        try installHunspellWithGerman()
        sandbox.write("notes.txt", """
            We have fixed the startup crash and improved the speed of the importer. I beleive it is ready.

            Wir haben den Fehler beim Starten behoben und die Geschwindigkeit verbessert. Ich glaube, dass die neue Version inzwei Tagen fertig ist.

            """)
        let shown = sandbox.run(["proofread", "--json", "notes.txt"])
        XCTAssertEqual(replacements(shown.stdout), ["believe", "in zwei"], shown.stdout)
        let result = sandbox.run(["proofread", "--write", "notes.txt"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let written = sandbox.read("notes.txt")
        XCTAssertTrue(written.contains("I believe it is ready."), written)
        XCTAssertTrue(written.contains("die neue Version in zwei Tagen fertig ist."), "\(result.stderr)\n\(written)")
        XCTAssertFalse(result.stderr.contains("not applied"), result.stderr)
    }

    /// A paragraph detected as a language with no dictionary installed went unchecked: a
    /// partial result (exit 4, incompleteResults) whose message names the language and the
    /// package to install, not a note.
    func testADetectedLanguageWithoutItsDictionaryIsAPartialResult() throws {
        try installHunspellWithGerman()
        try XCTSkipIf(FileManager.default.fileExists(atPath: "/usr/share/hunspell/fr_FR.dic"), "a French dictionary is installed")
        sandbox.write("notes.md", """
            We have fixed the startup crash and improved the speed of the importer. I beleive it is ready.

            Nous avons corrigé le plantage au démarrage et nettement amélioré la vitesse de l'importateur. Je pense que la nouvelle version est prête.

            """)
        let result = sandbox.run(["proofread", "notes.md"])
        XCTAssertEqual(result.status, 4, result.stderr)
        XCTAssertTrue(result.stderr.contains("warning: notes.md: partial result: org.emend.hunspell failed and was left out: "
                                             + "in the paragraphs detected as fr: no Hunspell dictionary for the language fr"), result.stderr)
        XCTAssertTrue(result.stderr.contains("hunspell-fr"), result.stderr)
        let json = sandbox.run(["proofread", "--json", "notes.md"])
        XCTAssertEqual(json.status, 4, json.stderr)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], json.stdout)
        let warnings = object["warnings"] as? [String: Any]
        XCTAssertEqual(warnings?["incompleteResults"] as? Bool, true, json.stdout)
        XCTAssertTrue((warnings?["incompleteResultsReason"] as? String ?? "").contains("detected as fr"), json.stdout)
        XCTAssertEqual(replacements(json.stdout), ["believe"], "the English slip is still found: \(json.stdout)")
    }
}
