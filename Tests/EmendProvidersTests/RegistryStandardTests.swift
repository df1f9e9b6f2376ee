import XCTest
import EmendCore
@testable import EmendProviders

final class RegistryStandardTests: XCTestCase {
    // The fixture counts its loads in a marker file it writes from inside the scanner's (and
    // the host's) sandbox: these tests count loads, so the filesystem layer is left out.
    override func setUp() {
        super.setUp()
        setenv("EMEND_SANDBOX_SKIP", "landlock-fs", 1)
    }

    override func tearDown() {
        unsetenv("EMEND_SANDBOX_SKIP")
        super.tearDown()
    }

    func testStandardPlacesAndAWarmStartLoadsNothing() throws {
        let scratch = ScratchDirectory()
        let fromEnvironment = scratch.directory("env")
        let fromData = scratch.directory("data/emend/providers")
        let fromLibrary = scratch.directory("lib/emend/providers")
        let marker = scratch.path + "/marker"
        try DiscoveryFixtures.compile("good", to: fromEnvironment + "/good.so",
                                      defines: ["MARKER_PATH=\"\(marker)\"", "PLUGIN_PRIORITY=5"])
        try DiscoveryFixtures.install("crash", at: fromData + "/crash.so")
        try DiscoveryFixtures.compile("good", to: fromLibrary + "/good.so", defines: ["PLUGIN_ID=\"org.test.hidden\""])
        try DiscoveryFixtures.compile("good", to: fromLibrary + "/cloud.so",
                                      defines: ["PLUGIN_ID=\"org.test.cloud\"", "PLUGIN_FLAGS=EMEND_PROVIDER_USES_NETWORK"])
        _ = scratch.directory("config/emend")
        _ = scratch.write("[tools]\nproofread = [\"org.emend.fixture\"]\n", to: "config/emend/config.toml")
        let environment = ["EMEND_PROVIDER_PATH": fromEnvironment, "XDG_DATA_HOME": scratch.path + "/data",
                           "XDG_CACHE_HOME": scratch.path + "/cache", "XDG_CONFIG_HOME": scratch.path + "/config",
                           "HOME": scratch.path + "/home"]
        func start() throws -> ProviderRegistry {
            try ProviderRegistry.standard(environment: environment, libraryDirectory: scratch.path + "/lib",
                                          scannerPath: DiscoveryFixtures.scanner, builtins: [FixtureProvider()])
        }

        let cold = try start()
        XCTAssertEqual(Set(cold.discovery.probed), [fromEnvironment + "/good.so", fromData + "/crash.so", fromLibrary + "/cloud.so"])
        XCTAssertEqual(cold.discovery.shadowed, [fromLibrary + "/good.so"])
        XCTAssertEqual(cold.discovery.broken, [BrokenProvider(path: fromData + "/crash.so", reason: "crashes while loading (signal 11)")])
        XCTAssertEqual(cold.entries.map(\.id), ["org.emend.fixture", "org.test.good", "org.test.cloud"])
        XCTAssertEqual(cold.entries.last?.disabledReason, "uses the network; set network = true in config.toml")
        XCTAssertTrue(FileManager.default.fileExists(atPath: scratch.path + "/cache/emend/providers.cache"))
        XCTAssertEqual(markerLines(marker), 1, "probed once, in the scanner")

        let warm = try start()
        XCTAssertEqual(warm.discovery.probed, [])
        XCTAssertEqual(warm.discovery.broken, cold.discovery.broken)
        XCTAssertEqual(try warm.provider(for: .proofread, named: nil).id, "org.emend.fixture", "the configuration's order")
        XCTAssertEqual(try warm.provider(for: .rewriteFriendly, named: nil).id, "org.test.good", "the higher priority")
        XCTAssertEqual(markerLines(marker), 1, "choosing a plugin does not load it; its first run does")

        let chosen = try warm.provider(for: .rewriteFriendly, named: nil)
        _ = chosen.run(ProviderRequest(tool: .rewriteFriendly, text: "hi", selection: 0..<2), sink: QuietSink())
        XCTAssertEqual(markerLines(marker), 2, "loaded into this process by its first run")
        XCTAssertTrue(try warm.provider(for: .rewriteFriendly, named: nil) as AnyObject === chosen as AnyObject, "made once")
    }

    func testInvalidConfigurationStopsTheStartWithItsLocation() throws {
        let scratch = ScratchDirectory()
        _ = scratch.directory("config/emend")
        let path = scratch.write("network = 1\n", to: "config/emend/config.toml")
        XCTAssertThrowsError(try ProviderRegistry.standard(environment: ["XDG_CONFIG_HOME": scratch.path + "/config"],
                                                           libraryDirectory: nil, scannerPath: nil, builtins: [])) { error in
            XCTAssertEqual((error as? EmendError)?.message, "\(path):1: network must be true or false, not an integer")
        }
    }
}

/// A sink that drops everything.
private struct QuietSink: ProviderSink {
    var isCancelled: Bool { false }
    func emitText(_ chunk: String) {}
    func emitEdit(_ edit: ProviderEdit) {}
    func log(_ message: String) {}
}
