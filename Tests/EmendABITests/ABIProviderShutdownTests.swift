import Foundation
import XCTest
import CEmend
import EmendCABI
import EmendCore
import EmendTestSupport

/// No provider code of a coordinator executes in this process after emend_coordinator_destroy
/// returned, or after run_until_idle reported idle: a plugin in process (isolation = "none")
/// that ignores cancellation for 1.5 s (longer than the host waits for the run itself) is
/// waited for, within the 5 s grace of emend.h. A plugin in its provider host (the default)
/// runs none of its code here: destroy and idle do not wait for it (its host's reaper stops
/// it after cancel_grace_ms).
final class ABIProviderShutdownTests: XCTestCase {
    private var home: URL!
    private var marker: String!
    private var environment: SavedEnvironment?

    override func setUpWithError() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("emend-abi-shutdown-\(UUID().uuidString)")
        let providers = home.appendingPathComponent("providers")
        try FileManager.default.createDirectory(at: providers, withIntermediateDirectories: true)
        chmod(home.path, 0o755)
        chmod(providers.path, 0o755)
        environment = SavedEnvironment(["EMEND_PROVIDER_PATH", "EMEND_SCANNER", "EMEND_TEST_MARKER",
                                        "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME"])
        let plugin = providers.appendingPathComponent("stubborn.so").path
        do {
            try TestCompiler.scanner(to: home.appendingPathComponent("emend-scan").path)
            try TestCompiler.plugin(TestRepository.root + "/Tests/Fixtures/plugins/stubborn.c", to: plugin)
        } catch { throw XCTSkip("\(error)") }
        chmod(plugin, 0o755)
        marker = home.appendingPathComponent("marker").path
        // The plugin writes its marker outside its sandbox: the user grants that directory.
        let config = home.appendingPathComponent("config/emend")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try "[providers.\"org.emend.test.stubborn\"]\nsandbox_write_paths = [\"\(home.path)\"]\n"
            .write(to: config.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
        setenv("EMEND_PROVIDER_PATH", providers.path, 1)
        setenv("EMEND_SCANNER", home.appendingPathComponent("emend-scan").path, 1)
        setenv("EMEND_TEST_MARKER", marker, 1)
        environment?.setXDGDirectories(under: home.path)
    }

    override func tearDownWithError() throws {
        environment?.restore()
        try? FileManager.default.removeItem(at: home)
    }

    private func exists(_ suffix: String) -> Bool { access(marker + "." + suffix, F_OK) == 0 }

    /// The stubborn plugin in this process (isolation = "none") instead of its host.
    private func trustInProcess() throws {
        try "[providers.\"org.emend.test.stubborn\"]\nisolation = \"none\"\n"
            .write(to: home.appendingPathComponent("config/emend/config.toml"), atomically: true, encoding: .utf8)
    }

    /// A coordinator running the stubborn plugin, returned once the plugin is inside run.
    private func runningStubborn(_ engine: CEngine) throws -> OpaquePointer {
        let coordinator = try engine.makeCoordinator()
        let status = "org.emend.test.stubborn".withCString { id in
            var request = emend_tool_request(struct_size: MemoryLayout<emend_tool_request>.size, tool: EMEND_TOOL_REWRITE_FRIENDLY,
                                             scope: EMEND_SCOPE_USER_SELECTION, prompt: nil, provider_id: id)
            return emend_coordinator_start(coordinator, &request)
        }
        XCTAssertEqual(status, EMEND_OK, lastError)
        // Dispatch in short steps: the marker appears without the descriptor becoming readable,
        // and the test must act while the plugin has most of its 1.5 s still to go.
        let deadline = MonotonicClock.nowMilliseconds() + 10_000
        while !exists("entered"), MonotonicClock.nowMilliseconds() < deadline {
            XCTAssertEqual(emend_coordinator_dispatch(coordinator, nil), EMEND_OK)
            usleep(2000)
        }
        XCTAssertTrue(exists("entered"), "the plugin never entered run")
        XCTAssertFalse(exists("left"))
        return coordinator
    }

    func testDestroyWaitsForAPluginInsideRunInProcess() throws {
        try trustInProcess()
        let coordinator = try runningStubborn(CEngine("Hello there. How are you?"))
        let started = MonotonicClock.nowMilliseconds()
        emend_coordinator_destroy(coordinator)
        XCTAssertTrue(exists("left"), "emend_coordinator_destroy returned while the plugin was inside run")
        XCTAssertLessThan(MonotonicClock.nowMilliseconds() - started, 5000)
    }

    func testIdleAfterStopWaitsForAPluginInsideRunInProcess() throws {
        try trustInProcess()
        let engine = CEngine("Hello there. How are you?")
        let coordinator = try runningStubborn(engine)
        defer { emend_coordinator_destroy(coordinator) }
        let stopped = MonotonicClock.nowMilliseconds()
        XCTAssertEqual(emend_coordinator_stop(coordinator), EMEND_OK, lastError)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK, lastError)
        XCTAssertLessThan(MonotonicClock.nowMilliseconds() - stopped, 5000)
        XCTAssertTrue(exists("left"), "run_until_idle reported idle while the plugin was inside run")
        XCTAssertEqual(state(coordinator), EMEND_STATE_INACTIVE)
        XCTAssertEqual(engine.text, "Hello there. How are you?")
    }

    /// In its host the plugin's run executes in another process: destroy returns while it is
    /// still inside run (it has most of its 1.5 s to go), and the host ends without anyone
    /// here waiting (the plugin leaves run, or its host is killed after the cancel grace).
    func testDestroyDoesNotWaitForAPluginInsideRunInItsHost() throws {
        let coordinator = try runningStubborn(CEngine("Hello there. How are you?"))
        emend_coordinator_destroy(coordinator)
        XCTAssertFalse(exists("left"), "emend_coordinator_destroy waited for plugin code running in its host")
    }

    func testIdleAfterStopDoesNotWaitForAPluginInsideRunInItsHost() throws {
        let engine = CEngine("Hello there. How are you?")
        let coordinator = try runningStubborn(engine)
        defer { emend_coordinator_destroy(coordinator) }
        XCTAssertEqual(emend_coordinator_stop(coordinator), EMEND_OK, lastError)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK, lastError)
        XCTAssertFalse(exists("left"), "run_until_idle waited for plugin code running in its host")
        XCTAssertEqual(state(coordinator), EMEND_STATE_INACTIVE)
        XCTAssertEqual(engine.text, "Hello there. How are you?")
    }
}
