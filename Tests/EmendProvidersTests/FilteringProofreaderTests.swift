import Foundation
import XCTest
import Glibc
import EmendCore
@testable import EmendProofreading
@testable import EmendProviders

/// A third-party speller that flags every word it does not know, as a plugin would.
private struct NaiveSpeller: WritingProvider {
    let id = "org.test.naive"
    let tools: Set<WritingTool> = [.proofread, .summary]
    let known: Set<String> = ["Install", "and", "with", "then", "run"]
    func run(_ request: ProviderRequest, sink: ProviderSink) -> ProviderOutcome {
        if request.tool == .summary { sink.emitText("summary"); return .finished }
        var offset = 0
        for word in request.text.split(separator: " ", omittingEmptySubsequences: false) {
            let bare = word.trimmingSuffix(".")
            if !bare.isEmpty, !known.contains(String(bare)) {
                sink.emitEdit(ProviderEdit(range: offset..<(offset + bare.utf8.count), replacement: "?", category: "spelling",
                                           ruleID: "NAIVE"))
            }
            offset += word.utf8.count + 1
        }
        return .finished
    }
}

private extension Substring {
    func trimmingSuffix(_ suffix: Character) -> Substring { last == suffix ? dropLast() : self }
}

private final class Collect: ProviderSink, @unchecked Sendable {
    let lock = NSLock()
    var edits: [ProviderEdit] = []
    var text = ""
    var isCancelled: Bool { false }
    func emitText(_ chunk: String) { lock.withLock { text += chunk } }
    func emitEdit(_ edit: ProviderEdit) { lock.withLock { edits.append(edit) } }
    func log(_ message: String) {}
}

final class FilteringProofreaderTests: XCTestCase {
    private func flagged(_ provider: WritingProvider, _ text: String) -> [String] {
        let sink = Collect()
        _ = provider.run(ProviderRequest(tool: .proofread, text: text, selection: 0..<text.utf8.count), sink: sink)
        let bytes = Array(text.utf8)
        return sink.edits.map { String(decoding: bytes[$0.range], as: UTF8.self) }
    }

    func testTheRegistryWrapsDiscoveredProofreadersSoThirdPartyPluginsObeyTheDictionary() throws {
        let directory = "/tmp/emend-filtering-\(getpid())"
        defer { _ = try? FileManager.default.removeItem(atPath: directory) }
        var dictionary = PersonalDictionary.load(directory: directory)
        try dictionary.add(word: "pixbuf")
        try dictionary.ignore(rule: "NONE")
        let record = ProviderRecord(path: "/p/naive.so", kind: .plugin, id: "org.test.naive", name: "naive", version: "1",
                                    tools: [.proofread, .summary], languages: ["*"], outputs: 1, streams: false,
                                    usesNetwork: false, priority: 0)
        let registry = ProviderRegistry(discovery: DiscoveryResult(records: [record]), configuration: ProviderConfiguration(),
                                        builtins: [], logger: { _ in },
                                        factory: ProviderFactory { _, _ in NaiveSpeller() }, dictionaryDirectory: directory)
        let text = "Install pixbuf and libjpeg_turbo with ./autogen.sh then run tomorow."
        let provider = try registry.provider(for: .proofread, named: nil)
        XCTAssertTrue(provider is FilteringProofreader)
        XCTAssertEqual(flagged(NaiveSpeller(), text), ["pixbuf", "libjpeg_turbo", "./autogen.sh", "tomorow"])
        XCTAssertEqual(flagged(provider, text), ["tomorow"])
        XCTAssertEqual(flagged(try registry.proofreader(for: .proofread), text), ["tomorow"])

        // A word added now counts at the next request, without a new registry.
        try dictionary.add(word: "tomorow")
        XCTAssertEqual(flagged(provider, text), [])
        try dictionary.ignore(rule: "NAIVE")
        XCTAssertEqual(flagged(provider, "Unknown words."), [], "an ignored rule")

        // Other tools pass through.
        let sink = Collect()
        _ = try registry.provider(for: .summary, named: nil).run(ProviderRequest(tool: .summary, text: "x", selection: 0..<1), sink: sink)
        XCTAssertEqual(sink.text, "summary")
    }

    func testTypographyIsOffUnlessTheConfigurationTurnsItOn() throws {
        struct Typographer: WritingProvider {
            let id = "org.test.typo"
            let tools: Set<WritingTool> = [.proofread]
            func run(_ request: ProviderRequest, sink: ProviderSink) -> ProviderOutcome {
                sink.emitEdit(ProviderEdit(range: 4..<7, replacement: "…", category: "style", ruleID: "UseEllipsisCharacter"))
                return .finished
            }
        }
        let record = ProviderRecord(path: "/p/t.so", kind: .plugin, id: "org.test.typo", name: "t", version: "1",
                                    tools: [.proofread], languages: ["*"], outputs: 1, streams: false, usesNetwork: false, priority: 0)
        func registry(_ config: String) throws -> ProviderRegistry {
            ProviderRegistry(discovery: DiscoveryResult(records: [record]), configuration: try ProviderConfiguration.parse(config),
                             builtins: [], logger: { _ in }, factory: ProviderFactory { _, _ in Typographer() })
        }
        let text = "Wait... what?"
        XCTAssertEqual(flagged(try registry("").provider(for: .proofread, named: nil), text), [])
        XCTAssertEqual(flagged(try registry("[proofreading]\ntypography = true\n").provider(for: .proofread, named: nil), text),
                       ["..."])
    }

    /// A long request builds its filter on a thread while the checker runs: the verdicts are
    /// the ones the filter gives when built first (every word flagged by the naive speller,
    /// the paths, identifiers and recurring words among them dropped, a one-off slip kept).
    func testALongRequestIsFilteredAsAShortOneWould() {
        let sentence = "Install libjpeg with ./configure and then run tests. "
        let count = FilterInBackground.threshold / sentence.utf8.count + 10
        let text = String(repeating: sentence, count: count) + "Then run teh checks."
        XCTAssertGreaterThanOrEqual(text.utf8.count, FilterInBackground.threshold)
        let provider = FilteringProofreader(base: NaiveSpeller(), dictionaryDirectory: nil, preferences: ProofreadingPreferences())
        let kept = flagged(provider, text)
        let direct = ProofreadingFilter(text: text)
        let sink = Collect()
        _ = NaiveSpeller().run(ProviderRequest(tool: .proofread, text: text, selection: 0..<text.utf8.count), sink: sink)
        let bytes = Array(text.utf8)
        let expected = sink.edits.filter { direct.verdict(for: $0) == .keep }.map { String(decoding: bytes[$0.range], as: UTF8.self) }
        XCTAssertEqual(kept, expected)
        XCTAssertTrue(kept.contains("teh") && !kept.contains("./configure"), "\(Set(kept))")
    }
}
