import Foundation
import XCTest
@testable import EmendProviders
import EmendTestSupport

/// Builds the scanner and the test plugins of Tests/Fixtures/discovery with cc at test time,
/// and makes private temporary directories with safe permissions.
enum DiscoveryFixtures {
    static var repoRoot: String { PluginBuilder.repoRoot }
    static var fixtures: String { repoRoot + "/Tests/Fixtures/discovery" }

    /// Where compiled fixtures are kept for this test process (removed when the tests end).
    static let buildDirectory: String = {
        let path = NSTemporaryDirectory() + "emend-discovery-build-\(getpid())"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        chmod(path, 0o755)
        XCTestObservationCenter.shared.addTestObserver(RemoveAtEnd(path: path))
        return path
    }()

    /// The scanner, compiled once per test process with the flags of scripts/build-scanner.sh.
    static let scanner: String = {
        let out = buildDirectory + "/emend-scan"
        do { try TestCompiler.scanner(to: out) } catch { preconditionFailure("cannot compile the scanner: \(error)") }
        return out
    }()

    /// Compiles Tests/Fixtures/discovery/`name`.c into a plugin at `output` (mode 0755).
    static func compile(_ name: String, to output: String, defines: [String] = []) throws {
        do {
            try TestCompiler.plugin(fixtures + "/\(name).c", to: output, options: ["-I", fixtures] + defines.map { "-D" + $0 })
        } catch { throw FixtureError(message: "cc failed for \(name).c: \(error)") }
        chmod(output, 0o755)
    }

    /// The plugin built from `name`.c with no defines, compiled once and copied to `output`.
    static func install(_ name: String, at output: String) throws {
        let built = buildDirectory + "/\(name).so"
        if !FileManager.default.fileExists(atPath: built) { try compile(name, to: built) }
        try? FileManager.default.removeItem(atPath: output)
        try FileManager.default.copyItem(atPath: built, toPath: output)
        chmod(output, 0o755)
    }
}

/// Removes a directory when the test bundle finishes.
private final class RemoveAtEnd: NSObject, XCTestObservation {
    let path: String
    init(path: String) { self.path = path }
    func testBundleDidFinish(_ testBundle: Bundle) { try? FileManager.default.removeItem(atPath: path) }
}

struct FixtureError: Error {
    let message: String
}

/// A fresh directory (mode 0755) removed when the object goes away.
final class ScratchDirectory {
    let path: String

    init(_ label: String = "emend-discovery") {
        path = NSTemporaryDirectory() + "\(label)-\(UUID().uuidString)"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        chmod(path, 0o755)
    }

    /// A subdirectory (mode 0755), created if needed.
    func directory(_ name: String) -> String {
        let sub = path + "/" + name
        try! FileManager.default.createDirectory(atPath: sub, withIntermediateDirectories: true)
        chmod(sub, 0o755)
        return sub
    }

    func write(_ text: String, to name: String) -> String {
        let file = path + "/" + name
        try! text.write(toFile: file, atomically: false, encoding: .utf8)
        chmod(file, 0o644)
        return file
    }

    deinit {
        chmod(path, 0o755)
        try? FileManager.default.removeItem(atPath: path)
    }
}

extension DiscoveryResult {
    func record(_ id: String) -> ProviderRecord? { records.first { $0.id == id } }
    func reason(_ path: String) -> String? { broken.first { $0.path == path }?.reason }
}

/// Lines in a marker file written by plugins built with -DMARKER_PATH (0 if it is missing).
func markerLines(_ path: String) -> Int {
    ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").count
}
