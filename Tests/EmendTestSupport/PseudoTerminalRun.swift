import Foundation
import Glibc
import XCTest

/// A program on a pseudo-terminal: its stdin, stdout and stderr are the terminal, the test
/// types keys and reads what it shows (interactive review, spinners, colour on a terminal).
public final class PseudoTerminalRun {
    public let process = Process()
    private let master: Int32
    /// Everything the program showed so far, escape sequences included.
    public private(set) var screen = ""
    /// Where the next `waitFor` starts looking: after the last text it found.
    private var cursor: String.Index?

    /// Starts `executable` with `arguments` and exactly `environment`, in `directory`, on a new
    /// 120×40 pseudo-terminal; skips the test where the system has none.
    public init(executable: String, arguments: [String], environment: [String: String], directory: String) throws {
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
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
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
    public func waitFor(_ text: String, timeout: TimeInterval = 60, file: StaticString = #filePath, line: UInt = #line) -> Bool {
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
    public func type(_ keys: String) {
        var bytes = Array(keys.utf8)
        _ = write(master, &bytes, bytes.count)
    }

    /// Answers prompts in order: waits for each prompt (as `waitFor`), then types its keys.
    public func answer(_ prompts: KeyValuePairs<String, String>, file: StaticString = #filePath, line: UInt = #line) {
        for (prompt, keys) in prompts {
            waitFor(prompt, file: file, line: line)
            type(keys)
        }
    }

    /// Waits for the process to end, reading what it still shows; returns its exit status.
    public func finish(timeout: TimeInterval = 60) -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { readAvailable(waitMilliseconds: 20) }
        readAvailable(waitMilliseconds: 50)
        if process.isRunning {
            process.terminate()
            XCTFail("\(process.executableURL?.lastPathComponent ?? "the program") did not end; the terminal shows:\n\(screen)")
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
