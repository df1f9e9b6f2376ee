import XCTest
import EmendCore
@testable import EmendProviders

final class DiscoverySimpleFormTests: XCTestCase {
    private func manifest(id: String, free: String = "shout_free", library: String = "lib/libshout.so") -> String {
        """
        [provider]
        id = "\(id)"
        name = "Shout"
        version = "1.0"
        tools = ["rewrite-described"]
        priority = 3

        [function]
        library = "\(library)"
        symbol = "shout"
        returns = "string"
        free = "\(free)"
        arguments = ["text"]
        """
    }

    func testManifestIsRecordedAfterItsLibraryIsChecked() throws {
        let scratch = ScratchDirectory()
        let dir = scratch.directory("providers")
        let lib = scratch.directory("providers/lib")
        try DiscoveryFixtures.install("shout-lib", at: lib + "/libshout.so")
        _ = scratch.write(manifest(id: "org.test.shout"), to: "providers/shout.toml")
        _ = scratch.write(manifest(id: "org.test.whisper", free: "whisper_free"), to: "providers/whisper.toml")
        _ = scratch.write("[provider]\nid = 3\n", to: "providers/invalid.toml")
        _ = scratch.write(manifest(id: "org.test.nolib", library: "lib/missing.so"), to: "providers/nolib.toml")
        let cache = scratch.path + "/providers.cache"
        let discovery = ProviderDiscovery(searchPath: [dir], cachePath: cache, scannerPath: DiscoveryFixtures.scanner)
        let result = discovery.run()

        let shout = try XCTUnwrap(result.record("org.test.shout"))
        XCTAssertEqual(shout.kind, .simple)
        XCTAssertEqual(shout.path, dir + "/shout.toml")
        XCTAssertEqual(shout.tools, [.rewriteDescribed])
        XCTAssertEqual(shout.priority, 3)
        XCTAssertEqual(result.records.count, 1)
        XCTAssertEqual(result.reason(dir + "/whisper.toml"), "library \(lib)/libshout.so has no symbol whisper_free")
        let invalid = try XCTUnwrap(result.reason(dir + "/invalid.toml"))
        XCTAssertTrue(invalid.contains("invalid.toml"), invalid)
        let nolib = try XCTUnwrap(result.reason(dir + "/nolib.toml"))
        XCTAssertTrue(nolib.contains("missing.so"), nolib)
        XCTAssertFalse(result.probed.contains(dir + "/invalid.toml"), "an invalid manifest is refused without the scanner")

        // Warm: nothing is probed; the invalid manifest is parsed again (cheap) and still refused.
        let warm = discovery.run()
        XCTAssertEqual(warm.probed, [])
        XCTAssertEqual(warm.records, result.records)
        XCTAssertEqual(warm.broken, result.broken)

        // The library changing counts as the manifest changing.
        try DiscoveryFixtures.compile("shout-lib", to: lib + "/libshout.so", defines: ["UNUSED_FLAG=1"])
        var times = [timespec(tv_sec: 2_000_000, tv_nsec: 0), timespec(tv_sec: 2_000_000, tv_nsec: 0)]
        utimensat(AT_FDCWD, lib + "/libshout.so", &times, 0)
        XCTAssertEqual(Set(discovery.run().probed), [dir + "/shout.toml", dir + "/whisper.toml"])

        // Once the missing library appears, its manifest is probed again.
        try DiscoveryFixtures.install("shout-lib", at: lib + "/missing.so")
        let appeared = discovery.run()
        XCTAssertEqual(appeared.probed, [dir + "/nolib.toml"])
        XCTAssertNotNil(appeared.record("org.test.nolib"))
    }

    func testLibraryWritableByOthersIsRefused() throws {
        let scratch = ScratchDirectory()
        let dir = scratch.directory("providers")
        let lib = scratch.directory("providers/lib")
        try DiscoveryFixtures.install("shout-lib", at: lib + "/libshout.so")
        chmod(lib + "/libshout.so", 0o666)
        _ = scratch.write(manifest(id: "org.test.shout"), to: "providers/shout.toml")
        let result = ProviderDiscovery(searchPath: [dir], cachePath: nil, scannerPath: DiscoveryFixtures.scanner).run()
        XCTAssertEqual(result.records, [])
        XCTAssertEqual(result.reason(dir + "/shout.toml"), "library \(lib)/libshout.so is writable by other users (mode 0666); refused")
        XCTAssertEqual(result.probed, [])
    }
}
