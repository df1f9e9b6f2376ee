import XCTest
import EmendCore
@testable import EmendProviders

final class DiscoveryCacheTests: XCTestCase {
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

    /// A directory with a marked good plugin, a crashing one and a hanging one.
    private func populate(_ scratch: ScratchDirectory) throws -> (dir: String, marker: String) {
        let dir = scratch.directory("providers")
        let marker = scratch.path + "/marker"
        try DiscoveryFixtures.compile("good", to: dir + "/good.so", defines: ["MARKER_PATH=\"\(marker)\""])
        try DiscoveryFixtures.install("crash", at: dir + "/crash.so")
        try DiscoveryFixtures.install("hang", at: dir + "/hang.so")
        return (dir, marker)
    }

    func testSecondStartAnswersFromTheCacheAndLoadsNothing() throws {
        let scratch = ScratchDirectory()
        let (dir, marker) = try populate(scratch)
        let cache = scratch.path + "/cache/emend/providers.cache"
        let discovery = ProviderDiscovery(searchPath: [dir], cachePath: cache, scannerPath: DiscoveryFixtures.scanner,
                                          timeoutMilliseconds: 500)
        let first = discovery.run()
        XCTAssertEqual(first.probed.count, 3)
        XCTAssertEqual(markerLines(marker), 1, "the scanner loaded the plugin once; this process did not")
        XCTAssertTrue(FileManager.default.fileExists(atPath: cache))

        let start = Date()
        let second = discovery.run()
        let elapsed = Date().timeIntervalSince(start)
        XCTAssertEqual(second.probed, [])
        XCTAssertEqual(second.records, first.records)
        XCTAssertEqual(second.broken, first.broken)
        XCTAssertEqual(second.reason(dir + "/crash.so"), "crashes while loading (signal 11)")
        XCTAssertEqual(second.reason(dir + "/hang.so"), "hangs while loading (killed after 500 ms)")
        XCTAssertEqual(markerLines(marker), 1, "a warm start loads nothing")
        XCTAssertLessThan(elapsed, 0.4, "the hanging plugin is not waited for again")
    }

    func testChangedFilesAreProbedAgain() throws {
        let scratch = ScratchDirectory()
        let (dir, marker) = try populate(scratch)
        let cache = scratch.path + "/providers.cache"
        let discovery = ProviderDiscovery(searchPath: [dir], cachePath: cache, scannerPath: DiscoveryFixtures.scanner,
                                          timeoutMilliseconds: 300)
        _ = discovery.run()

        // Touch: same bytes, new mtime.
        var times = [timespec(tv_sec: 1_000_000, tv_nsec: 5), timespec(tv_sec: 1_000_000, tv_nsec: 5)]
        XCTAssertEqual(utimensat(AT_FDCWD, dir + "/good.so", &times, 0), 0)
        let touched = discovery.run()
        XCTAssertEqual(touched.probed, [dir + "/good.so"])
        XCTAssertEqual(markerLines(marker), 2)

        // Rewrite: a new build with another priority; the crashing file became a good one.
        try DiscoveryFixtures.compile("good", to: dir + "/good.so", defines: ["MARKER_PATH=\"\(marker)\"", "PLUGIN_PRIORITY=42"])
        try DiscoveryFixtures.compile("good", to: dir + "/crash.so", defines: ["PLUGIN_ID=\"org.test.fixed\""])
        let rewritten = discovery.run()
        XCTAssertEqual(Set(rewritten.probed), [dir + "/good.so", dir + "/crash.so"])
        XCTAssertEqual(rewritten.record("org.test.good")?.priority, 42)
        XCTAssertNotNil(rewritten.record("org.test.fixed"))
        XCTAssertNil(rewritten.reason(dir + "/crash.so"))
        XCTAssertEqual(rewritten.reason(dir + "/hang.so"), "hangs while loading (killed after 300 ms)")

        // A removed file leaves the cache.
        unlink(dir + "/hang.so")
        _ = discovery.run()
        let stored = DiscoveryCache.load(from: cache)
        XCTAssertEqual(Set(stored.entries.keys), [dir + "/good.so", dir + "/crash.so"])
    }

    func testCorruptCacheIsIgnoredAndReplaced() throws {
        let scratch = ScratchDirectory()
        let dir = scratch.directory("providers")
        try DiscoveryFixtures.install("good", at: dir + "/good.so")
        let discovery = ProviderDiscovery(searchPath: [dir], cachePath: scratch.path + "/providers.cache",
                                          scannerPath: DiscoveryFixtures.scanner)
        _ = discovery.run()
        let valid = try String(contentsOfFile: scratch.path + "/providers.cache", encoding: .utf8)
        let corruptions = [
            "garbage\u{0}\u{1}\n",
            valid.replacingOccurrences(of: "status=ok", with: "status=maybe"),
            valid.replacingOccurrences(of: "tools=", with: "tools=x"),
            String(valid.dropLast(40)),
            "",
        ]
        for corrupt in corruptions {
            _ = scratch.write(corrupt, to: "providers.cache")
            let result = discovery.run()
            XCTAssertEqual(result.records.map(\.id), ["org.test.good"])
            XCTAssertEqual(result.probed, [dir + "/good.so"], "a cache that cannot be read is ignored: \(corrupt.prefix(30))")
            XCTAssertEqual(discovery.run().probed, [], "and replaced by a good one")
        }
    }

    func testCacheWritableByOthersIsIgnored() throws {
        let scratch = ScratchDirectory()
        let dir = scratch.directory("providers")
        try DiscoveryFixtures.install("good", at: dir + "/good.so")
        let cache = scratch.path + "/providers.cache"
        let discovery = ProviderDiscovery(searchPath: [dir], cachePath: cache, scannerPath: DiscoveryFixtures.scanner)
        _ = discovery.run()
        chmod(cache, 0o666)
        XCTAssertEqual(discovery.run().probed, [dir + "/good.so"])
    }

    func testCacheRoundTripKeepsEveryField() {
        let record = ProviderRecord(path: "/p/odd\nname.so", kind: .plugin, id: "org.x", name: "Tab\there \\ back=slash",
                                    version: "2.0", tools: [.summary, .followUp], languages: ["en", "pt-BR"], outputs: 3,
                                    streams: true, usesNetwork: true, priority: -12)
        var cache = DiscoveryCache()
        cache.entries[record.path] = .init(key: .init(path: record.path, modified: 1_700_000_000_123_456_789, size: 16_000),
                                           dependency: nil, verdict: .record(record))
        cache.entries["/p/bad.so"] = .init(key: .init(path: "/p/bad.so", modified: 1, size: 2), dependency: nil,
                                           verdict: .broken("crashes while loading (signal 11)\nsecond line"))
        cache.entries["/p/m.toml"] = .init(key: .init(path: "/p/m.toml", modified: 3, size: 4),
                                           dependency: .init(path: "/lib/libm.so", modified: -1, size: -1),
                                           verdict: .broken("x"))
        let text = cache.serialized()
        XCTAssertEqual(text.split(separator: "\n").first, "emend-provider-cache 1 abi 1")
        XCTAssertEqual(DiscoveryCache.parse(text), cache)
        XCTAssertNil(DiscoveryCache.parse("emend-provider-cache 0\n"), "another format version is not read")
    }

    func testEscapingRoundTrip() {
        for value in ["plain", "a\nb", "back\\slash", "\\n literally", "bell\u{7}del\u{7f}", "é ü 😀", ""] {
            let escaped = LineEscaping.escape(value)
            XCTAssertFalse(escaped.contains("\n"))
            XCTAssertEqual(LineEscaping.unescape(Substring(escaped)), value)
        }
        XCTAssertNil(LineEscaping.unescape("bad\\q"))
        XCTAssertNil(LineEscaping.unescape("short\\x4"))
    }
}
