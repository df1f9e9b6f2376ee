import Foundation
import XCTest
import CEmend
import EmendCABI
import EmendTestSupport

/// Engines list the providers a coordinator found and choose one per tool; a broken
/// config.toml is a clear error at create.
final class ABIProviderTests: XCTestCase {
    private var home: URL!
    private var environment: SavedEnvironment?

    override func setUpWithError() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("emend-abi-providers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        environment = SavedEnvironment(["EMEND_PROVIDER_PATH", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME"])
        setenv("EMEND_PROVIDER_PATH", "", 1)
        environment?.setXDGDirectories(under: home.path)
    }

    override func tearDownWithError() throws {
        environment?.restore()
        try? FileManager.default.removeItem(at: home)
    }

    func testTheBuiltInFixtureIsListedAndCanBeChosen() throws {
        let engine = CEngine("See you tomorow.")
        let coordinator = try engine.makeCoordinator()
        defer { emend_coordinator_destroy(coordinator) }
        var count = 0
        XCTAssertEqual(emend_coordinator_provider_count(coordinator, &count), EMEND_OK)
        XCTAssertEqual(count, 1, "no plugins here: only the built-in fixture")
        var info = emend_provider_info()
        info.struct_size = MemoryLayout<emend_provider_info>.size
        XCTAssertEqual(emend_coordinator_get_provider(coordinator, 0, &info), EMEND_OK)
        XCTAssertEqual(String(cString: info.id), "org.emend.fixture")
        XCTAssertEqual(String(cString: info.path), "")
        XCTAssertEqual(info.flags & UInt32(EMEND_PROVIDER_INFO_BUILT_IN), UInt32(EMEND_PROVIDER_INFO_BUILT_IN))
        XCTAssertEqual(info.tools, (1 << 11) - 1, "the fixture serves all eleven tools")
        XCTAssertEqual(info.enabled, 1)
        XCTAssertStatus(emend_coordinator_get_provider(coordinator, 1, &info), EMEND_E_NOT_FOUND, mentions: ["1"])
        info.struct_size = 8
        XCTAssertStatus(emend_coordinator_get_provider(coordinator, 0, &info), EMEND_E_STRUCT_SIZE)

        XCTAssertStatus(emend_coordinator_choose_provider(coordinator, EMEND_TOOL_PROOFREAD, "org.example.none"),
                        EMEND_E_NOT_FOUND, mentions: ["org.example.none"])
        XCTAssertEqual(emend_coordinator_choose_provider(coordinator, EMEND_TOOL_PROOFREAD, "org.emend.fixture"), EMEND_OK)
        XCTAssertEqual(start(coordinator, EMEND_TOOL_PROOFREAD), EMEND_OK)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK)
        XCTAssertEqual(engine.text, "See you tomorrow.")
        XCTAssertEqual(emend_coordinator_choose_provider(coordinator, EMEND_TOOL_PROOFREAD, nil), EMEND_OK,
                       "back to the preferred provider for the next session")
    }

    func testABrokenConfigFileIsAnErrorNamingIt() throws {
        let config = home.appendingPathComponent("config/emend")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try "[tools]\nproofred = [\"org.emend.fixture\"]\n".write(to: config.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
        let engine = CEngine("text")
        var table = engine.delegate()
        var coordinator: OpaquePointer?
        XCTAssertStatus(emend_coordinator_create(&table, nil, &coordinator), EMEND_E_INVALID_ARGUMENT, mentions: ["config.toml", "proofred"])
        XCTAssertNil(coordinator)
    }
}
