import Foundation
import XCTest
import EmendCore
@testable import EmendProviders

/// Each provider's private cache directory (ProviderCacheDirectory): named by its id only when
/// the id is one safe path component (never a path outside `emend-providers`), in its sandbox's
/// write paths, created 0700 as a real directory of this user. The sandbox test that a plugin
/// writes there and not in another provider's is SandboxTests.testThePluginWritesItsOwnCacheDirectoryOnly.
final class ProviderCacheDirectoryTests: XCTestCase {
    func testOnlyASafeSinglePathComponentNamesADirectory() {
        for id in ["org.emend.hunspell", "org.emend.harper", "a", "x-1_2.Y", String(repeating: "a", count: 200)] {
            XCTAssertEqual(ProviderCacheDirectory.component(for: id), id)
        }
        for id in ["", ".", "..", "../x", "a/b", "/abs", "a/../b", "..a", ".hidden", "a\0b", "a b", "a\nb", "ü.x", "a\\b",
                   "~", "$HOME", String(repeating: "a", count: 201)] {
            XCTAssertNil(ProviderCacheDirectory.component(for: id), "\(id.debugDescription) must get no directory")
        }
    }

    func testTheDirectoryIsUnderTheUsersCache() {
        XCTAssertEqual(ProviderCacheDirectory.path(for: "org.x", environment: ["XDG_CACHE_HOME": "/c", "HOME": "/h"]),
                       "/c/emend-providers/org.x")
        XCTAssertEqual(ProviderCacheDirectory.path(for: "org.x", environment: ["XDG_CACHE_HOME": "rel", "HOME": "/h"]),
                       "/h/.cache/emend-providers/org.x")
        XCTAssertNil(ProviderCacheDirectory.path(for: "org.x", environment: ["HOME": "h"]))
        XCTAssertNil(ProviderCacheDirectory.path(for: "org.x", environment: ["HOME": "/"]))
        XCTAssertNil(ProviderCacheDirectory.path(for: "../../.ssh", environment: ["HOME": "/h"]))
    }

    func testTheSandboxMayWriteItsOwnDirectoryAndTheUsersGrantsOnly() throws {
        let home = NSTemporaryDirectory() + "emend-provider-home-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: home) }
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let record = ProviderRecord(path: "/opt/p/c.so", kind: .plugin, id: "org.emend.c", name: "c", version: "1",
                                    tools: [.proofread], languages: ["*"], outputs: 1, streams: true, usesNetwork: false, priority: 0)
        let sandbox = HostSandbox.policy(record: record, settings: TOMLTable(), enabled: true, userPaths: [],
                                         userWritePaths: ["~/notes"], environment: ["HOME": home])
        XCTAssertEqual(sandbox.writePaths, [home + "/.cache/emend-providers/org.emend.c", home + "/notes"])
        // Not under emend's own cache directory, which every plugin may read.
        XCTAssertFalse(sandbox.readPaths.contains { (home + "/.cache/emend-providers/org.emend.c").hasPrefix($0 + "/") })
        var unsafe = record
        unsafe.id = "../hunspell"
        XCTAssertEqual(HostSandbox.policy(record: unsafe, settings: TOMLTable(), enabled: true, userPaths: [],
                                          environment: ["HOME": home]).writePaths, [])
        // A symbolic link in its place would lead the grant elsewhere: nothing is granted.
        var linked = record
        linked.id = "org.emend.linked"
        XCTAssertEqual(symlink(home, home + "/.cache/emend-providers/org.emend.linked"), 0)
        XCTAssertEqual(HostSandbox.policy(record: linked, settings: TOMLTable(), enabled: true, userPaths: [],
                                          environment: ["HOME": home]).writePaths, [])
    }

    func testItIsCreatedPrivateAndNeverASymbolicLink() throws {
        let root = NSTemporaryDirectory() + "emend-provider-cache-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = root + "/cache/emend-providers/org.x"
        XCTAssertTrue(ProviderCacheDirectory.prepare(path))
        for directory in [root + "/cache", root + "/cache/emend-providers", path] {
            var status = stat()
            XCTAssertEqual(lstat(directory, &status), 0)
            XCTAssertEqual(status.st_mode & 0o777, 0o700, directory)
        }
        chmod(path, 0o755)
        XCTAssertTrue(ProviderCacheDirectory.prepare(path), "an existing directory is used")
        var status = stat()
        XCTAssertEqual(lstat(path, &status), 0)
        XCTAssertEqual(status.st_mode & 0o777, 0o700, "made private again")

        let link = root + "/cache/emend-providers/org.link"
        XCTAssertEqual(symlink(root, link), 0)
        XCTAssertFalse(ProviderCacheDirectory.prepare(link), "a symbolic link is not its directory")
        let file = root + "/cache/emend-providers/org.file"
        XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data()))
        XCTAssertFalse(ProviderCacheDirectory.prepare(file))
    }
}
