import XCTest
import EmendCore
import EmendProofreading
@testable import EmendProviders

/// Which checkers take part in a combined proofread, and on what terms: a provider whose
/// proofreading is off (the llama plugin unless `proofread = true`) does not take part at
/// all, and each checker brings its descriptor's languages and its `timeout_ms`.
final class ProofreadingParticipationTests: XCTestCase {
    private struct Made: WritingProvider {
        let id: String
        let tools: Set<WritingTool>
        func run(_ request: ProviderRequest, sink: ProviderSink) -> ProviderOutcome { .finished }
    }

    private func record(_ id: String, priority: Int, languages: [String] = ["*"]) -> ProviderRecord {
        ProviderRecord(path: "/providers/\(id).so", kind: .plugin, id: id, name: id, version: "1", tools: [.proofread, .rewriteFriendly],
                       languages: languages, outputs: 1, streams: false, usesNetwork: false, priority: priority)
    }

    private func registry(_ config: String) throws -> ProviderRegistry {
        let records = [record("org.emend.harper", priority: 20, languages: ["en"]), record("org.emend.hunspell", priority: 5),
                       record("org.emend.llama", priority: 1)]
        let factory = ProviderFactory { (record, _) throws(EmendError) -> WritingProvider in Made(id: record.id, tools: record.tools) }
        return ProviderRegistry(discovery: DiscoveryResult(records: records), configuration: try ProviderConfiguration.parse(config),
                                builtins: [FixtureProvider()], logger: { _ in }, factory: factory)
    }

    func testAProviderWithProofreadingOffDoesNotTakePart() throws {
        let standard = try registry("")
        XCTAssertEqual(try standard.membersToCombine(for: .proofread).map(\.id), ["org.emend.harper", "org.emend.hunspell"],
                       "llama's proofreading is off by default: it would answer at once with nothing")
        XCTAssertEqual(try standard.provider(for: .rewriteFriendly, named: "org.emend.llama").id, "org.emend.llama", "its other tools stay")
        let on = try registry("[providers.\"org.emend.llama\"]\nproofread = true\n")
        XCTAssertEqual(try on.membersToCombine(for: .proofread).map(\.id), ["org.emend.harper", "org.emend.hunspell", "org.emend.llama"])
        let off = try registry("[providers.\"org.emend.hunspell\"]\nproofread = false\n")
        XCTAssertEqual(try off.membersToCombine(for: .proofread).map(\.id), ["org.emend.harper"])
        XCTAssertNotNil(off.proofreadingOffReason("org.emend.hunspell"))
    }

    func testEachCheckerBringsItsLanguagesAndTimeLimit() throws {
        let r = try registry("[providers.\"org.emend.hunspell\"]\ntimeout_ms = 45000\n")
        XCTAssertEqual(r.memberTerms(for: "org.emend.harper"), MemberTerms(languages: ["en"], timeoutMilliseconds: nil))
        XCTAssertEqual(r.memberTerms(for: "org.emend.hunspell"), MemberTerms(languages: ["*"], timeoutMilliseconds: 45_000))
        // Handed to the plugin as well: one with a limit of its own follows the user's.
        XCTAssertEqual(r.configuration.settings(for: "org.emend.hunspell")["timeout_ms"]?.integer, 45_000)
        let combined = try XCTUnwrap(try r.proofreader(for: .proofread) as? CombinedProofreader)
        XCTAssertEqual(combined.terms["org.emend.hunspell"]?.timeoutMilliseconds, 45_000)
        XCTAssertEqual(combined.terms["org.emend.harper"]?.languages, ["en"])
    }
}
