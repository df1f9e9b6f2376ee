import Glibc

/// One running emend-scan: its pid (leader of its own process group) and the read end of
/// its stdout.
struct ScannerChild {
    let pid: pid_t
    /// Non-blocking; -1 once closed.
    var output: Int32
    var bytes: [UInt8] = []

    /// Reports beyond this size are cut (a real one is a few hundred bytes).
    static let maximumReport = 64 * 1024

    /// Starts `executable` with `arguments` (argv[1...]); stdin and stderr are /dev/null.
    static func spawn(_ executable: String, _ arguments: [String]) -> Result<ScannerChild, ScanError> {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return .failure(ScanError("pipe failed: errno \(errno)")) }
        // Close-on-exec, so that other children do not hold the write end open.
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(ends[0], F_SETFL, O_NONBLOCK)

        // A plugin's constructors run in the scan: it gets the sandbox's clean environment,
        // never libemend's (made here: variables the scanner removed would stay in its memory).
        let spawned = ChildSpawn.spawn(executable, arguments: arguments,
                                       environment: HostEnvironment.entries(keeping: HostEnvironment.allowlist),
                                       output: .descriptor(ends[1]),
                                       defaultSignals: .only([SIGPIPE, SIGCHLD, SIGSEGV, SIGBUS, SIGABRT, SIGALRM]))
        close(ends[1])
        switch spawned {
        case .success(let pid):
            return .success(ScannerChild(pid: pid, output: ends[0]))
        case .failure(let failure):
            close(ends[0])
            return .failure(ScanError("cannot run the scanner \(executable): \(failure.reason)"))
        }
    }

    /// Reads what is available; closes the pipe at end of file.
    mutating func drain() {
        guard output >= 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
            if count > 0 {
                if bytes.count < Self.maximumReport { bytes += buffer[0..<min(count, Self.maximumReport - bytes.count)] }
                continue
            }
            if count < 0 && errno == EINTR { continue }
            if count == 0 || errno != EAGAIN { closeOutput() }
            return
        }
    }

    mutating func closeOutput() {
        if output >= 0 { close(output) }
        output = -1
    }

    /// The outcome if the child has ended (reaped), else nil.
    func reap(blocking: Bool = false) -> ScanOutcome? {
        var status: Int32 = 0
        var result: pid_t
        repeat { result = waitpid(pid, &status, blocking ? 0 : WNOHANG) } while result < 0 && errno == EINTR
        if result == 0 { return nil }
        // ECHILD: SIGCHLD is ignored by the host, so children reap themselves; judge by output.
        if result < 0 { return .finished(String(decoding: bytes, as: UTF8.self)) }
        let signal = status & 0x7f
        if signal == 0 {
            let code = (status >> 8) & 0xff
            return code == 0 ? .finished(String(decoding: bytes, as: UTF8.self)) : .exited(code)
        }
        return .crashed(signal: signal)
    }

    /// Kills the child's whole process group and reaps it.
    mutating func kill() {
        _ = Glibc.kill(-pid, SIGKILL)
        _ = Glibc.kill(pid, SIGKILL)
        _ = reap(blocking: true)
        closeOutput()
    }
}

/// Why the scanner could not be started.
struct ScanError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
