import Foundation
import XCTest
import EmendCore
@testable import EmendProviders

final class SimpleManifestTests: XCTestCase {
    private let example = SimpleFormTestSupport.repoRoot + "/examples/plugins/simple"

    /// A valid manifest; each error case below changes one part of it.
    private let valid = """
    [provider]
    id = "org.emend.test.valid"
    name = "Valid"
    version = "2.1"
    tools = ["rewrite-described", "follow-up"]

    [function]
    library = "lib/libvalid.so"
    symbol = "valid_fn"
    returns = "string"
    free = "valid_free"
    arguments = ["text", "setting:level:int", "setting:suffix:string"]

    [settings]
    level = 2
    suffix = "!"
    """

    func testExampleManifestLoadsWithoutOpeningTheLibrary() throws {
        // The example's library is not built here: loading must not need it.
        let manifest = try SimpleManifest.load(path: example + "/shout.toml")
        XCTAssertEqual(manifest.path, example + "/shout.toml")
        XCTAssertEqual(manifest.id, "org.emend.example.shout")
        XCTAssertEqual(manifest.name, "Shout")
        XCTAssertEqual(manifest.version, "1.0")
        XCTAssertEqual(manifest.tools, [.rewriteDescribed, .followUp])
        XCTAssertEqual(manifest.languages, ["*"])
        XCTAssertEqual(manifest.priority, 0)
        XCTAssertFalse(manifest.usesNetwork)
        XCTAssertEqual(manifest.libraryPath, example + "/simple-shout/libshout.so")
        XCTAssertEqual(manifest.symbol, "shout")
        XCTAssertEqual(manifest.returns, .string)
        XCTAssertEqual(manifest.requiredSymbols, ["shout", "shout_free"])
        XCTAssertEqual(manifest.arguments, [.text, .setting(name: "level", type: .int), .setting(name: "suffix", type: .string)])
        XCTAssertEqual(manifest.defaults, ["level": .int(1), "suffix": .string("!")])
        XCTAssertFalse(manifest.streams)

        let record = manifest.record(path: "/providers/shout.toml")
        XCTAssertEqual(record, ProviderRecord(path: "/providers/shout.toml", kind: .simple, id: "org.emend.example.shout",
                                              name: "Shout", version: "1.0", tools: [.rewriteDescribed, .followUp],
                                              languages: ["*"], outputs: 1, streams: false, usesNetwork: false, priority: 0))
    }

    func testStreamingExampleManifest() throws {
        let manifest = try SimpleManifest.load(path: example + "/shout-stream.toml")
        XCTAssertEqual(manifest.tools, [.compose])
        XCTAssertEqual(manifest.returns, .void)
        XCTAssertNil(manifest.freeSymbol)
        XCTAssertEqual(manifest.requiredSymbols, ["shout_stream"])
        XCTAssertEqual(manifest.arguments, [.prompt, .emit])
        XCTAssertTrue(manifest.streams)
        XCTAssertTrue(manifest.record(path: manifest.path).streams)
        XCTAssertEqual(manifest.record(path: manifest.path).kind, .simple)
    }

    func testOptionalKeysAndEveryArgumentKind() throws {
        let manifest = try SimpleManifest.parse("""
        [provider]
        id = "org.emend.test.kinds"
        name = "Kinds"
        version = "1"
        tools = ["proofread"]
        languages = ["en", "de-CH"]
        priority = -5
        network = true

        [function]
        library = "/opt/lib/libkinds.so"
        symbol = "_kinds2"
        returns = "void"
        arguments = ["text", "prompt", "language", "previous_result", "emit", "setting:s:string", "setting:i:int", "setting:d:double", "setting:b-1:bool", "text"]

        [settings]
        s = "x"
        i = -9000000000
        d = 2
        b-1 = true
        """, path: "/etc/emend/kinds.toml")
        XCTAssertEqual(manifest.languages, ["en", "de-CH"])
        XCTAssertEqual(manifest.priority, -5)
        XCTAssertTrue(manifest.usesNetwork)
        XCTAssertEqual(manifest.libraryPath, "/opt/lib/libkinds.so")
        XCTAssertEqual(manifest.arguments, [.text, .prompt, .language, .previousResult, .emit,
                                            .setting(name: "s", type: .string), .setting(name: "i", type: .int),
                                            .setting(name: "d", type: .double), .setting(name: "b-1", type: .bool), .text])
        XCTAssertEqual(manifest.arguments.map(\.spelling), ["text", "prompt", "language", "previous_result", "emit",
                                                            "setting:s:string", "setting:i:int", "setting:d:double", "setting:b-1:bool", "text"])
        XCTAssertEqual(manifest.defaults, ["s": .string("x"), "i": .int(-9_000_000_000), "d": .double(2), "b-1": .bool(true)])
        XCTAssertEqual(manifest.record(path: manifest.path).usesNetwork, true)
        XCTAssertEqual(manifest.record(path: manifest.path).priority, -5)
    }

    func testLibraryPathIsResolvedAgainstTheManifestDirectory() throws {
        let text = valid.replacingOccurrences(of: "lib/libvalid.so", with: "./sub/./libvalid.so")
        XCTAssertEqual(try SimpleManifest.parse(text, path: "/p/q/valid.toml").libraryPath, "/p/q/sub/libvalid.so")
        // A relative manifest path is taken from the working directory.
        let cwd = FileManager.default.currentDirectoryPath
        let relative = try SimpleManifest.parse(valid, path: "some/valid.toml")
        XCTAssertEqual(relative.path, cwd + "/some/valid.toml")
        XCTAssertEqual(relative.libraryPath, cwd + "/some/lib/libvalid.so")
    }

    func testUnreadableManifest() {
        XCTAssertThrowsError(try SimpleManifest.load(path: "/nonexistent/emend/x.toml")) { error in
            let error = error as! EmendError
            XCTAssertEqual(error.status, .notFound)
            XCTAssertTrue(error.message.hasPrefix("/nonexistent/emend/x.toml: cannot open"), error.message)
        }
    }

    func testLoadReportsTheFilePath() throws {
        let path = SimpleFormTestSupport.writeManifest(valid.replacingOccurrences(of: "\"setting:level:int\"", with: "\"setting:level:float32\""))
        XCTAssertThrowsError(try SimpleManifest.load(path: path)) { error in
            let message = (error as! EmendError).message
            XCTAssertEqual(message, "\(path): [function] arguments[1]: unknown type \"float32\" in \"setting:level:float32\" (types: string, int, double, bool)")
        }
    }

    func testEveryManifestError() {
        // (what to replace in `valid`, its replacement, what the message must contain)
        let cases: [(String, String, String)] = [
            ("\"setting:level:int\"", "\"setting:level:float32\"", "[function] arguments[1]: unknown type \"float32\""),
            ("\"text\", ", "\"selection\", ", "[function] arguments[0]: unknown argument kind \"selection\""),
            ("symbol = \"valid_fn\"\n", "", "[function] symbol: missing"),
            ("returns = \"string\"\nfree = \"valid_free\"\n", "returns = \"void\"\n", "[function] arguments: returns = \"void\" needs an \"emit\" argument"),
            ("[\"text\", ", "[\"text\", \"emit\", ", "[function] arguments[1]: \"emit\" is only for returns = \"void\""),
            ("\"follow-up\"", "\"shout\"", "[provider] tools[1]: unknown tool \"shout\""),
            ("free = \"valid_free\"\n", "", "[function] free: missing"),
            ("returns = \"string\"\n", "returns = \"void\"\n", "[function] free: only for returns = \"string\""),
            ("returns = \"string\"", "returns = \"int\"", "[function] returns: unknown return type \"int\""),
            ("symbol = \"valid_fn\"", "symbol = \"valid-fn\"", "[function] symbol: \"valid-fn\" is not a C identifier"),
            ("symbol = \"valid_fn\"", "symbol = 3", "[function] symbol: must be a string, not integer"),
            ("free = \"valid_free\"", "free = \"9free\"", "[function] free: \"9free\" is not a C identifier"),
            ("library = \"lib/libvalid.so\"", "library = \"\"", "[function] library: must not be empty"),
            ("library = \"lib/libvalid.so\"\n", "", "[function] library: missing"),
            ("arguments = [", "args = [", "[function] args: unknown key"),
            ("[provider]\n", "[provider]\nsymbol = \"x\"\n", "[provider] symbol: unknown key"),
            ("[settings]", "[extra]\n[settings]", "unknown table [extra]"),
            ("[provider]\n", "stray = 1\n[provider]\n", "key \"stray\" outside any table"),
            ("[provider]\nid = \"org.emend.test.valid\"\nname = \"Valid\"\nversion = \"2.1\"\ntools = [\"rewrite-described\", \"follow-up\"]\n", "", "[provider] is missing"),
            ("[function]\n", "[functions]\n", "unknown table [functions]"),
            ("id = \"org.emend.test.valid\"\n", "", "[provider] id: missing"),
            ("id = \"org.emend.test.valid\"", "id = \"org emend\"", "[provider] id: \"org emend\" is not a reverse-DNS identifier"),
            ("name = \"Valid\"\n", "", "[provider] name: missing"),
            ("version = \"2.1\"\n", "", "[provider] version: missing"),
            ("tools = [\"rewrite-described\", \"follow-up\"]", "tools = []", "[provider] tools: must name at least one tool"),
            ("tools = [\"rewrite-described\", \"follow-up\"]", "tools = \"proofread\"", "[provider] tools: must be an array of strings"),
            ("tools = [\"rewrite-described\", \"follow-up\"]", "tools = [\"proofread\", 4]", "[provider] tools[1]: must be a non-empty string"),
            ("[provider]\n", "[provider]\nlanguages = []\n", "[provider] languages: must not be empty"),
            ("[provider]\n", "[provider]\npriority = 3000000000\n", "[provider] priority: 3000000000 is out of range"),
            ("[provider]\n", "[provider]\nnetwork = \"no\"\n", "[provider] network: must be true or false"),
            ("level = 2\n", "", "[settings] level: missing: every setting argument needs a default"),
            ("level = 2", "level = \"two\"", "[settings] level: is string two, but the argument is declared int (C long)"),
            ("level = 2", "level = 2.5", "[settings] level: is float 2.5, but the argument is declared int"),
            ("suffix = \"!\"", "suffix = \"a\\u0000b\"", "[settings] suffix: contains a NUL byte"),
            ("level = 2", "level = 2\nlevle = 3", "[settings] levle: no setting:levle:TYPE argument uses it (settings: level, suffix)"),
            ("\"setting:suffix:string\"", "\"setting:level:string\"", "[function] arguments[2]: setting \"level\" appears twice"),
            ("\"setting:suffix:string\"", "\"setting:suffix\"", "[function] arguments[2]: \"setting:suffix\" is not setting:NAME:TYPE"),
            ("\"setting:suffix:string\"", "\"setting:suf fix:string\"", "[function] arguments[2]: \"suf fix\" in \"setting:suf fix:string\" is not a setting name"),
            ("\"setting:suffix:string\"", "\"setting:enabled:bool\"", "[function] arguments[2]: the setting name \"enabled\" is reserved"),
            ("arguments = [\"text\", ", "arguments = [\"text\", 1, ", "[function] arguments[1]: must be a non-empty string, not integer 1"),
            ("returns = \"string\"\nfree = \"valid_free\"\narguments = [\"text\", ", "returns = \"void\"\narguments = [\"emit\", \"emit\", ", "[function] arguments[1]: \"emit\" appears twice"),
            ("level = 2", "level = {a = 1}", ":15: inline tables are not supported"),
        ]
        for (old, new, expected) in cases {
            XCTAssertTrue(valid.contains(old), "case \(expected): \(old) is not in the manifest")
            let text = valid.replacingOccurrences(of: old, with: new)
            XCTAssertThrowsError(try SimpleManifest.parse(text, path: "/m/bad.toml"), expected) { error in
                let error = error as! EmendError
                XCTAssertEqual(error.status, .invalidArgument, error.message)
                XCTAssertTrue(error.message.hasPrefix("/m/bad.toml"), "\(error.message) does not name the manifest")
                XCTAssertTrue(error.message.contains(expected), "\(error.message)\n  lacks: \(expected)")
            }
        }
    }

    func testSettingsOverrides() throws {
        let manifest = try SimpleManifest.parse(valid, path: "/m/valid.toml")
        var overrides = TOMLTable()
        overrides["suffix"] = .string("?")
        XCTAssertEqual(try manifest.settings(overriddenBy: overrides), ["level": .int(2), "suffix": .string("?")])
        XCTAssertEqual(try manifest.settings(overriddenBy: TOMLTable()), ["level": .int(2), "suffix": .string("!")])

        let wrong: [(String, TOMLValue, String)] = [
            ("level", .string("3"), "config.toml [providers.\"org.emend.test.valid\"] level: is string 3, but the argument is declared int (C long) by /m/valid.toml"),
            ("suffix", .boolean(true), "suffix: is boolean true, but the argument is declared string"),
            ("colour", .string("red"), "config.toml [providers.\"org.emend.test.valid\"] colour: not a setting of /m/valid.toml (settings: level, suffix)"),
        ]
        for (key, value, expected) in wrong {
            var table = TOMLTable()
            table[key] = value
            XCTAssertThrowsError(try manifest.settings(overriddenBy: table)) { error in
                let error = error as! EmendError
                XCTAssertEqual(error.status, .invalidArgument)
                XCTAssertTrue(error.message.contains(expected), "\(error.message)\n  lacks: \(expected)")
            }
        }
    }
}
