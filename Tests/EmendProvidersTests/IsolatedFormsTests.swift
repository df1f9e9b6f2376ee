import Foundation
import XCTest
import EmendCore
import EmendProofreading
@testable import EmendProviders

/// Every plugin form runs in a provider host without a rebuild: the C and Rust examples, the
/// simple form (both shapes, through libffi in the host), Hunspell and the llama model, each
/// through IsolatedProvider with the record discovery would make. Also: config.toml's
/// isolation and limits reach the provider the registry makes.
final class IsolatedFormsTests: XCTestCase {
    private func isolated(_ record: ProviderRecord, settings: TOMLTable = TOMLTable()) throws -> IsolatedProvider {
        let host = try XCTUnwrap(ProviderHostLocator.locate(environment: [:], libraryDirectory: nil))
        return IsolatedProvider(record: record, settings: settings, limits: ProviderLimits(), executable: host,
                                writesMarkdown: false)
    }

    private func plugin(_ path: String, settings: TOMLTable = TOMLTable()) throws -> IsolatedProvider {
        try isolated(try PluginLibrary.load(path: path).record, settings: settings)
    }

    private func simple(_ manifest: String) throws -> IsolatedProvider {
        try isolated(try SimpleManifest.load(path: manifest).record(path: manifest))
    }

    func testTheCExampleProofreadsInItsHost() throws {
        let provider = try plugin(try PluginBuilder.example("c"))
        let text = "Café owners recieve teh parcels. Teh rest is wierd."
        let sink = PluginTestSink()
        XCTAssertEqual(provider.run(ProviderRequest(tool: .proofread, text: text, selection: 0..<text.utf8.count), sink: sink), .finished)
        XCTAssertEqual(sink.edits.map(\.replacement), ["receive", "the", "The", "weird"])
        XCTAssertEqual(sink.edits.first?.range, byteRange(of: "recieve", in: text))
        XCTAssertEqual(sink.edits.first?.explanation, "\"recieve\" is misspelled; did you mean \"receive\"?")
    }

    func testSettingsReachThePluginInItsHost() throws {
        var settings = TOMLTable()
        settings["word_delay_ms"] = .integer(1)
        let provider = try plugin(try PluginBuilder.example("c"), settings: settings)
        let sink = PluginTestSink()
        let text = "Really, this is very good, and I just like it."
        XCTAssertEqual(provider.run(ProviderRequest(tool: .rewriteConcise, text: text, selection: 0..<text.utf8.count), sink: sink), .finished)
        XCTAssertGreaterThan(sink.texts.count, 1, "streamed in pieces")
    }

    func testTheRustExampleInItsHost() throws {
        guard PluginBuilder.hasTool("cargo") else { throw XCTSkip("cargo is not installed") }
        let provider = try plugin(try PluginBuilder.example("rust"))
        let text = "We ship on Monday. Tests pass!"
        let sink = PluginTestSink()
        XCTAssertEqual(provider.run(ProviderRequest(tool: .list, text: text, selection: 0..<text.utf8.count), sink: sink), .finished)
        XCTAssertEqual(sink.text, "- We ship on Monday.\n- Tests pass!")
    }

    func testBothSimpleFormsThroughLibffiInTheHost() throws {
        let dir = try SimpleFormTestSupport.exampleDirectory.get()
        let shout = try simple(dir + "/shout.toml")
        let text = "Well, hello café and more"
        let sink = PluginTestSink()
        XCTAssertEqual(shout.run(ProviderRequest(tool: .rewriteDescribed, text: text, selection: 6..<21, prompt: "louder"), sink: sink), .finished)
        XCTAssertEqual(sink.text, "HELLO CAFé AND!")
        let stream = try simple(dir + "/shout-stream.toml")
        let streamed = PluginTestSink()
        XCTAssertEqual(stream.run(ProviderRequest(tool: .compose, text: "ignored", selection: 0..<0, prompt: "write a  short note"),
                                  sink: streamed), .finished)
        XCTAssertEqual(streamed.text, "WRITE A  SHORT NOTE")
    }

    func testHunspellInItsHost() throws {
        if let missing = HunspellPluginBuild.missing { throw XCTSkip(missing) }
        let provider = try plugin(try HunspellPluginBuild.path())
        let text = "We will meet tomorow."
        let sink = PluginTestSink()
        XCTAssertEqual(provider.run(ProviderRequest(tool: .proofread, text: text, selection: 0..<text.utf8.count), sink: sink), .finished)
        XCTAssertEqual(sink.edits.map(\.range), [byteRange(of: "tomorow", in: text)])
        XCTAssertTrue(sink.edits.first?.replacement == "tomorrow", "\(sink.edits)")
    }

    func testTheLlamaModelLoadsWithinTheDefaultMemoryLimit() throws {
        if let missing = LlamaPluginBuild.missing { throw XCTSkip(missing) }
        var settings = TOMLTable()
        settings["model"] = .string(try LlamaPluginBuild.model())
        settings["threads"] = .integer(2)
        settings["max_tokens"] = .integer(16)
        let provider = try plugin(try LlamaPluginBuild.path(), settings: settings)
        XCTAssertEqual(provider.limits.memoryBytes, 4 << 30)
        let text = "The meeting moved to Friday because the room was booked."
        let sink = PluginTestSink()
        XCTAssertEqual(provider.run(ProviderRequest(tool: .summary, text: text, selection: 0..<text.utf8.count), sink: sink), .finished)
        XCTAssertFalse(sink.text.isEmpty)
    }

    // MARK: config.toml

    func testIsolationAndLimitsFromTheConfiguration() throws {
        let config = try ProviderConfiguration.parse("""
        [limits]
        memory_mb = 1024
        cancel_grace_ms = 500
        [providers."org.example.trusted"]
        isolation = "none"
        dictionary = "en_US"
        [providers."org.example.big"]
        max_result_bytes = 100
        memory_mb = 2048
        """)
        XCTAssertEqual(config.isolation(for: "org.example.trusted"), ProviderIsolation.none)
        XCTAssertEqual(config.isolation(for: "org.example.big"), .process)
        XCTAssertEqual(config.settings(for: "org.example.trusted").keys, ["dictionary"], "host keys are not plugin settings")
        XCTAssertTrue(config.settings(for: "org.example.big").keys.isEmpty)
        let big = config.limits(for: "org.example.big")
        XCTAssertEqual(big.memoryBytes, 2048 << 20)
        XCTAssertEqual(big.resultBytes, 100)
        XCTAssertEqual(big.cancelGraceMilliseconds, 500)
        XCTAssertEqual(big.editBytes, ProviderLimits().editBytes)
        XCTAssertEqual(config.limits(for: "org.other").memoryBytes, 1024 << 20)
    }

    func testBadIsolationAndLimitsAreErrorsNamingTheLine() {
        for (text, needle) in [("[providers.\"a\"]\nisolation = \"sandbox\"", ":2: [providers.\"a\"] isolation must be"),
                               ("[limits]\nmemory_mb = -1", ":2: [limits] memory_mb must be a whole number"),
                               ("[limits]\nspeed = 3", ":2: [limits] \"speed\" is not a limit")] {
            XCTAssertThrowsError(try ProviderConfiguration.parse(text, source: "c.toml")) { error in
                let message = (error as? EmendError)?.message ?? ""
                XCTAssertTrue(message.contains(needle), message)
            }
        }
    }

    func testTheRegistryRunsPluginsIsolatedUnlessTrusted() throws {
        let path = try PluginBuilder.example("c")
        let record = try PluginLibrary.load(path: path).record
        let discovery = DiscoveryResult(records: [record])
        let isolated = ProviderRegistry(discovery: discovery, configuration: ProviderConfiguration(), builtins: [])
        // Proofreaders come wrapped in the user's dictionary filter.
        func plugin(_ provider: WritingProvider) -> WritingProvider { (provider as? FilteringProofreader)?.base ?? provider }
        XCTAssertTrue(plugin(try isolated.provider(for: .proofread, named: record.id)) is IsolatedProvider)
        let trusted = ProviderRegistry(discovery: discovery, configuration: try ProviderConfiguration.parse(
            "[providers.\"\(record.id)\"]\nisolation = \"none\""), builtins: [])
        XCTAssertTrue(plugin(try trusted.provider(for: .proofread, named: record.id)) is PluginProvider)
    }
}
