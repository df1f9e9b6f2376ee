import Foundation
import XCTest

/// Builds plugins for the tests at test time, into a temporary directory: the C fixtures of
/// Tests/Fixtures/plugins (each variant of -D options its own file, so its globals are its
/// own) and the examples through their build.sh.
enum PluginBuilder {
    /// The repository root, found from this file's path.
    static let repoRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.path
    }()

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
            try run("cc", ["-std=c11", "-Wall", "-Wextra", "-Werror", "-shared", "-fPIC", "-pthread",
                           "-I", repoRoot + "/include"] + defines.map { "-D" + $0 }
                    + ["-o", output, "\(repoRoot)/Tests/Fixtures/plugins/\(name).c"])
            return output
        }
    }

    /// Builds examples/plugins/`language`/ with its build.sh; returns example-`language`.so.
    static func example(_ language: String) throws -> String {
        try once("example \(language)") { _ in
            try run("/bin/sh", ["\(repoRoot)/examples/plugins/\(language)/build.sh", directory])
            return "\(directory)/example-\(language).so"
        }
    }

    /// Whether `tool` is on the PATH (cargo is optional on a build machine).
    static func hasTool(_ tool: String) -> Bool {
        (try? run("/bin/sh", ["-c", "command -v \(tool)"])) != nil
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

    @discardableResult
    private static func run(_ executable: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable.hasPrefix("/") ? executable : "/usr/bin/env")
        process.arguments = executable.hasPrefix("/") ? arguments : [executable] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw NSError(domain: "PluginBuilder", code: Int(process.terminationStatus),
                          userInfo: [NSLocalizedDescriptionKey: "\(executable) \(arguments.joined(separator: " ")) failed:\n\(output)"])
        }
        return output
    }
}
