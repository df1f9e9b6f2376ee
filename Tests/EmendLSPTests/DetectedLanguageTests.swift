import EmendTestSupport
import Foundation
import XCTest

/// `emend lsp` (the real process) with Hunspell found through discovery and no language in
/// its settings checks each paragraph in the language it is written in, as `emend proofread`
/// does without --language: a German paragraph beside an English one gets no English false
/// alarms while the slips of both are still flagged, and a paragraph in a language whose
/// dictionary is not installed is a warning that says what to install.
final class DetectedLanguageTests: XCTestCase {
    private var homes: [String] = []

    override func tearDown() { for home in homes { try? FileManager.default.removeItem(atPath: home) } }

    /// Hunspell alone (config.toml), built into a providers directory with the scanner.
    private func client() throws -> LSPTestClient {
        try HunspellLanguages.skipUnlessInstalled()
        let home = NSTemporaryDirectory() + "emend-lsp-languages-\(UUID().uuidString)"
        homes.append(home)
        try HunspellLanguages.install(home: home, plugins: home + "/plugins")
        return LSPTestClient(environment: ["XDG_CONFIG_HOME": home + "/config", "EMEND_PROVIDER_PATH": home + "/plugins",
                                           "EMEND_SCANNER": home + "/emend-scan"])
    }

    private static let notes = """
        We have fixed the startup crash and improved the speed of the importer. I beleive it is ready.

        Wir haben den Fehler beim Starten behoben und die Geschwindigkeit verbesert. Ich glaube, dass die neue Version fertig ist.

        """

    func testAGermanParagraphBesideAnEnglishOneIsCheckedAsGerman() throws {
        let client = try client()
        client.initialize(options: ["debounceMs": 0])
        client.open("file:///notes.txt", Self.notes)
        let diagnostics = client.diagnostics("file:///notes.txt", version: 1)
        let flagged = diagnostics.map { diagnostic -> String in
            let range = rangeOf(diagnostic["range"])
            let line = Self.notes.split(separator: "\n", omittingEmptySubsequences: false)[range[0][0]]
            return String(Array(line.utf16)[range[0][1]..<range[1][1]].map { Character(UnicodeScalar($0)!) })
        }
        XCTAssertEqual(flagged, ["beleive", "verbesert"], "\(diagnostics)")
        XCTAssertEqual(diagnostics.map { ($0["message"] as? String ?? "").contains("en_US") }, [true, false], "\(diagnostics)")
        XCTAssertEqual(client.shutdownAndExit(), 0)

        // Set to English by the client, every paragraph is English: the German words are flagged as English.
        let english = try self.client()
        english.initialize(options: ["debounceMs": 0, "language": "en-US"])
        english.open("file:///notes.txt", Self.notes)
        XCTAssertGreaterThan(english.diagnostics("file:///notes.txt", version: 1).count, 2)
        XCTAssertEqual(english.shutdownAndExit(), 0)
    }

    func testADetectedLanguageWithoutItsDictionaryIsAWarningThatSaysWhatToInstall() throws {
        try XCTSkipIf(FileManager.default.fileExists(atPath: "/usr/share/hunspell/fr_FR.dic"), "a French dictionary is installed")
        let client = try client()
        client.initialize(options: ["debounceMs": 0])
        client.open("file:///notes.txt", """
            We have fixed the startup crash and improved the speed of the importer. I beleive it is ready.

            Nous avons corrigé le plantage au démarrage et nettement amélioré la vitesse de l'importateur. Je pense que la nouvelle version est prête.

            """)
        XCTAssertEqual(client.diagnostics("file:///notes.txt", version: 1).count, 1, "the English slip")
        let text = client.warning()
        XCTAssertTrue(text.contains("in the paragraphs detected as fr: no Hunspell dictionary for the language fr"), text)
        XCTAssertTrue(text.contains("hunspell-fr"), text)
        XCTAssertEqual(client.shutdownAndExit(), 0)
    }
}
