import Foundation
import Glibc
import XCTest
import EmendTestSupport

/// Runs the built `emend` executable (emend-cli in the build directory, next to this test
/// bundle) as a subprocess, with HOME and the XDG directories in a private temporary
/// directory and EMEND_PROVIDER_PATH empty, so only the built-in fixture provider serves.
final class CLISandbox {
    static var repoRoot: String { TestRepository.root }

    /// The executable: in the directory of the test binary (SwiftPM puts both in the bin dir).
    static let executable: String = {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        var directory = count > 0
            ? URL(fileURLWithPath: String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)).deletingLastPathComponent()
            : Bundle.main.bundleURL.deletingLastPathComponent()
        // The xctest binary may sit inside a bundle directory (EmendPackageTests.xctest/...).
        for _ in 0..<3 where !FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent("emend-cli").path) {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("emend-cli").path
    }()

    let root: String
    var environment: [String: String]

    init() {
        root = NSTemporaryDirectory() + "emend-cli-test-\(UUID().uuidString)"
        try! FileManager.default.createDirectory(atPath: root + "/work", withIntermediateDirectories: true)
        environment = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "HOME": root + "/home",
            "XDG_CONFIG_HOME": root + "/config",
            "XDG_DATA_HOME": root + "/data",
            "XDG_CACHE_HOME": root + "/cache",
            "XDG_STATE_HOME": root + "/state",
            "EMEND_PROVIDER_PATH": "",
            "LANG": "C.UTF-8",
            // Provider hosts of its own, as before the checker service: runs stay independent
            // and no service outlives a test (ServiceTests turn it on, in a runtime directory of their own).
            "EMEND_SERVICE": "off",
            // The built-in fixture serves tests only: a test that wants a real user's
            // installation removes this.
            "EMEND_TEST_FIXTURE": "1",
        ]
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    /// A path in the sandbox's work directory.
    func path(_ name: String) -> String { root + "/work/" + name }

    @discardableResult
    func write(_ name: String, _ text: String) -> String {
        let file = path(name)
        try! text.write(toFile: file, atomically: false, encoding: .utf8)
        return file
    }

    @discardableResult
    func write(_ name: String, bytes: [UInt8]) -> String {
        let file = path(name)
        _ = FileManager.default.createFile(atPath: file, contents: Data(bytes))
        return file
    }

    func read(_ name: String) -> String { try! String(contentsOfFile: path(name), encoding: .utf8) }
    func bytes(_ name: String) -> [UInt8] { Array(FileManager.default.contents(atPath: path(name)) ?? Data()) }

    /// Files in the work directory (to see that no temporary file was left).
    func listing() -> [String] { (try? FileManager.default.contentsOfDirectory(atPath: root + "/work"))?.sorted() ?? [] }

    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// Runs `emend ARGS` in the work directory and waits for it.
    @discardableResult
    func run(_ arguments: [String], stdin: String? = nil, timeout: TimeInterval = 120) -> Result {
        let process = launch(arguments, stdin: stdin)
        let deadline = Date().addingTimeInterval(timeout)
        while process.process.isRunning && Date() < deadline { usleep(5_000) }
        if process.process.isRunning {
            process.process.terminate()
            XCTFail("emend \(arguments.joined(separator: " ")) did not finish in \(timeout) s")
        }
        process.process.waitUntilExit()
        return process.result()
    }

    final class Running {
        let process: Process
        let outPath: String
        let errPath: String
        init(process: Process, outPath: String, errPath: String) {
            self.process = process
            self.outPath = outPath
            self.errPath = errPath
        }
        func result() -> Result {
            Result(status: process.terminationStatus,
                   stdout: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
                   stderr: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "")
        }
    }

    /// Starts `emend ARGS` without waiting; output goes to files.
    func launch(_ arguments: [String], stdin: String? = nil) -> Running {
        let id = UUID().uuidString
        let outPath = root + "/out-\(id)", errPath = root + "/err-\(id)"
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLISandbox.executable)
        process.arguments = arguments
        process.environment = environment
        process.currentDirectoryURL = URL(fileURLWithPath: root + "/work")
        process.standardOutput = FileHandle(forWritingAtPath: outPath)
        process.standardError = FileHandle(forWritingAtPath: errPath)
        if let stdin {
            let inPath = root + "/in-\(id)"
            _ = FileManager.default.createFile(atPath: inPath, contents: Data(stdin.utf8))
            process.standardInput = FileHandle(forReadingAtPath: inPath)
        } else {
            process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        }
        try! process.run()
        return Running(process: process, outPath: outPath, errPath: errPath)
    }
}

extension PseudoTerminalRun {
    /// `emend ARGS` on a pseudo-terminal, in the sandbox's work directory and environment
    /// (plus `extra`).
    convenience init(_ sandbox: CLISandbox, _ arguments: [String], environment extra: [String: String] = [:]) throws {
        try self.init(executable: CLISandbox.executable, arguments: arguments,
                      environment: sandbox.environment.merging(extra) { $1 }, directory: sandbox.root + "/work")
    }
}

extension String {
    /// Lines of the text that contain `needle`.
    func lines(containing needle: String) -> [Substring] {
        split(separator: "\n").filter { $0.contains(needle) }
    }
}
