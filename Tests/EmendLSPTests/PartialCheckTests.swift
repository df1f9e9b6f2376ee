import Foundation
import XCTest

/// A check whose second checker runs past its time limit is partial: the diagnostics of the
/// checker that answered, and a warning (window/showMessage) naming the late checker and
/// the setting to raise, so that a clean-looking file is not taken for a checked one.
final class PartialCheckTests: XCTestCase {
    private var configHome: String!

    override func setUp() {
        configHome = NSTemporaryDirectory() + "emend-lsp-partial-\(UUID().uuidString)"
        try! FileManager.default.createDirectory(atPath: configHome + "/emend", withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: configHome) }

    private func client(slowMilliseconds: Int, timeoutMilliseconds: Int) -> LSPTestClient {
        try! """
            [tools]
            proofread = ["org.emend.fixture", "org.emend.fixture.slow"]
            [providers."org.emend.fixture.slow"]
            timeout_ms = \(timeoutMilliseconds)

            """.write(toFile: configHome + "/emend/config.toml", atomically: true, encoding: .utf8)
        return LSPTestClient(environment: ["XDG_CONFIG_HOME": configHome, "EMEND_FIXTURE_SLOW_CHECKER_MS": "\(slowMilliseconds)"])
    }

    func testALateCheckerIsAWarningBesideTheDiagnosticsOfTheOthers() {
        let client = client(slowMilliseconds: 20_000, timeoutMilliseconds: 300)
        client.initialize()
        client.open("file:///late.txt", "See you tomorow.\n")
        XCTAssertEqual(client.diagnostics("file:///late.txt", version: 1).count, 1, "the answer of the checker that finished")
        let text = client.warning()
        XCTAssertTrue(text.contains("partial result: org.emend.fixture.slow did not finish within 300 ms"), text)
        XCTAssertTrue(text.contains("[providers.\"org.emend.fixture.slow\"] timeout_ms"), text)
        XCTAssertEqual(client.shutdownAndExit(), 0)
    }

    /// A check that failed has no result: an error that says why each checker gave nothing,
    /// and no "partial result" warning beside it.
    func testAFailedCheckIsAnErrorWithItsReasonsAndNoPartialWarning() {
        let client = client(slowMilliseconds: 20_000, timeoutMilliseconds: 300)
        client.initialize()
        client.open("file:///fail.txt", "This text asks for a failure [fixture:fail] tomorow.\n")
        let shown = client.wait("window/showMessage") { $0["method"] as? String == "window/showMessage" }
        let params = shown?["params"] as? [String: Any]
        XCTAssertEqual(params?["type"] as? Int, 1, "an error: \(String(describing: shown))")
        let text = params?["message"] as? String ?? ""
        XCTAssertTrue(text.contains("the text asked for a failure"), text)
        XCTAssertTrue(text.contains("org.emend.fixture.slow did not finish within 300 ms"), text)
        XCTAssertFalse(text.contains("partial") || text.contains("left out"), text)
        XCTAssertEqual(client.shutdownAndExit(), 0)
        let others = client.pending.filter { $0["method"] as? String == "window/showMessage" }
            .compactMap { ($0["params"] as? [String: Any])?["message"] as? String }
        XCTAssertFalse(others.contains { $0.contains("partial") }, "\(others)")
    }

    func testACheckerWithinItsLimitSaysNothing() {
        let client = client(slowMilliseconds: 50, timeoutMilliseconds: 20_000)
        client.initialize()
        client.open("file:///whole.txt", "See you tomorow.\n")
        XCTAssertEqual(client.diagnostics("file:///whole.txt", version: 1).count, 1)
        XCTAssertEqual(client.shutdownAndExit(), 0)
        XCTAssertFalse(client.pending.contains { $0["method"] as? String == "window/showMessage" }, "\(client.pending)")
    }
}
