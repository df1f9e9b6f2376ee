import XCTest
@testable import EmendProviders

final class DiscoverySearchPathTests: XCTestCase {
    func testStandardOrderIsEnvironmentThenDataHomeThenLibraryDirectory() {
        let path = ProviderSearchPath.standard(
            environment: ["EMEND_PROVIDER_PATH": "/a::/b/", "XDG_DATA_HOME": "/data", "HOME": "/home/u"],
            libraryDirectory: "/usr/lib")
        XCTAssertEqual(path, ["/a", "/b", "/data/emend/providers", "/usr/lib/emend/providers"])
    }

    func testDefaultsUnderHomeAndRelativeXDGIgnored() {
        let env = ["HOME": "/home/u", "XDG_DATA_HOME": "relative/data", "XDG_CACHE_HOME": "", "XDG_CONFIG_HOME": "/cfg"]
        XCTAssertEqual(ProviderSearchPath.standard(environment: env, libraryDirectory: nil),
                       ["/home/u/.local/share/emend/providers"])
        XCTAssertEqual(ProviderSearchPath.cacheFile(environment: env), "/home/u/.cache/emend/providers.cache")
        XCTAssertEqual(ProviderSearchPath.configFile(environment: env), "/cfg/emend/config.toml")
    }

    func testNoHomeMeansNoUserDirectories() {
        XCTAssertEqual(ProviderSearchPath.standard(environment: [:], libraryDirectory: "/opt/emend/lib"),
                       ["/opt/emend/lib/emend/providers"])
        XCTAssertNil(ProviderSearchPath.cacheFile(environment: [:]))
        XCTAssertNil(ProviderSearchPath.configFile(environment: [:]))
    }

    func testRepeatedDirectoriesAppearOnce() {
        let path = ProviderSearchPath.standard(environment: ["EMEND_PROVIDER_PATH": "/x:/x:/d/emend/providers", "XDG_DATA_HOME": "/d"],
                                               libraryDirectory: nil)
        XCTAssertEqual(path, ["/x", "/d/emend/providers"])
    }

    func testEarlierDirectoryHidesTheSameFileName() throws {
        let scratch = ScratchDirectory()
        let first = scratch.directory("first"), second = scratch.directory("second")
        try DiscoveryFixtures.compile("good", to: first + "/speller.so", defines: ["PLUGIN_ID=\"org.test.first\""])
        try DiscoveryFixtures.compile("good", to: second + "/speller.so", defines: ["PLUGIN_ID=\"org.test.second\""])
        try DiscoveryFixtures.compile("good", to: second + "/other.so", defines: ["PLUGIN_ID=\"org.test.other\""])
        let result = ProviderDiscovery(searchPath: [first, second], cachePath: nil, scannerPath: DiscoveryFixtures.scanner).run()
        XCTAssertEqual(result.records.map(\.id), ["org.test.first", "org.test.other"])
        XCTAssertEqual(result.record("org.test.first")?.path, first + "/speller.so")
        XCTAssertEqual(result.shadowed, [second + "/speller.so"])
        XCTAssertEqual(result.broken, [])
    }

    func testOnlyPluginsAndManifestsDirectlyInTheDirectory() throws {
        let scratch = ScratchDirectory()
        let dir = scratch.directory("providers")
        let nested = scratch.directory("providers/nested")
        try DiscoveryFixtures.install("good", at: nested + "/deep.so")
        try DiscoveryFixtures.install("good", at: dir + "/.hidden.so")
        _ = scratch.write("not a provider", to: "providers/README.md")
        try DiscoveryFixtures.install("good", at: dir + "/good.so")
        let result = ProviderDiscovery(searchPath: [dir], cachePath: nil, scannerPath: DiscoveryFixtures.scanner).run()
        XCTAssertEqual(result.records.map(\.path), [dir + "/good.so"])
        XCTAssertEqual(result.probed, [dir + "/good.so"])
    }

    func testFilesAndDirectoriesWritableByOthersAreRefused() throws {
        let scratch = ScratchDirectory()
        let safe = scratch.directory("safe"), open = scratch.directory("open")
        try DiscoveryFixtures.install("good", at: safe + "/group-writable.so")
        chmod(safe + "/group-writable.so", 0o775)
        try DiscoveryFixtures.compile("good", to: safe + "/fine.so", defines: ["PLUGIN_ID=\"org.test.fine\""])
        try DiscoveryFixtures.compile("good", to: open + "/hidden.so", defines: ["PLUGIN_ID=\"org.test.hidden\""])
        chmod(open, 0o777)
        let result = ProviderDiscovery(searchPath: [open, safe], cachePath: nil, scannerPath: DiscoveryFixtures.scanner).run()
        XCTAssertEqual(result.records.map(\.id), ["org.test.fine"])
        XCTAssertEqual(result.reason(safe + "/group-writable.so"), "writable by other users (mode 0775); refused")
        XCTAssertEqual(result.reason(open), "directory \(open) is writable by other users (mode 0777); refused")
        XCTAssertFalse(result.probed.contains(safe + "/group-writable.so"), "a refused file is never loaded, not even by the scanner")
    }

    func testLinkIntoAnOpenDirectoryIsRefused() throws {
        let scratch = ScratchDirectory()
        let dir = scratch.directory("providers"), open = scratch.directory("open")
        try DiscoveryFixtures.install("good", at: open + "/real.so")
        chmod(open, 0o777)
        symlink(open + "/real.so", dir + "/linked.so")
        let result = ProviderDiscovery(searchPath: [dir], cachePath: nil, scannerPath: DiscoveryFixtures.scanner).run()
        XCTAssertEqual(result.records, [])
        XCTAssertEqual(result.reason(dir + "/linked.so"),
                       "links to \(open)/real.so, in a directory writable by other users (mode 0777); refused")
    }
}
