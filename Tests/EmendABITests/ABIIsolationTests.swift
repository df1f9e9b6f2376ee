import Foundation
import XCTest
import CEmend
import EmendCABI
import EmendCore
import EmendTestSupport

/// Through the C ABI, with the plugin found by discovery and run in emend-provider-host (the
/// default): a plugin that crashes fails the session with EMEND_E_PROVIDER and a message
/// naming it and the signal, the engine's document is untouched, this process goes on, the
/// next session works, and a plugin that keeps crashing is listed as broken.
final class ABIIsolationTests: XCTestCase {
    private var home: URL!
    private var environment: SavedEnvironment?
    private static let id = "org.emend.test.hostile"

    /// A providers directory with the hostile plugin, and config.toml with `settings` for it.
    private func setUp(settings: String) throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("emend-abi-isolation-\(UUID().uuidString)")
        let providers = home.appendingPathComponent("providers")
        let config = home.appendingPathComponent("config/emend")
        try FileManager.default.createDirectory(at: providers, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        chmod(home.path, 0o755)
        chmod(providers.path, 0o755)
        environment = SavedEnvironment(["EMEND_PROVIDER_PATH", "EMEND_SCANNER", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME"])
        let plugin = providers.appendingPathComponent("hostile.so").path
        do {
            try TestCompiler.scanner(to: home.appendingPathComponent("emend-scan").path)
            try TestCompiler.plugin(TestRepository.root + "/Tests/Fixtures/plugins/hostile.c", to: plugin)
        } catch { throw XCTSkip("\(error)") }
        chmod(plugin, 0o755)
        try "[providers.\"\(Self.id)\"]\n\(settings)\n".write(to: config.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
        setenv("EMEND_PROVIDER_PATH", providers.path, 1)
        setenv("EMEND_SCANNER", home.appendingPathComponent("emend-scan").path, 1)
        environment?.setXDGDirectories(under: home.path)
    }

    override func tearDownWithError() throws {
        environment?.restore()
        if let home { try? FileManager.default.removeItem(at: home) }
    }

    private func proofread(_ coordinator: OpaquePointer) -> emend_status {
        Self.id.withCString { id in
            var request = emend_tool_request(struct_size: MemoryLayout<emend_tool_request>.size, tool: EMEND_TOOL_PROOFREAD,
                                             scope: EMEND_SCOPE_FULL_DOCUMENT, prompt: nil, provider_id: id)
            return emend_coordinator_start(coordinator, &request)
        }
    }

    /// The hostile plugin's entry in the coordinator's provider list.
    private func info(_ coordinator: OpaquePointer) -> (enabled: Bool, reason: String)? {
        var count = 0
        XCTAssertEqual(emend_coordinator_provider_count(coordinator, &count), EMEND_OK)
        for index in 0..<count {
            var info = emend_provider_info()
            info.struct_size = MemoryLayout<emend_provider_info>.size
            XCTAssertEqual(emend_coordinator_get_provider(coordinator, index, &info), EMEND_OK)
            if let id = info.id, String(cString: id) == Self.id {
                return (info.enabled != 0, info.reason.map { String(cString: $0) } ?? "")
            }
        }
        return nil
    }

    func testACrashingPluginFailsTheSessionLeavesTheDocumentAndIsBrokenAfterThreeInARow() throws {
        try setUp(settings: "scenario = \"segv\"")
        let original = "Helo world, again."
        let engine = CEngine(original)
        let coordinator = try engine.makeCoordinator()
        defer { emend_coordinator_destroy(coordinator) }
        for attempt in 1...3 {
            XCTAssertEqual(proofread(coordinator), EMEND_OK, lastError)
            XCTAssertStatus(runUntilIdle(coordinator, 30_000), EMEND_E_PROVIDER,
                            mentions: ["provider '\(Self.id)' crashed (SIGSEGV)"])
            let message = String(cString: emend_last_error_message())
            XCTAssertEqual(message.components(separatedBy: Self.id).count, 2, "the plugin is named once: \(message)")
            var status = EMEND_OK
            XCTAssertEqual(emend_coordinator_last_session_status(coordinator, &status), EMEND_OK)
            XCTAssertEqual(status, EMEND_E_PROVIDER)
            XCTAssertEqual(engine.text, original, "attempt \(attempt): the document is untouched")
        }
        let listed = try XCTUnwrap(info(coordinator))
        XCTAssertFalse(listed.enabled)
        XCTAssertTrue(listed.reason.contains("broken") && listed.reason.contains("crashed (SIGSEGV)"), listed.reason)
        XCTAssertNotEqual(proofread(coordinator), EMEND_OK, "a broken plugin is not started again")
    }

    func testAPluginThatCrashesOnItsFirstRunProofreadsOnTheSecond() throws {
        let marker = NSTemporaryDirectory() + "emend-abi-crash-once-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: marker) }
        // The marker is written outside the plugin's sandbox: the user grants its directory.
        try setUp(settings: "scenario = \"crash-once\"\nmarker = \"\(marker)\"\n"
                  + "sandbox_write_paths = [\"\(NSTemporaryDirectory())\"]")
        let original = "Helo world, again."
        let engine = CEngine(original)
        let coordinator = try engine.makeCoordinator()
        defer { emend_coordinator_destroy(coordinator) }
        XCTAssertEqual(proofread(coordinator), EMEND_OK, lastError)
        XCTAssertStatus(runUntilIdle(coordinator, 30_000), EMEND_E_PROVIDER, mentions: ["crashed (SIGSEGV)"])
        XCTAssertEqual(engine.text, original)
        XCTAssertEqual(proofread(coordinator), EMEND_OK, lastError)
        XCTAssertEqual(runUntilIdle(coordinator, 30_000), EMEND_OK, lastError)
        XCTAssertEqual(suggestionCount(coordinator), 1)
        XCTAssertEqual(suggestion(coordinator, 0)?.replacement, "Fine")
        XCTAssertEqual(emend_session_revert(coordinator), EMEND_OK, lastError)
        runUntilIdle(coordinator)
        XCTAssertEqual(engine.text, original, "revert gives the original back")
    }
}
