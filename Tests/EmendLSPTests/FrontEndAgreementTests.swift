import Foundation
import XCTest
import EmendCore
import EmendProofreading
@testable import EmendProviders
@testable import EmendLSP
@testable import EmendCLI

/// The same checkers give the same suggestions in every front end: `emend proofread`'s
/// catalog and the language server's (with the README's `"proofread": [...]` setting) both
/// hand the coordinator one proofreader built by `Proofreader`, so the combiner's evidence
/// rules (a noisy rule alone is dropped, a plausible slip beats a word cut in two) hold in the
/// editor as on the command line.
final class FrontEndAgreementTests: XCTestCase {
    /// A checker that flags fixed words (found by their text) at once.
    struct ScriptedChecker: WritingProvider {
        struct Flag {
            var find: String
            var replacement: String
            var category: String
            var rule: String
        }
        let id: String
        let flags: [Flag]
        var tools: Set<WritingTool> { [.proofread] }

        func run(_ request: ProviderRequest, sink: ProviderSink) -> ProviderOutcome {
            for flag in flags {
                guard let found = request.text.range(of: flag.find) else { continue }
                let start = request.text.utf8.distance(from: request.text.startIndex, to: found.lowerBound)
                sink.emitEdit(ProviderEdit(range: start..<(start + flag.find.utf8.count), replacement: flag.replacement,
                                           explanation: "\(flag.rule) from \(id)", category: flag.category, ruleID: flag.rule))
            }
            return .finished
        }
    }

    static let text = "He attemped to explain it better than I could."
    static let grammar = ScriptedChecker(id: "org.test.grammar", flags: [
        .init(find: "than I", replacement: "than me", category: "grammar", rule: "THAN_I"),
        .init(find: "attemped", replacement: "at temped", category: "spelling", rule: "SpellCheck"),
    ])
    static let speller = ScriptedChecker(id: "org.test.spell", flags: [
        .init(find: "attemped", replacement: "attempted", category: "spelling", rule: "MORFOLOGIK_RULE_EN_US"),
    ])

    /// A registry of the two checkers as discovered plugins (the grammar checker preferred),
    /// each wrapped in the user's filters as every discovered proofreader is.
    static func registry() -> ProviderRegistry {
        let checkers: [String: WritingProvider] = [grammar.id: grammar, speller.id: speller]
        let records = [(grammar.id, 5), (speller.id, 1)].map { id, priority in
            ProviderRecord(path: "/providers/\(id).so", kind: .plugin, id: id, name: id, version: "1", tools: [.proofread],
                           languages: ["*"], outputs: 1, streams: false, usesNetwork: false, priority: priority)
        }
        let factory = ProviderFactory { (record, _) throws(EmendError) -> WritingProvider in
            guard let checker = checkers[record.id] else { throw EmendError(.notFound, record.id) }
            return checker
        }
        return ProviderRegistry(discovery: DiscoveryResult(records: records), configuration: ProviderConfiguration(),
                                builtins: [FixtureProvider()], logger: { _ in }, factory: factory)
    }

    /// What `emend proofread` finds: its catalog, options and file engine over the registry.
    func cliFindings(_ registry: ProviderRegistry) throws -> [[String]] {
        let engine = FileEngine(text: Array(Self.text.utf8), selection: 0..<0, protectedRanges: [])
        let driver = try SessionDriver(engine: engine, registry: registry, settings: SessionDriver.Settings(), subject: "test")
        try driver.coordinator.start(.proofread, scope: .fullDocument)
        try driver.coordinator.runUntilIdle(timeoutMilliseconds: 10_000)
        return Finding.from(driver.coordinator.suggestions).map { ["\($0.range)", $0.replacement] }
    }

    /// What the language server publishes for the same text, with both checkers named in the
    /// client's settings.
    func lspFindings(_ registry: ProviderRegistry) -> [[String]] {
        let client = LSPTestClient(inProcess: { input, output, root in
            var configuration = ServerConfiguration(version: "test", environment: LSPTestClient.sandboxEnvironment(root: root),
                                                    makeCatalog: { .success(registry) })
            configuration.input = input
            configuration.output = output
            return LanguageServer(configuration: configuration).run()
        })
        client.initialize(options: ["debounceMs": 0, "providers": ["proofread": [Self.grammar.id, Self.speller.id]]])
        let uri = "file:///agree.txt"
        client.open(uri, Self.text)
        let diagnostics = client.diagnostics(uri, version: 1)
        XCTAssertEqual(client.shutdownAndExit(), 0)
        // One line of ASCII: the character offsets are the byte offsets.
        return diagnostics.map { diagnostic in
            let range = rangeOf(diagnostic["range"])
            let replacement = (diagnostic["data"] as? [String: Any])?["replacement"] as? String ?? "?"
            return ["\(range[0][1])..<\(range[1][1])", replacement]
        }
    }

    func testTheCLIAndTheLanguageServerGiveTheSameSuggestionsForTheSameCheckers() throws {
        let cli = try cliFindings(Self.registry())
        let lsp = lspFindings(Self.registry())
        XCTAssertEqual(lsp, cli, "the editor shows what the command line shows")
        // The combiner's choice, not a rank merge's: "than I" (a rule that needs a second
        // checker) is dropped, and the slip "attempted" beats the preferred checker's "at temped".
        XCTAssertEqual(cli, [["3..<11", "attempted"]])
    }

    func testEveryCatalogHandsTheCoordinatorOneProofreader() throws {
        let registry = Self.registry()
        XCTAssertEqual(try registry.proofreader(for: .proofread).id, CombinedProofreader.combinedID, "libemend's catalog")
        let cli = CLICatalog(base: registry, language: nil, stream: StreamBuffer())
        XCTAssertEqual(try cli.proofreader(for: .proofread).id, CombinedProofreader.combinedID)
        XCTAssertEqual(cli.lastChosen, [Self.grammar.id, Self.speller.id])
        let server = ServerCatalog(base: registry)
        var settings = ServerSettings()
        settings.providers[.proofread] = [Self.speller.id, Self.grammar.id]
        server.update(settings)
        let served = try server.proofreader(for: .proofread)
        XCTAssertEqual(served.id, CombinedProofreader.combinedID)
        let combined = try XCTUnwrap(served.innermost as? CombinedProofreader)
        XCTAssertEqual(combined.members.map(\.id), [Self.speller.id, Self.grammar.id], "in the order the client lists them")
        XCTAssertTrue(combined.members.allSatisfy { $0 is FilteringProofreader }, "with the user's filters")
        settings.providers[.proofread] = [Self.speller.id]
        server.update(settings)
        XCTAssertEqual(try server.proofreader(for: .proofread).id, Self.speller.id, "one checker alone is itself")
    }

    /// A checker named for proofreading (`emend_coordinator_choose_provider`, a request's
    /// provider id, `emend proofread --provider`) is the same combination of one in every
    /// front end's catalog: its filters, time limit and completeness report, and language
    /// detection when no language is set. The bare provider stays what `provider(for:named:)`
    /// gives (`emend doctor` and the other tools use it).
    func testANamedCheckerIsACombinationOfOneInEveryFrontEnd() throws {
        let registry = Self.registry()
        let server = ServerCatalog(base: registry)
        let catalogs: [(String, ProviderCatalog)] = [
            ("libemend", LanguageDetectingCatalog(base: registry)),
            ("emend proofread", CLICatalog(base: registry, language: nil, stream: StreamBuffer())),
            ("emend lsp", server),
        ]
        let detects = LanguageDetector.shared != nil
        for (name, catalog) in catalogs {
            let named = try catalog.proofreader(for: .proofread, named: Self.speller.id)
            XCTAssertEqual(named.id, Self.speller.id, name)
            let combined = try XCTUnwrap(named.innermost as? CombinedProofreader, "\(name): a combination of one")
            XCTAssertEqual(combined.members.map(\.id), [Self.speller.id], name)
            XCTAssertTrue(combined.members.allSatisfy { $0 is FilteringProofreader }, "\(name): with the user's filters")
            XCTAssertEqual(Self.wrappers(of: named).contains { $0 is LanguageDetectingProofreader }, detects,
                           "\(name): language detection as without a name")
            XCTAssertFalse(try catalog.provider(for: .proofread, named: Self.speller.id).innermost is CombinedProofreader,
                           "\(name): the bare provider stays bare")

            // Through a coordinator, as each front end starts it: the named checker's
            // suggestions, and a completeness report (a bare provider gives none).
            let engine = FileEngine(text: Array(Self.text.utf8), selection: 0..<0, protectedRanges: [])
            var options = CoordinatorOptions()
            options.animationDuration = 0
            let coordinator = try Coordinator(delegate: engine, options: options, catalog: catalog)
            try coordinator.start(.proofread, scope: .fullDocument, providerID: Self.speller.id)
            try coordinator.runUntilIdle(timeoutMilliseconds: 10_000)
            XCTAssertEqual(Finding.from(coordinator.suggestions).map { ["\($0.range)", $0.replacement] }, [["3..<11", "attempted"]], name)
            XCTAssertEqual(coordinator.completeness?.parts.map(\.providerID), [Self.speller.id], "\(name): reported")
            XCTAssertEqual(coordinator.completeness?.isPartial, false, name)
        }
        XCTAssertThrowsError(try server.proofreader(for: .proofread, named: "org.test.missing"), "a named checker is required")
    }

    /// `provider` and the providers it wraps, outermost first.
    static func wrappers(of provider: WritingProvider) -> [WritingProvider] {
        var chain = [provider]
        while let wrapper = chain.last as? WrappingProvider { chain.append(wrapper.base) }
        return chain
    }
}
