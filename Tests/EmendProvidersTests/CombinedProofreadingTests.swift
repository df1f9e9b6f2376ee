import Foundation
import XCTest
import EmendCore
import EmendText
import EmendProofreading
@testable import EmendProviders

/// Real proofreading end to end in Swift: the Hunspell and Harper plugins are discovered in a
/// providers directory, the registry combines them, and a coordinator proofreads the six
/// sentences through a delegate that applies every replace — with Harper's checker process
/// started once for all of them.
final class CombinedProofreadingTests: XCTestCase {
    /// A document whose delegate applies replaces and answers everything at once.
    final class Document: CoordinatorDelegate {
        var text: String
        init(_ text: String) { self.text = text }
        var capabilities: DelegateCapabilities { [.replace] }
        func requestsContexts(_ c: Coordinator, scope: ContextScope, request: RequestID) {
            try? c.answer(request, .contexts([ContextDescription(text: AttributedText(text), selection: 0..<0)]))
        }
        func replace(_ c: Coordinator, _ p: ReplaceProposal, request: RequestID) {
            var attributed = AttributedText(text)
            attributed.replace(p.range, with: p.text)
            text = attributed.string
            try? c.answer(request, .replaced(nil))
        }
        func selectRanges(_ c: Coordinator, contextID: UInt64, engineContext: UInt, ranges: [Range<Int>], request: RequestID) {}
        func requestsBoundingRects(_ c: Coordinator, contextID: UInt64, engineContext: UInt, range: Range<Int>, request: RequestID) {}
        func requestsUnderlineRects(_ c: Coordinator, contextID: UInt64, engineContext: UInt, range: Range<Int>, request: RequestID) {}
        func prepareForTextAnimation(_ c: Coordinator, _ a: TextAnimation, contextID: UInt64, engineContext: UInt, range: Range<Int>, request: RequestID) {}
        func requestsPreview(_ c: Coordinator, _ a: TextAnimation, contextID: UInt64, engineContext: UInt, range: Range<Int>, request: RequestID) {}
        func finishTextAnimation(_ c: Coordinator, _ a: TextAnimation, contextID: UInt64, engineContext: UInt, range: Range<Int>, preview: UInt, request: RequestID) {}
        func willChangeToState(_ c: Coordinator, _ state: CoordinatorState, request: RequestID) {}
        func presentResult(_ c: Coordinator, _ result: PresentedResult, request: RequestID) {}
    }

    final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func add(_ line: String) { lock.withLock { lines.append(line) } }
        func count(containing needle: String) -> Int { lock.withLock { lines.filter { $0.contains(needle) }.count } }
        var all: [String] { lock.withLock { lines } }
    }

    static let cases: [(text: String, caught: Set<String>, corrected: String)] = [
        ("Their going too the party tomorow, and they has brought there own snacks.", ["too", "tomorow", "has", "there"],
         "They're going to the party tomorrow, and they have brought their own snacks."),
        ("I could of done it better.", ["could of"], "I could have done it better."),
        ("This is a example of an error.", ["a"], "This is an example of an error."),
        ("She dont like it.", ["dont"], "She doesn't like it."),
        ("The the cat sat.", ["The the"], "The cat sat."),
        ("Its a nice day, isnt it?", ["Its", "isnt"], "It's a nice day, isn't it?"),
    ]

    func testSixSentencesThroughDiscoveredHunspellAndHarper() throws {
        if let missing = HunspellPluginBuild.missing { throw XCTSkip(missing) }
        // harper-py in .deps/python (a fresh checkout has none until setup.sh ran).
        if case .failure(let error) = HarperProviderTests.setup {
            throw XCTSkip("providers/harper/setup.sh could not install harper-py: \(error.localizedDescription)")
        }
        let harper: String
        do { harper = try ProcessPlugins.harper() } catch { throw XCTSkip("the Harper plugin cannot be built here: \(error)") }
        let home = NSTemporaryDirectory() + "emend-combined-\(getpid())"
        let providers = home + "/providers"
        try FileManager.default.createDirectory(atPath: providers, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: home) }
        chmod(home, 0o700)
        chmod(providers, 0o755)
        for (source, name) in [(try HunspellPluginBuild.path(), "hunspell.so"), (harper, "harper.so")] {
            try FileManager.default.copyItem(atPath: source, toPath: providers + "/" + name)
            chmod(providers + "/" + name, 0o755)
        }

        let discovery = ProviderDiscovery(searchPath: [providers], cachePath: home + "/providers.cache",
                                          scannerPath: DiscoveryFixtures.scanner).run()
        XCTAssertEqual(Set(discovery.records.map(\.id)), ["org.emend.hunspell", "org.emend.harper"], "\(discovery.broken)")
        let log = Log()
        let registry = ProviderRegistry(discovery: discovery, configuration: ProviderConfiguration(),
                                        builtins: [FixtureProvider()], logger: { log.add($0) })
        XCTAssertEqual(try registry.membersToCombine(for: .proofread).map(\.id), ["org.emend.harper", "org.emend.hunspell"])
        XCTAssertEqual(try registry.proofreader(for: .proofread).id, CombinedProofreader.combinedID)

        for item in Self.cases {
            for (text, expected) in [(item.text, item.caught), (item.corrected, Set<String>())] {
                let document = Document(text)
                var options = CoordinatorOptions()
                options.providerTimeoutMilliseconds = 60_000
                let coordinator = try Coordinator(delegate: document, options: options, catalog: registry)
                coordinator.logger = { log.add($0) }
                try coordinator.start(.proofread)
                try coordinator.runUntilIdle(timeoutMilliseconds: 60_000)
                let pending = coordinator.suggestions.filter { $0.state == .pending }
                XCTAssertEqual(Set(pending.map(\.original)), expected, "in \"\(text)\": \(pending.map { "\($0.original)→\($0.replacement)" })")
                XCTAssertTrue(pending.allSatisfy { !$0.explanation.isEmpty }, "every suggestion explains itself")
                for suggestion in pending {
                    XCTAssertEqual(substring(document.text, try XCTUnwrap(suggestion.range)), suggestion.replacement)
                }
                try coordinator.revert()
                try coordinator.runUntilIdle(timeoutMilliseconds: 10_000)
                XCTAssertEqual(document.text, text, "revert gives the text back byte for byte")
            }
        }
        XCTAssertEqual(log.count(containing: "started the checker"), 1, "one warm Harper process for all twelve requests: \(log.all)")
    }

    private func substring(_ text: String, _ range: Range<Int>) -> String {
        AttributedText(text).substring(range)
    }
}
