import Foundation
import Glibc
import XCTest

/// Runs the built `emend` executable (emend-cli in the build directory, next to this test
/// bundle) as a subprocess, with HOME and the XDG directories in a private temporary
/// directory and EMEND_PROVIDER_PATH empty, so only the built-in fixture provider serves.
final class CLISandbox {
    static let repoRoot: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

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

/// `emend` on a pseudo-terminal: its stdin, stdout and stderr are the terminal, the test
/// types keys and reads what it shows.
final class PseudoTerminalRun {
    let process = Process()
    private let master: Int32
    private(set) var screen = ""
    /// Where the next `waitFor` starts looking: after the last text it found.
    private var cursor: String.Index?

    init(_ sandbox: CLISandbox, _ arguments: [String], environment extra: [String: String] = [:]) throws {
        // posix_openpt, grantpt, unlockpt and ptsname are hidden from Swift's Glibc module
        // (they need _XOPEN_SOURCE): look them up in libc.
        typealias OpenPT = @convention(c) (Int32) -> Int32
        typealias FDCall = @convention(c) (Int32) -> Int32
        typealias PTSName = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?
        guard let openSymbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_openpt"),
              let grantSymbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "grantpt"),
              let unlockSymbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "unlockpt"),
              let nameSymbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "ptsname") else {
            throw XCTSkip("no pseudo-terminal functions in libc")
        }
        master = unsafeBitCast(openSymbol, to: OpenPT.self)(O_RDWR | O_NOCTTY)
        guard master >= 0, unsafeBitCast(grantSymbol, to: FDCall.self)(master) == 0,
              unsafeBitCast(unlockSymbol, to: FDCall.self)(master) == 0,
              let name = unsafeBitCast(nameSymbol, to: PTSName.self)(master) else {
            throw XCTSkip("no pseudo-terminals here")
        }
        _ = fcntl(master, F_SETFD, FD_CLOEXEC)
        let slave = open(String(cString: name), O_RDWR | O_NOCTTY)
        guard slave >= 0 else { throw XCTSkip("cannot open the pseudo-terminal") }
        var size = winsize(ws_row: 40, ws_col: 120, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(slave, UInt(TIOCSWINSZ), &size)
        // The parent closes its copy of the slave itself, right after the launch: a handle
        // closed later, on deallocation, could close a descriptor number reused meanwhile.
        let handle = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        process.executableURL = URL(fileURLWithPath: CLISandbox.executable)
        process.arguments = arguments
        process.environment = sandbox.environment.merging(extra) { $1 }
        process.currentDirectoryURL = URL(fileURLWithPath: sandbox.root + "/work")
        process.standardInput = handle
        process.standardOutput = handle
        process.standardError = handle
        defer { close(slave) }
        try process.run()
    }

    deinit {
        if process.isRunning { process.terminate() }
        close(master)
    }

    /// Reads output until `text` appears after the text the last call found, or the time is up.
    @discardableResult
    func waitFor(_ text: String, timeout: TimeInterval = 60, file: StaticString = #filePath, line: UInt = #line) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let start = cursor ?? screen.startIndex
            if let found = screen.range(of: text, range: start..<screen.endIndex) {
                cursor = found.upperBound
                return true
            }
            readAvailable(waitMilliseconds: 50)
        }
        XCTFail("did not see \"\(text)\" on the terminal; it shows:\n\(screen)", file: file, line: line)
        return false
    }

    /// Types `keys`.
    func type(_ keys: String) {
        var bytes = Array(keys.utf8)
        _ = write(master, &bytes, bytes.count)
    }

    /// Waits for the process to end, reading what it still shows; returns its exit status.
    func finish(timeout: TimeInterval = 60) -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { readAvailable(waitMilliseconds: 20) }
        readAvailable(waitMilliseconds: 50)
        if process.isRunning {
            process.terminate()
            XCTFail("emend did not end; the terminal shows:\n\(screen)")
        }
        process.waitUntilExit()
        return process.terminationStatus
    }

    private func readAvailable(waitMilliseconds: Int32) {
        var fd = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        guard poll(&fd, 1, waitMilliseconds) > 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 65536)
        let n = read(master, &buffer, buffer.count)
        if n > 0 { screen += String(decoding: buffer[..<n], as: UTF8.self) }
    }
}

extension String {
    /// Lines of the text that contain `needle`.
    func lines(containing needle: String) -> [Substring] {
        split(separator: "\n").filter { $0.contains(needle) }
    }
}
