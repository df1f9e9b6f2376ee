import Foundation
import XCTest

/// `emend doctor` finds what is wrong with an installation and says what to do.
final class DoctorTests: XCTestCase {
    private var sandbox: CLISandbox!

    override func setUp() {
        sandbox = CLISandbox()
    }

    func testABrokenPluginAndABadConfigurationAreProblemsWithAFix() throws {
        let plugins = sandbox.root + "/plugins"
        try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: true)
        chmod(plugins, 0o755)
        _ = FileManager.default.createFile(atPath: plugins + "/bad.toml", contents: Data("name = \"x\"\n".utf8))
        chmod(plugins + "/bad.toml", 0o644)
        sandbox.environment["EMEND_PROVIDER_PATH"] = plugins
        let result = sandbox.run(["doctor", "--quick"])
        XCTAssertEqual(result.status, 1, "a problem makes doctor fail: \(result.stdout)")
        XCTAssertTrue(result.stdout.contains("PROBLEM provider"), result.stdout)
        XCTAssertTrue(result.stdout.contains(plugins + "/bad.toml is broken"), result.stdout)
        XCTAssertTrue(result.stdout.contains("→ rebuild it"), result.stdout)
        XCTAssertTrue(result.stdout.contains("dictionaries"), result.stdout)

        try FileManager.default.createDirectory(atPath: sandbox.root + "/config/emend", withIntermediateDirectories: true)
        try "network = maybe\n".write(toFile: sandbox.root + "/config/emend/config.toml", atomically: true, encoding: .utf8)
        let bad = sandbox.run(["doctor", "--quick", "--json"])
        XCTAssertEqual(bad.status, 1)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(bad.stdout.utf8)) as? [String: Any])
        let lines = try XCTUnwrap(object["lines"] as? [[String: Any]])
        let config = try XCTUnwrap(lines.first { $0["check"] as? String == "configuration" })
        XCTAssertEqual(config["level"] as? String, "problem")
        XCTAssertNotNil(config["fix"] as? String)
    }

    /// Doctor prints the level of the plugin sandbox on this machine, and names the layers
    /// the kernel refused (here one is left out on purpose, as a kernel without it would).
    func testTheSandboxLevelIsPrinted() throws {
        let result = sandbox.run(["doctor", "--quick", "--json"])
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let lines = try XCTUnwrap(object["lines"] as? [[String: Any]])
        let line = try XCTUnwrap(lines.first { $0["check"] as? String == "sandbox" }, result.stdout)
        let text = try XCTUnwrap(line["detail"] as? String, "\(line)")
        print("doctor on this machine: sandbox \(text)")
        XCTAssertTrue(["full", "partial", "none"].contains { text.hasPrefix($0) }, text)

        sandbox.environment["EMEND_SANDBOX_SKIP"] = "seccomp"
        let partial = sandbox.run(["doctor", "--quick"])
        XCTAssertTrue(partial.stdout.contains("sandbox       partial"), partial.stdout)
        XCTAssertTrue(partial.stdout.contains("refused: seccomp"), partial.stdout)
    }

    func testHelpNamesEveryCheck() {
        let help = sandbox.run(["doctor", "--help"])
        XCTAssertEqual(help.status, 0)
        let words = help.stdout.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
        XCTAssertTrue(words.contains("providers tried on one sentence"), help.stdout)
        XCTAssertTrue(words.contains("--quick"), help.stdout)
    }
}
