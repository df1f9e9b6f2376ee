import Foundation
import XCTest
import EmendCore
@testable import EmendProviders
import EmendTestSupport

/// The LingoTweaker provider (providers/lingotweaker): LanguageTool's rules through the process
/// provider, over lingotweaker and its English, German and French data installed into
/// .deps/lingotweaker by setup.sh (run here; it does nothing when they are there, and the tests
/// skip when it cannot install the wheels).
final class LingoTweakerProviderTests: XCTestCase {
    private static let setup: Result<String, any Error> = Result {
        try TestProcess.run("/bin/sh", [PluginBuilder.repoRoot + "/providers/lingotweaker/setup.sh"])
    }

    /// One instance for the whole class, as the registry keeps one per process: engines warm.
    private static let logs = PluginLogCollector()
    private static let shared: Result<PluginProvider, any Error> = Result {
        PluginProvider(record: try PluginLibrary.load(path: try ProcessPlugins.lingoTweaker()).record, settings: [],
                       logger: logs.logger)
    }

    /// What the runs logged (the checker's stderr comes through each run's sink).
    private static let runLogs = LockedLines()

    override func setUpWithError() throws {
        if case .failure(let error) = Self.setup {
            throw XCTSkip("providers/lingotweaker/setup.sh could not install lingotweaker: \(error.localizedDescription)")
        }
    }

    private func check(_ text: String, language: String = "en-US", protected: [Range<Int>] = []) throws -> (ProviderOutcome, [(String, ProviderEdit)]) {
        let provider = try Self.shared.get()
        let sink = PluginTestSink()
        let outcome = provider.run(ProviderRequest(tool: .proofread, text: text, selection: 0..<text.utf8.count,
                                                   protectedRanges: protected, language: language), sink: sink)
        Self.runLogs.withLock { $0 += sink.logs }
        let bytes = Array(text.utf8)
        return (outcome, sink.edits.map { (String(decoding: bytes[$0.range], as: UTF8.self), $0) })
    }

    func testEnglishGrammarAndSpellingWithCategories() throws {
        let (outcome, found) = try check("I can heard you. She dont like it, we meet tomorow.")
        XCTAssertEqual(outcome, .finished)
        XCTAssertEqual(found.map(\.0), ["heard", "dont", "tomorow"])
        XCTAssertEqual(found.map(\.1.replacement), ["hear", "don't", "tomorrow"])
        XCTAssertEqual(found.map(\.1.category), ["grammar", "grammar", "spelling"], "a contraction rule is no speller")
        XCTAssertEqual(found[0].1.ruleID, "MD_BASEFORM")
        XCTAssertEqual(try check("I can hear you. She doesn't like it; we meet tomorrow.").1.count, 0, "a corrected sentence")
        // Protected text is left alone; the typography rule reports as typography.
        let text = "Wait... we meet tomorow."
        let (_, protected) = try check(text, protected: [16..<23])
        XCTAssertEqual(protected.map(\.0), ["..."])
        XCTAssertEqual(protected.first?.1.category, "typography")
    }

    func testGermanAndFrenchOfflineAndOneEnginePerLanguage() throws {
        let (german, de) = try check("Das Auto sind kaputt. Das ist ein Fehlerr.", language: "de-DE")
        XCTAssertEqual(german, .finished)
        XCTAssertEqual(de.map(\.0), ["sind", "Fehlerr"])
        XCTAssertEqual(de.map(\.1.replacement), ["ist", "Fehler"])
        let (french, fr) = try check("Je suis allé à le marché.", language: "fr-FR")
        XCTAssertEqual(french, .finished)
        XCTAssertEqual(fr.map(\.1.replacement), ["au"])
        _ = try check("Noch ein Satz mit Fehlerr.", language: "de")
        XCTAssertEqual(Self.runLogs.lines.filter { $0.contains("built the de-DE engine") }.count, 1, "\(Self.runLogs.lines)")
        XCTAssertEqual((Self.runLogs.lines + Self.logs.all).filter { $0.contains("started the checker") }.count, 1, "one warm process")
    }

    func testALanguageWithoutDataNamesThePackage() throws {
        let (outcome, _) = try check("Dit is een zin.", language: "nl-NL")
        guard case .failed(let reason) = outcome else { return XCTFail("\(outcome)") }
        XCTAssertTrue(reason.contains("install lingotweaker-data-nl"), reason)
    }
}

private final class LockedLines: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    func withLock(_ body: (inout [String]) -> Void) { lock.withLock { body(&stored) } }
    var lines: [String] { lock.withLock { stored } }
}
