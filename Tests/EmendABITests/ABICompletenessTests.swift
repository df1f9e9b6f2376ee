import XCTest
import Foundation
import CEmend
import EmendCABI
import EmendTestSupport

/// A proofread whose second checker runs past its time limit is partial, and the engine can
/// tell: emend_coordinator_get_completeness gives PARTIAL with a message naming the checker
/// and the setting to raise, and session_ended carries the same message.
final class ABICompletenessTests: XCTestCase {
    private var home: URL!
    private var environment: SavedEnvironment?

    override func setUpWithError() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("emend-abi-completeness-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home.appendingPathComponent("config/emend"), withIntermediateDirectories: true)
        environment = SavedEnvironment(["XDG_CONFIG_HOME", "EMEND_FIXTURE_SLOW_CHECKER_MS"])
        setenv("XDG_CONFIG_HOME", home.appendingPathComponent("config").path, 1)
    }

    override func tearDownWithError() throws {
        environment?.restore()
        try? FileManager.default.removeItem(at: home)
    }

    private func configure(slowMilliseconds: Int, timeoutMilliseconds: Int) throws {
        setenv("EMEND_FIXTURE_SLOW_CHECKER_MS", "\(slowMilliseconds)", 1)
        try """
            [tools]
            proofread = ["org.emend.fixture", "org.emend.fixture.slow"]
            [providers."org.emend.fixture.slow"]
            timeout_ms = \(timeoutMilliseconds)

            """.write(to: home.appendingPathComponent("config/emend/config.toml"), atomically: true, encoding: .utf8)
    }

    func testALateCheckerMakesThePartialResultTheEngineCanRead() throws {
        try configure(slowMilliseconds: 20_000, timeoutMilliseconds: 300)
        let engine = CEngine("See you tomorow.")
        let coordinator = try engine.makeCoordinator()
        defer { emend_coordinator_destroy(coordinator) }
        XCTAssertEqual(completeness(coordinator).0, EMEND_COMPLETENESS_UNKNOWN, "nothing ran yet")
        XCTAssertEqual(start(coordinator, EMEND_TOOL_PROOFREAD), EMEND_OK, lastError)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK, lastError)
        XCTAssertEqual(suggestionCount(coordinator), 1, "the suggestion of the checker that answered")
        let (value, message) = completeness(coordinator)
        XCTAssertEqual(value, EMEND_COMPLETENESS_PARTIAL)
        XCTAssertTrue(message.hasPrefix("partial result: org.emend.fixture.slow did not finish within 300 ms"), message)
        XCTAssertTrue(message.contains("[providers.\"org.emend.fixture.slow\"] timeout_ms"), message)
        XCTAssertEqual(emend_session_accept(coordinator), EMEND_OK)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK)
        XCTAssertEqual(engine.endings.map(\.status), [EMEND_OK])
        XCTAssertEqual(engine.endings.first?.message, message, "session_ended tells an engine that only listens")
        XCTAssertEqual(completeness(coordinator).0, EMEND_COMPLETENESS_PARTIAL, "the last ended session's, until a new run")
        // A buffer too small for the message is a range error that still says how much is needed.
        var small = [CChar](repeating: 0, count: 8)
        var needed = 0
        var told = EMEND_COMPLETENESS_UNKNOWN
        XCTAssertStatus(emend_coordinator_get_completeness(coordinator, &told, &small, small.count, &needed), EMEND_E_RANGE)
        XCTAssertEqual(needed, message.utf8.count)
        XCTAssertEqual(told, EMEND_COMPLETENESS_PARTIAL)
    }

    func testACheckerWithinItsLimitGivesACompleteResultAndAnEmptyMessage() throws {
        try configure(slowMilliseconds: 50, timeoutMilliseconds: 20_000)
        let engine = CEngine("See you tomorow.")
        let coordinator = try engine.makeCoordinator()
        defer { emend_coordinator_destroy(coordinator) }
        XCTAssertEqual(start(coordinator, EMEND_TOOL_PROOFREAD), EMEND_OK, lastError)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK, lastError)
        let (value, message) = completeness(coordinator)
        XCTAssertEqual(value, EMEND_COMPLETENESS_COMPLETE)
        XCTAssertEqual(message, "")
        XCTAssertEqual(emend_session_accept(coordinator), EMEND_OK)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK)
        XCTAssertEqual(engine.endings.map(\.message), [""])
    }

    func testTheGetterChecksItsArguments() throws {
        let engine = CEngine("Text.")
        let coordinator = try engine.makeCoordinator()
        defer { emend_coordinator_destroy(coordinator) }
        var value = EMEND_COMPLETENESS_PARTIAL
        XCTAssertStatus(emend_coordinator_get_completeness(coordinator, &value, nil, 0, nil), EMEND_E_INVALID_ARGUMENT, mentions: ["length"])
        XCTAssertStatus(emend_coordinator_get_completeness(nil, &value, nil, 0, nil), EMEND_E_INVALID_ARGUMENT, mentions: ["coordinator"])
        var length = 99
        XCTAssertEqual(emend_coordinator_get_completeness(coordinator, nil, nil, 0, &length), EMEND_OK, "out_completeness may be NULL")
        XCTAssertEqual(length, 0)
    }
}
