import Foundation
import Glibc
import XCTest
import EmendTestSupport

/// Builds providers/openai/build.sh into PluginBuilder's directory, once per test process.
enum OpenAIPluginBuild {
    /// Why the plugin cannot be built here, or nil.
    static let missing: String? = {
        if (try? TestProcess.shell("pkg-config --exists libcurl libcjson")) == nil {
            return "libcurl4-openssl-dev or libcjson-dev is not installed (bash scripts/install-deps.sh)"
        }
        return nil
    }()

    private static let built: Result<String, Error> = Result {
        let directory = PluginBuilder.directory + "/openai"
        try TestProcess.shell("/bin/sh '\(PluginBuilder.repoRoot)/providers/openai/build.sh' '\(directory)'")
        return directory + "/openai.so"
    }

    static func path() throws -> String { try built.get() }
}

/// Tests/Fixtures/openai/fault_server.py as a real process: answers with a script of statuses
/// and canned streams, and records every request it saw.
final class FaultServer {
    let port: Int
    private let process: Process
    private let input: Pipe
    private let log: String

    init(script: String) throws {
        log = PluginBuilder.directory + "/fault-\(UUID().uuidString.prefix(8)).jsonl"
        _ = FileManager.default.createFile(atPath: log, contents: Data())
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", PluginBuilder.repoRoot + "/Tests/Fixtures/openai/fault_server.py",
                             "--script", script, "--log", log]
        input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        // The first line is "PORT <n>".
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let more = output.fileHandleForReading.availableData
            if more.isEmpty { break }
            line.append(more)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5).prefix { $0.isNumber }) else {
            process.terminate()
            throw NSError(domain: "FaultServer", code: 1, userInfo: [NSLocalizedDescriptionKey: "no port: \(text)"])
        }
        self.port = port
    }

    var baseURL: String { "http://127.0.0.1:\(port)/v1" }

    /// Every request so far, in order: n, path, authorization, body, answer.
    var requests: [[String: Any]] {
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
    }

    func stop() {
        try? input.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    deinit { stop() }
}

/// A real llama-server (built by scripts/setup-llama.sh, which writes .deps/llama.env) with the
/// small model, started once for the tests that need it and stopped when they are done.
final class LlamaServer: @unchecked Sendable {
    let port: Int
    private let process: Process
    let logPath: String

    /// EMEND_LLAMA_SERVER and EMEND_LLAMA_MODEL from .deps/llama.env, or nil when it is missing.
    static func environment() -> [String: String]? {
        let path = PluginBuilder.repoRoot + "/.deps/llama.env"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        var values: [String: String] = [:]
        for raw in text.split(separator: "\n") {
            var line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("#") || line.isEmpty { continue }
            if line.hasPrefix("export ") { line.removeFirst(7) }
            guard let equals = line.firstIndex(of: "=") else { continue }
            var value = String(line[line.index(after: equals)...])
            if value.count >= 2, let first = value.first, first == value.last, first == "\"" || first == "'" {
                value = String(value.dropFirst().dropLast())
            }
            values[String(line[..<equals])] = value
        }
        return values
    }

    /// Why the llama-server tests cannot run (skip), or nil. With CI set, a missing setup is a
    /// failure instead.
    static let unavailable: String? = {
        if environment() == nil {
            return "llama-server is not set up (.deps/llama.env missing: bash scripts/setup-llama.sh)"
        }
        return nil
    }()

    private static let lock = NSLock()
    nonisolated(unsafe) private static var started: Result<LlamaServer, Error>?

    /// The shared server, started on first use.
    static func shared() throws -> LlamaServer {
        try lock.withLock {
            if let started { return try started.get() }
            let result = Result { try LlamaServer() }
            started = result
            return try result.get()
        }
    }

    static func stopShared() {
        lock.withLock {
            if case .success(let server)? = started { server.stop() }
            started = nil
        }
    }

    private init() throws {
        guard let environment = Self.environment(), let server = environment["EMEND_LLAMA_SERVER"],
              let model = environment["EMEND_LLAMA_MODEL"] else {
            throw NSError(domain: "LlamaServer", code: 1,
                          userInfo: [NSLocalizedDescriptionKey: ".deps/llama.env lacks EMEND_LLAMA_SERVER or EMEND_LLAMA_MODEL"])
        }
        port = try TestProcess.freePort()
        logPath = PluginBuilder.directory + "/llama-server-\(port).log"
        _ = FileManager.default.createFile(atPath: logPath, contents: Data())
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        process = Process()
        process.executableURL = URL(fileURLWithPath: server)
        process.arguments = ["-m", model, "--host", "127.0.0.1", "--port", String(port), "-t", "2", "-c", "2048"]
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Loading takes a moment; /health says 200 once the model is ready.
        for _ in 0..<1200 {
            if TestProcess.httpStatus(port: port, path: "/health") == 200 { return }
            if !process.isRunning { break }
            usleep(100_000)
        }
        let output = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        stop()
        throw NSError(domain: "LlamaServer", code: 2,
                      userInfo: [NSLocalizedDescriptionKey: "llama-server did not become ready:\n\(output.suffix(3000))"])
    }

    var baseURL: String { "http://127.0.0.1:\(port)/v1" }

    func stop() {
        if process.isRunning {
            process.interrupt()
            for _ in 0..<50 where process.isRunning { usleep(100_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()
    }
}
