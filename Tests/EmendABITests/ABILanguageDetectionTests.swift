import Foundation
import XCTest
import CEmend
import EmendCABI
import EmendTestSupport

/// Through the C ABI, with Hunspell found by discovery and run in its provider host: an
/// engine that sets no language gets each paragraph checked in the language it is written
/// in, as `emend proofread` without --language and `emend lsp` without a language setting:
/// a German paragraph beside an English one gets no English false alarms, the slips of both
/// are flagged; an engine that sets "en-US" gets every paragraph checked as English. A
/// paragraph in a language without its dictionary makes the result partial
/// (emend_coordinator_get_completeness), with a message naming the package to install.
final class ABILanguageDetectionTests: XCTestCase {
    private var home: URL!
    private var saved: [String: String?] = [:]
    private let variables = ["EMEND_PROVIDER_PATH", "EMEND_SCANNER", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME"]

    override func setUpWithError() throws {
        try HunspellLanguages.skipUnlessInstalled()
        home = FileManager.default.temporaryDirectory.appendingPathComponent("emend-abi-languages-\(UUID().uuidString)")
        let providers = home.appendingPathComponent("providers")
        for name in variables { saved[name] = ProcessInfo.processInfo.environment[name] }
        try HunspellLanguages.install(home: home.path, plugins: providers.path)
        setenv("EMEND_PROVIDER_PATH", providers.path, 1)
        setenv("EMEND_SCANNER", home.appendingPathComponent("emend-scan").path, 1)
        for (name, sub) in [("XDG_DATA_HOME", "data"), ("XDG_CACHE_HOME", "cache"), ("XDG_CONFIG_HOME", "config")] {
            setenv(name, home.appendingPathComponent(sub).path, 1)
        }
    }

    override func tearDownWithError() throws {
        for (name, value) in saved {
            if let value { setenv(name, value, 1) } else { unsetenv(name) }
        }
        if let home { try? FileManager.default.removeItem(at: home) }
    }

    /// A coordinator over `engine` with `language` in its options (nil: none given).
    private func coordinator(_ engine: CEngine, language: String?) throws -> OpaquePointer {
        var table = engine.delegate()
        var options = emend_coordinator_options()
        options.struct_size = MemoryLayout<emend_coordinator_options>.size
        var coordinator: OpaquePointer?
        let status: emend_status
        if let language {
            status = language.withCString { tag in
                options.language = tag
                return emend_coordinator_create(&table, &options, &coordinator)
            }
        } else {
            status = emend_coordinator_create(&table, &options, &coordinator)
        }
        XCTAssertEqual(status, EMEND_OK, lastError)
        return try XCTUnwrap(coordinator)
    }

    /// The originals of the suggestions of a proofread of the whole document.
    private func proofread(_ coordinator: OpaquePointer) -> [String] {
        XCTAssertEqual(start(coordinator, EMEND_TOOL_PROOFREAD), EMEND_OK, lastError)
        XCTAssertEqual(runUntilIdle(coordinator, 30_000), EMEND_OK, lastError)
        return (0..<suggestionCount(coordinator)).compactMap { suggestion(coordinator, $0).map { "\($0.original) → \($0.replacement)" } }
    }

    private static let notes = """
        We have fixed the startup crash and improved the speed of the importer. I beleive it is ready.

        Wir haben den Fehler beim Starten behoben und die Geschwindigkeit verbesert. Ich glaube, dass die neue Version fertig ist.

        """

    func testAGermanParagraphBesideAnEnglishOneIsCheckedAsGerman() throws {
        let engine = CEngine(Self.notes)
        let detecting = try coordinator(engine, language: nil)
        defer { emend_coordinator_destroy(detecting) }
        XCTAssertEqual(proofread(detecting), ["beleive → believe", "verbesert → verbessert"])
        XCTAssertEqual(completeness(detecting).0, EMEND_COMPLETENESS_COMPLETE)
        XCTAssertEqual(emend_session_revert(detecting), EMEND_OK, lastError)
        XCTAssertEqual(runUntilIdle(detecting), EMEND_OK, lastError)
        XCTAssertEqual(engine.text, Self.notes)

        // The engine says English: every paragraph is English, the German words are flagged.
        let english = CEngine(Self.notes)
        let fixed = try coordinator(english, language: "en-US")
        defer { emend_coordinator_destroy(fixed) }
        XCTAssertGreaterThan(proofread(fixed).count, 2)
    }

    /// A checker the engine names (`emend_coordinator_choose_provider`) is the proofreader
    /// the default would be, with one member: each paragraph in its own language too.
    func testANamedCheckerIsLanguageDetectedAsTheDefaultIs() throws {
        let engine = CEngine(Self.notes)
        let coordinator = try coordinator(engine, language: nil)
        defer { emend_coordinator_destroy(coordinator) }
        XCTAssertEqual(emend_coordinator_choose_provider(coordinator, EMEND_TOOL_PROOFREAD, "org.emend.hunspell"), EMEND_OK, lastError)
        XCTAssertEqual(proofread(coordinator), ["beleive → believe", "verbesert → verbessert"])
        XCTAssertEqual(completeness(coordinator).0, EMEND_COMPLETENESS_COMPLETE)
    }

    func testADetectedLanguageWithoutItsDictionaryIsAPartialResult() throws {
        try XCTSkipIf(FileManager.default.fileExists(atPath: "/usr/share/hunspell/fr_FR.dic"), "a French dictionary is installed")
        let engine = CEngine("""
            We have fixed the startup crash and improved the speed of the importer. I beleive it is ready.

            Nous avons corrigé le plantage au démarrage et nettement amélioré la vitesse de l'importateur. Je pense que la nouvelle version est prête.

            """)
        let coordinator = try coordinator(engine, language: nil)
        defer { emend_coordinator_destroy(coordinator) }
        XCTAssertEqual(proofread(coordinator), ["beleive → believe"])
        let (value, message) = completeness(coordinator)
        XCTAssertEqual(value, EMEND_COMPLETENESS_PARTIAL, message)
        XCTAssertTrue(message.contains("in the paragraphs detected as fr: no Hunspell dictionary for the language fr"), message)
        XCTAssertTrue(message.contains("hunspell-fr"), message)
    }
}
