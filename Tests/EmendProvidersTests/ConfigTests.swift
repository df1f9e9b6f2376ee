import XCTest
import EmendCore
import EmendProofreading
@testable import EmendProviders

final class ConfigTests: XCTestCase {
    func testTheDocumentedExample() throws {
        let config = try ProviderConfiguration.parse("""
        network = false                 # providers that use the network stay off unless true
        [tools]
        proofread = ["org.example.speller", "org.emend.fixture"]
        rewrite-friendly = ["org.emend.example.c"]
        [providers."org.example.speller"]
        dictionary = "en_US"
        max = 5
        ratio = 0.5
        strict = true
        enabled = true
        [providers."org.example.off"]
        enabled = false
        """, source: "/home/u/.config/emend/config.toml")
        XCTAssertFalse(config.network)
        XCTAssertEqual(config.toolOrder, [.proofread: ["org.example.speller", "org.emend.fixture"],
                                          .rewriteFriendly: ["org.emend.example.c"]])
        XCTAssertEqual(config.disabled, ["org.example.off"])
        XCTAssertEqual(config.settings(for: "org.example.speller").keys, ["dictionary", "max", "ratio", "strict"])
        let pairs = config.settingPairs(for: "org.example.speller")
        XCTAssertEqual(pairs.map(\.key), ["dictionary", "max", "ratio", "strict"])
        XCTAssertEqual(pairs.map(\.value), ["en_US", "5", "0.5", "true"])
        XCTAssertTrue(config.settingPairs(for: "org.unknown").isEmpty)
        XCTAssertEqual(config.warnings, [])
    }

    /// `timeout_ms` is Emend's limit for the provider in a combination and the plugin's
    /// setting alike: a process checker stops its child at its own limit, which the user's
    /// could not raise while the setting stayed with Emend.
    func testAProvidersTimeoutReachesItsPluginToo() throws {
        let config = try ProviderConfiguration.parse("""
        [providers."org.emend.harper"]
        timeout_ms = 120000
        """, source: "/home/u/.config/emend/config.toml")
        XCTAssertEqual(config.providerTimeouts["org.emend.harper"], 120000)
        let pairs = config.settingPairs(for: "org.emend.harper")
        XCTAssertEqual(pairs.map(\.key), ["timeout_ms"])
        XCTAssertEqual(pairs.map(\.value), ["120000"])
    }

    func testMissingFileMeansDefaults() throws {
        let scratch = ScratchDirectory()
        let config = try ProviderConfiguration.load(path: scratch.path + "/nothing/config.toml")
        XCTAssertFalse(config.network)
        XCTAssertEqual(config.toolOrder, [:])
        XCTAssertEqual(config.disabled, [])
    }

    func testLoadReadsTheFileAndNamesItInErrors() throws {
        let scratch = ScratchDirectory()
        let path = scratch.write("network = true\n", to: "config.toml")
        XCTAssertTrue(try ProviderConfiguration.load(path: path).network)
        XCTAssertEqual(try ProviderConfiguration.load(path: path).path, path)

        _ = scratch.write("network = true\n[tools]\nproofred = [\"x\"]\n", to: "config.toml")
        XCTAssertThrowsError(try ProviderConfiguration.load(path: path)) { error in
            let e = error as? EmendError
            XCTAssertEqual(e?.status, .invalidArgument)
            XCTAssertTrue(e?.message.hasPrefix("\(path):3: [tools] \"proofred\" is not a tool") == true, e?.message ?? "")
        }
    }

    func testErrorsNameTheLineAndKey() {
        let cases: [(String, String)] = [
            ("network = \"yes\"", "cfg:1: network must be true or false, not a string"),
            ("# c\n\n[tools]\nsummary = [\"a\"]\nkey-pionts = [\"b\"]", "cfg:5: [tools] \"key-pionts\" is not a tool (tools: proofread, rewrite-friendly"),
            ("[tools]\nproofread = \"org.x\"", "cfg:2: [tools] proofread must be an array of provider ids"),
            ("[tools]\nproofread = [\"a\", 3]", "cfg:2: [tools] proofread must be an array of provider ids"),
            ("tools = 3", "cfg:1: tools must be a table ([tools])"),
            ("tools.proofread = 3", "cfg:1: [tools] proofread must be an array"),
            ("providers = 1", "cfg:1: providers must be tables"),
            ("[providers]\n\"org.x\" = 1", "cfg:2: providers.\"org.x\" must be a table"),
            ("[providers.\"org.x\"]\na = 1\nenabled = \"no\"", "cfg:3: [providers.\"org.x\"] enabled must be true or false, not a string"),
            ("[providers.'org.x'.deep]\na = 1", "cfg:1: [providers.\"org.x\"] deep: settings are plain values, not tables"),
            ("network = tru", "cfg:1: \"tru\" is not a value"),
        ]
        for (text, expected) in cases {
            XCTAssertThrowsError(try ProviderConfiguration.parse(text, source: "cfg"), text) { error in
                let message = (error as? EmendError)?.message ?? ""
                XCTAssertTrue(message.hasPrefix(expected), "\(text)\n  got: \(message)\n  expected: \(expected)")
            }
        }
    }

    func testUnknownTopLevelKeysAreWarningsNotErrors() throws {
        let config = try ProviderConfiguration.parse("netwrok = true\n[editor]\nx = 1\n", source: "cfg")
        XCTAssertFalse(config.network)
        XCTAssertEqual(config.warnings, ["cfg: unknown key \"netwrok\" (ignored)", "cfg: unknown key \"editor\" (ignored)"])
    }

    func testKeyLocatorFollowsTablesAndQuotes() {
        let text = """
        a = 1
        [providers."org.x"]   # comment [x]
        b = "=[]"
        "quoted.key" = 2
        [tools]
        proofread = [
          "x",
        ]
        """
        XCTAssertEqual(ConfigKeyLocator.line(of: ["a"], in: text), 1)
        XCTAssertEqual(ConfigKeyLocator.line(of: ["providers", "org.x"], in: text), 2)
        XCTAssertEqual(ConfigKeyLocator.line(of: ["providers", "org.x", "b"], in: text), 3)
        XCTAssertEqual(ConfigKeyLocator.line(of: ["providers", "org.x", "quoted.key"], in: text), 4)
        XCTAssertEqual(ConfigKeyLocator.line(of: ["tools", "proofread"], in: text), 6)
        XCTAssertNil(ConfigKeyLocator.line(of: ["tools", "summary"], in: text))
    }

    func testConfigurationReadsProofreadingTable() throws {
        let configuration = try ProviderConfiguration.parse("[proofreading]\ntypography = true\nrecurring_words = 5\n")
        XCTAssertEqual(configuration.proofreading, ProofreadingPreferences(families: [.typography], recurringWords: 5))
        XCTAssertThrowsError(try ProviderConfiguration.parse("[proofreading]\ntypo = true\n"))
        XCTAssertEqual(try ProviderConfiguration.parse("").proofreading, ProofreadingPreferences())
    }
}
