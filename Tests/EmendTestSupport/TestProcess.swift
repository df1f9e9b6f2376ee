import Foundation
import Glibc

/// Runs the commands tests need (compilers, build.sh scripts, python3) and finds free ports:
/// one runner for every test target, so that each reports a failed command the same way.
public enum TestProcess {
    /// A command that exited with a status other than 0, with all it printed.
    public struct Failure: LocalizedError, CustomStringConvertible {
        public let command: String
        public let status: Int32
        public let output: String
        public var description: String { "\(command) failed (exit \(status)):\n\(output)" }
        public var errorDescription: String? { description }
    }

    /// Runs `executable` (a path, or a name looked up on PATH) with `arguments` and waits for
    /// it; returns what it printed on stdout and stderr, and throws `Failure` when it fails.
    @discardableResult
    public static func run(_ executable: String, _ arguments: [String] = []) throws -> String {
        let process = Process()
        let path = executable.hasPrefix("/")
        process.executableURL = URL(fileURLWithPath: path ? executable : "/usr/bin/env")
        process.arguments = path ? arguments : [executable] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(command: ([executable] + arguments).joined(separator: " "), status: process.terminationStatus,
                          output: output)
        }
        return output
    }

    /// Runs `command` with /bin/sh -c (as `run`).
    @discardableResult
    public static func shell(_ command: String) throws -> String {
        try run("/bin/sh", ["-c", command])
    }

    /// A TCP port on 127.0.0.1 that nothing listens on right now.
    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(command: "socket", status: errno, output: String(cString: strerror(errno))) }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Bool in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw Failure(command: "bind 127.0.0.1:0", status: errno, output: String(cString: strerror(errno))) }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// The status code of GET `path` on 127.0.0.1:`port`, or nil when nothing answers.
    public static func httpStatus(port: Int, path: String) -> Int? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else { return nil }
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
        guard send(fd, request, request.count, 0) == request.count else { return nil }
        var buffer = [UInt8](repeating: 0, count: 64)
        let got = recv(fd, &buffer, buffer.count, 0)
        guard got > 12 else { return nil }
        let line = String(decoding: buffer[0..<got], as: UTF8.self)
        let parts = line.split(separator: " ")
        return parts.count > 1 ? Int(parts[1]) : nil
    }
}
