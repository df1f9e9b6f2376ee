import Foundation
import XCTest

final class ProvidersConfigTests: XCTestCase {
    private var sandbox: CLISandbox!

    override func setUp() {
        sandbox = CLISandbox()
    }

    func testProvidersListsTheFixtureAndWhatEachToolUses() throws {
        let result = sandbox.run(["providers"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("org.emend.fixture (built-in, on)"), result.stdout)
        XCTAssertTrue(result.stdout.contains("serves: proofread, rewrite-friendly"), result.stdout)
        XCTAssertTrue(result.stdout.contains("  proofread             org.emend.fixture"), result.stdout)

        let json = sandbox.run(["providers", "--json"])
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let providers = try XCTUnwrap(object["providers"] as? [[String: Any]])
        XCTAssertEqual(providers.map { $0["id"] as? String }, ["org.emend.fixture"])
        XCTAssertEqual(providers.first?["kind"] as? String, "built-in")
        XCTAssertEqual((object["defaults"] as? [String: String])?["summary"], "org.emend.fixture")
        XCTAssertEqual((object["broken"] as? [Any])?.count, 0)
    }

    func testBrokenPluginsAreListedWithTheirReason() throws {
        let plugins = sandbox.root + "/plugins"
        try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: true)
        chmod(plugins, 0o755)
        _ = FileManager.default.createFile(atPath: plugins + "/bad.toml", contents: Data("name = \"x\"\n".utf8))
        chmod(plugins + "/bad.toml", 0o644)
        sandbox.environment["EMEND_PROVIDER_PATH"] = plugins
        let result = sandbox.run(["providers"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("Broken"), result.stdout)
        XCTAssertTrue(result.stdout.contains(plugins + "/bad.toml"), result.stdout)
        XCTAssertTrue(result.stdout.contains("outside any table"), result.stdout)
        let json = sandbox.run(["providers", "--json"])
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let broken = try XCTUnwrap(object["broken"] as? [[String: Any]])
        XCTAssertEqual(broken.first?["path"] as? String, plugins + "/bad.toml")
        XCTAssertNotNil(broken.first?["reason"] as? String)
    }

    func testConfigShowsWhereItLivesAndWhatIsInEffect() throws {
        let missing = sandbox.run(["config"])
        XCTAssertEqual(missing.status, 0, missing.stderr)
        XCTAssertTrue(missing.stdout.contains(sandbox.root + "/config/emend/config.toml (not present"), missing.stdout)
        XCTAssertTrue(missing.stdout.contains("network = false"), missing.stdout)
        XCTAssertTrue(missing.stdout.contains("[proofreading] on: -"), missing.stdout)
        XCTAssertTrue(missing.stdout.contains("your words:      \(sandbox.root)/config/emend/dictionary.txt (0 words)"), missing.stdout)

        try FileManager.default.createDirectory(atPath: sandbox.root + "/config/emend", withIntermediateDirectories: true)
        try """
            network = true
            [tools]
            proofread = ["org.example.speller", "org.emend.fixture"]
            [providers."org.emend.fixture"]
            strictness = 3
            [proofreading]
            typography = true
            """.write(toFile: sandbox.root + "/config/emend/config.toml", atomically: true, encoding: .utf8)
        try "pixbuf\nlibjpeg\n".write(toFile: sandbox.root + "/config/emend/dictionary.txt", atomically: true, encoding: .utf8)
        let present = sandbox.run(["config"])
        XCTAssertEqual(present.status, 0, present.stderr)
        XCTAssertTrue(present.stdout.contains("network = true"), present.stdout)
        XCTAssertTrue(present.stdout.contains("proofread = [\"org.example.speller\", \"org.emend.fixture\"]"), present.stdout)
        XCTAssertTrue(present.stdout.contains("strictness = 3"), present.stdout)
        let json = sandbox.run(["config", "--json"])
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(object["configFileExists"] as? Bool, true)
        XCTAssertEqual(object["network"] as? Bool, true)
        XCTAssertEqual((object["toolOrder"] as? [String: [String]])?["proofread"], ["org.example.speller", "org.emend.fixture"])
        XCTAssertEqual(object["proofreadingFamilies"] as? [String], ["typography"])
        XCTAssertEqual(object["dictionaryWords"] as? Int, 2)

        // A broken configuration is an input error that names the file and line.
        try "network = \"yes\"\n".write(toFile: sandbox.root + "/config/emend/config.toml", atomically: true, encoding: .utf8)
        let broken = sandbox.run(["proofread", "-"], stdin: "fine\n")
        XCTAssertEqual(broken.status, 2)
        XCTAssertTrue(broken.stderr.contains("config.toml:1: network must be true or false"), broken.stderr)
    }

    func testChoosingAProvider() {
        sandbox.write("a.txt", "I beleive it.\n")
        XCTAssertEqual(sandbox.run(["proofread", "--provider", "org.emend.fixture", "a.txt"]).status, 1)
        let unknown = sandbox.run(["proofread", "--provider", "org.example.nothing", "a.txt"])
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.stderr.contains("no provider \"org.example.nothing\" (installed: org.emend.fixture)"), unknown.stderr)
        XCTAssertTrue(unknown.stderr.contains("emend providers"), unknown.stderr)
    }
}
