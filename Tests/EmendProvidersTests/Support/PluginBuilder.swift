import Foundation
import XCTest
import EmendTestSupport

/// Builds plugins for the tests at test time, into a temporary directory: the C fixtures of
/// Tests/Fixtures/plugins (each variant of -D options its own file, so its globals are its
/// own) and the examples through their build.sh.
enum PluginBuilder {
    static var repoRoot: String { TestRepository.root }

    /// Where this test process puts what it builds; removed when the process exits (a
    /// loaded plugin keeps working after its file is gone).
    static let directory: String = {
        let path = NSTemporaryDirectory() + "emend-plugins-\(getpid())-\(UUID().uuidString.prefix(8))"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: PluginBuilder.directory) }
        return path
    }()

    private static let lock = NSLock()
    nonisolated(unsafe) private static var built: [String: String] = [:]

    /// Compiles Tests/Fixtures/plugins/`name`.c with `defines` (e.g. "ABI=7") into a plugin
    /// and returns its path. The same name, defines and `variant` give the same file.
    static func fixture(_ name: String, _ defines: [String] = [], variant: String = "") throws -> String {
        let key = ([name, variant] + defines).joined(separator: "\u{1}")
        return try once(key) { index in
            let output = "\(directory)/\(name)-\(index).so"
            try TestCompiler.plugin("\(repoRoot)/Tests/Fixtures/plugins/\(name).c", to: output,
                                    options: ["-pthread"] + defines.map { "-D" + $0 })
            return output
        }
    }

    /// Builds examples/plugins/`language`/ with its build.sh; returns example-`language`.so.
    static func example(_ language: String) throws -> String {
        try once("example \(language)") { _ in
            try TestProcess.run("/bin/sh", ["\(repoRoot)/examples/plugins/\(language)/build.sh", directory])
            return "\(directory)/example-\(language).so"
        }
    }

    /// Whether `tool` is on the PATH (cargo is optional on a build machine).
    static func hasTool(_ tool: String) -> Bool {
        (try? TestProcess.shell("command -v \(tool)")) != nil
    }

    /// A function the plugin at `path` exports for the tests (loads it if needed).
    static func function<T>(_ path: String, _ name: String, as type: T.Type) -> T {
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL), let symbol = dlsym(handle, name) else {
            fatalError("no \(name) in \(path)")
        }
        return unsafeBitCast(symbol, to: type)
    }

    /// Whether the plugin at `path` is loaded in this process.
    static func isLoaded(_ path: String) -> Bool {
        dlopen(path, RTLD_NOW | RTLD_NOLOAD) != nil
    }

    private static func once(_ key: String, _ build: (Int) throws -> String) throws -> String {
        lock.lock()
        defer { lock.unlock() }
        if let path = built[key] { return path }
        let path = try build(built.count)
        built[key] = path
        return path
    }
}
