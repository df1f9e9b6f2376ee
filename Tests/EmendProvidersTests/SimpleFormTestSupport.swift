import Foundation
import XCTest
import EmendCore
@testable import EmendProviders
import EmendTestSupport

/// Builds the simple-form example and the fixture library with cc (once per test process)
/// and writes manifests for the fixture's functions.
enum SimpleFormTestSupport {
    /// The repository root, found from this file's path.
    static var repoRoot: String { PluginBuilder.repoRoot }

    /// One directory per test process for everything built or written here, removed at exit.
    static let root: String = {
        let path = NSTemporaryDirectory() + "emend-simple-\(getpid())-\(UUID().uuidString.prefix(8))"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: SimpleFormTestSupport.root) }
        return path
    }()

    /// A fresh directory under `root`.
    static func temporaryDirectory(_ name: String) -> String {
        let path = root + "/\(name)-\(UUID().uuidString.prefix(8))"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Runs a shell command; throws with its output when it does not succeed.
    static func shell(_ command: String) throws {
        try TestProcess.shell(command)
    }

    /// The output directory of examples/plugins/simple/build.sh.
    static let exampleDirectory: Result<String, Error> = Result {
        let out = temporaryDirectory("example")
        try shell("sh '\(repoRoot)/examples/plugins/simple/build.sh' '\(out)'")
        return out
    }

    /// The fixture library built from Tests/Fixtures/simple/simple_fixture.c.
    static let fixtureLibrary: Result<String, Error> = Result {
        let out = temporaryDirectory("fixture")
        let library = out + "/libsimplefixture.so"
        try shell("cc -std=c11 -Wall -Wextra -Werror -shared -fPIC '\(repoRoot)/Tests/Fixtures/simple/simple_fixture.c' -o '\(library)'")
        return library
    }

    /// Writes `text` to a new manifest file and returns its path.
    static func writeManifest(_ text: String, name: String = "fixture.toml") -> String {
        let path = temporaryDirectory("manifest") + "/" + name
        try! text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A manifest for a fixture function (absolute library path).
    static func fixtureManifest(symbol: String, returns: String = "string", free: String? = "fx_free",
                                arguments: [String], settings: String = "", id: String? = nil) throws -> String {
        let library = try fixtureLibrary.get()
        let freeLine = free.map { "free = \"\($0)\"" } ?? ""
        let list = arguments.map { "\"\($0)\"" }.joined(separator: ", ")
        return writeManifest("""
        [provider]
        id = "\(id ?? "org.emend.test.\(symbol)")"
        name = "\(symbol)"
        version = "1"
        tools = ["rewrite-described", "compose"]

        [function]
        library = "\(library)"
        symbol = "\(symbol)"
        returns = "\(returns)"
        \(freeLine)
        arguments = [\(list)]

        [settings]
        \(settings)
        """)
    }

    /// A request for the whole of `text`.
    static func request(_ text: String, tool: WritingTool = .rewriteDescribed, prompt: String? = nil,
                        previousResult: String? = nil, language: String = "en-US") -> ProviderRequest {
        ProviderRequest(tool: tool, text: text, selection: 0..<text.utf8.count, prompt: prompt,
                        previousResult: previousResult, language: language)
    }

    /// fx_free_count() of the fixture library (the same handle the provider opened).
    static func fixtureFreeCount() throws -> Int32 {
        let handle = try XCTUnwrap(dlopen(try fixtureLibrary.get(), RTLD_NOW))
        let symbol = try XCTUnwrap(dlsym(handle, "fx_free_count"))
        let count = unsafeBitCast(symbol, to: (@convention(c) () -> Int32).self)
        return count()
    }
}

/// A sink that records what a provider emits.
final class SimpleRecordingSink: ProviderSink, @unchecked Sendable {
    private let lock = NSLock()
    private var texts: [String] = []
    private var cancelled: Bool

    init(cancelled: Bool = false) { self.cancelled = cancelled }

    var chunks: [String] { lock.withLock { texts } }
    var isCancelled: Bool { lock.withLock { cancelled } }
    func cancel() { lock.withLock { cancelled = true } }
    func emitText(_ chunk: String) { lock.withLock { texts.append(chunk) } }
    func emitEdit(_ edit: ProviderEdit) {}
    func log(_ message: String) {}
}
