import XCTest
import EmendCore
@testable import EmendProviders

final class DiscoveryProbeTests: XCTestCase {
    func testCrashingAndHangingPluginsAreBrokenWhileAGoodOneIsFound() throws {
        let scratch = ScratchDirectory()
        let dir = scratch.directory("providers")
        try DiscoveryFixtures.install("crash", at: dir + "/crash.so")
        try DiscoveryFixtures.install("hang", at: dir + "/hang.so")
        try DiscoveryFixtures.install("exits", at: dir + "/exits.so")
        try DiscoveryFixtures.compile("good", to: dir + "/good.so", defines: ["PLUGIN_PRIORITY=7"])
        let discovery = ProviderDiscovery(searchPath: [dir], cachePath: nil, scannerPath: DiscoveryFixtures.scanner,
                                          timeoutMilliseconds: 400)
        let start = Date()
        let result = discovery.run()
        let elapsed = Date().timeIntervalSince(start)

        XCTAssertEqual(result.records.count, 1)
        let good = try XCTUnwrap(result.record("org.test.good"))
        XCTAssertEqual(good.path, dir + "/good.so")
        XCTAssertEqual(good.kind, .plugin)
        XCTAssertEqual(good.name, "Test plugin\nwith a line break")
        XCTAssertEqual(good.version, "1.0")
        XCTAssertEqual(good.tools, [.proofread, .rewriteFriendly])
        XCTAssertEqual(good.languages, ["en", "de"])
        XCTAssertEqual(good.outputs, 4)
        XCTAssertEqual(good.priority, 7)
        XCTAssertFalse(good.usesNetwork)
        XCTAssertFalse(good.streams)

        XCTAssertEqual(result.reason(dir + "/crash.so"), "crashes while loading (signal 11)")
        XCTAssertEqual(result.reason(dir + "/hang.so"), "hangs while loading (killed after 400 ms)")
        XCTAssertEqual(result.reason(dir + "/exits.so"), "exits while loading (status 3)")
        XCTAssertEqual(Set(result.probed), Set(["crash", "exits", "good", "hang"].map { dir + "/\($0).so" }))
        XCTAssertLessThan(elapsed, 3, "scans run side by side; one hang costs one time limit")
    }

    func testInvalidPluginsAreBrokenWithTheReason() throws {
        let scratch = ScratchDirectory()
        let dir = scratch.directory("providers")
        try DiscoveryFixtures.install("no-entry", at: dir + "/no-entry.so")
        try DiscoveryFixtures.install("abi2", at: dir + "/abi2.so")
        try DiscoveryFixtures.compile("good", to: dir + "/no-tools.so", defines: ["PLUGIN_TOOLS=0"])
        try DiscoveryFixtures.compile("good", to: dir + "/bad-id.so", defines: ["PLUGIN_ID=\"has space\""])
        try DiscoveryFixtures.compile("good", to: dir + "/unknown-tool.so", defines: ["PLUGIN_TOOLS=0x800"])
        _ = scratch.write("not an ELF file", to: "providers/text.so")
        chmod(dir + "/text.so", 0o644)
        let result = ProviderDiscovery(searchPath: [dir], cachePath: nil, scannerPath: DiscoveryFixtures.scanner).run()
        XCTAssertEqual(result.records, [])
        XCTAssertEqual(result.reason(dir + "/no-entry.so"), "no emend_provider_entry symbol")
        XCTAssertEqual(result.reason(dir + "/abi2.so"), "ABI version 2, this host speaks 1")
        XCTAssertEqual(result.reason(dir + "/no-tools.so"), "descriptor serves no tools")
        XCTAssertEqual(result.reason(dir + "/unknown-tool.so"), "descriptor tools 0x800 has bits for unknown tools")
        XCTAssertEqual(result.reason(dir + "/bad-id.so"), "id \"has space\" is not a reverse-DNS name (letters, digits, '.', '-', '_')")
        let text = try XCTUnwrap(result.reason(dir + "/text.so"))
        XCTAssertTrue(text.hasPrefix("cannot be loaded: "), text)
    }

    func testPluginOutputWhileLoadingCannotForgeTheReport() throws {
        let scratch = ScratchDirectory()
        let dir = scratch.directory("providers")
        try DiscoveryFixtures.install("noisy", at: dir + "/noisy.so")
        let result = ProviderDiscovery(searchPath: [dir], cachePath: nil, scannerPath: DiscoveryFixtures.scanner).run()
        XCTAssertEqual(result.records.map(\.id), ["org.test.noisy"])
    }

    func testFlagsBecomeStreamingAndNetwork() throws {
        let scratch = ScratchDirectory()
        let dir = scratch.directory("providers")
        try DiscoveryFixtures.compile("good", to: dir + "/net.so",
                                      defines: ["PLUGIN_FLAGS=(EMEND_PROVIDER_STREAMS|EMEND_PROVIDER_USES_NETWORK)", "PLUGIN_PRIORITY=-3"])
        let record = try XCTUnwrap(ProviderDiscovery(searchPath: [dir], cachePath: nil, scannerPath: DiscoveryFixtures.scanner).run().records.first)
        XCTAssertTrue(record.streams)
        XCTAssertTrue(record.usesNetwork)
        XCTAssertEqual(record.priority, -3)
    }

    func testTheFirstFileToDeclareAnIdKeepsIt() throws {
        let scratch = ScratchDirectory()
        let dir = scratch.directory("providers")
        try DiscoveryFixtures.install("good", at: dir + "/a.so")
        try DiscoveryFixtures.install("good", at: dir + "/b.so")
        let result = ProviderDiscovery(searchPath: [dir], cachePath: nil, scannerPath: DiscoveryFixtures.scanner).run()
        XCTAssertEqual(result.records.map(\.path), [dir + "/a.so"])
        XCTAssertEqual(result.reason(dir + "/b.so"), "declares id \"org.test.good\", which \(dir)/a.so already provides")
    }

    func testMissingScannerMakesNewFilesBrokenWithoutRememberingIt() throws {
        let scratch = ScratchDirectory()
        let dir = scratch.directory("providers")
        let cache = scratch.path + "/cache/providers.cache"
        try DiscoveryFixtures.install("good", at: dir + "/good.so")
        let missing = scratch.path + "/no/emend-scan"
        let without = ProviderDiscovery(searchPath: [dir], cachePath: cache, scannerPath: missing).run()
        XCTAssertEqual(without.records, [])
        XCTAssertEqual(without.reason(dir + "/good.so"), "scanner not found at \(missing)")
        XCTAssertEqual(without.probed, [])

        let with = ProviderDiscovery(searchPath: [dir], cachePath: cache, scannerPath: DiscoveryFixtures.scanner).run()
        XCTAssertEqual(with.records.map(\.id), ["org.test.good"])
        XCTAssertEqual(with.probed, [dir + "/good.so"])
    }

    func testScannerCommandLine() throws {
        let scratch = ScratchDirectory()
        try DiscoveryFixtures.install("shout-lib", at: scratch.path + "/libshout.so")
        let batch = ScannerBatch(scanner: DiscoveryFixtures.scanner, timeoutMilliseconds: 2000, parallel: 2)
        let outcomes = batch.run([["symbols", scratch.path + "/libshout.so", "shout", "shout_free"],
                                  ["symbols", scratch.path + "/libshout.so", "shout", "whisper"],
                                  ["nonsense"]])
        XCTAssertEqual(outcomes[0], .finished("ok\nformat=2\n"))
        XCTAssertEqual(outcomes[1], .finished("broken\nformat=2\nreason=library \(scratch.path)/libshout.so has no symbol whisper\n"))
        XCTAssertEqual(outcomes[2], .exited(2))
    }
}
