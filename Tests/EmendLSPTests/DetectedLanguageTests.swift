import Foundation
import XCTest

/// `emend lsp` (the real process) with Hunspell found through discovery and no language in
/// its settings checks each paragraph in the language it is written in, as `emend proofread`
/// does without --language: a German paragraph beside an English one gets no English false
/// alarms while the slips of both are still flagged, and a paragraph in a language whose
/// dictionary is not installed is a warning that says what to install.
final class DetectedLanguageTests: XCTestCase {
    private var homes: [String] = []

    private static let repoRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    override func tearDown() { for home in homes { try? FileManager.default.removeItem(atPath: home) } }

    /// Hunspell alone (config.toml), built into a providers directory with the scanner.
    private func client() throws -> LSPTestClient {
        try XCTSkipUnless(FileManager.default.fileExists(atPath: "/usr/share/hunspell/de_DE.dic")
                          && FileManager.default.fileExists(atPath: "/usr/share/hunspell/en_US.dic"),
                          "hunspell-en-us or hunspell-de-de is not installed (bash scripts/install-deps.sh)")
        try XCTSkipUnless(FileManager.default.fileExists(atPath: "/usr/share/libexttextcat/fpdb.conf"),
                          "libexttextcat-data is not installed (bash scripts/install-deps.sh)")
        let home = NSTemporaryDirectory() + "emend-lsp-languages-\(UUID().uuidString)"
        homes.append(home)
        try FileManager.default.createDirectory(atPath: home + "/config/emend", withIntermediateDirectories: true)
        try shell("/bin/sh '\(Self.repoRoot)/providers/hunspell/build.sh' '\(home)/plugins'")
        try shell("bash '\(Self.repoRoot)/scripts/build-scanner.sh' '\(home)'")
        try "[tools]\nproofread = [\"org.emend.hunspell\"]\n".write(toFile: home + "/config/emend/config.toml", atomically: true, encoding: .utf8)
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
        let message = client.wait("window/showMessage") { $0["method"] as? String == "window/showMessage" }
        let params = message?["params"] as? [String: Any]
        XCTAssertEqual(params?["type"] as? Int, 2, "a warning")
        let text = params?["message"] as? String ?? ""
        XCTAssertTrue(text.contains("in the paragraphs detected as fr: no Hunspell dictionary for the language fr"), text)
        XCTAssertTrue(text.contains("hunspell-fr"), text)
        XCTAssertEqual(client.shutdownAndExit(), 0)
    }

    private func shell(_ command: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw XCTSkip("could not build: \(command)") }
    }
}
