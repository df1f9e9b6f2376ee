import Glibc

/// The write end of the self-pipe the signal handler writes to (async-signal-safe).
nonisolated(unsafe) private var signalPipeWrite: Int32 = -1

/// SIGINT, SIGTERM and SIGHUP become readable bytes on a pipe, so the run loop can stop
/// the session, restore the terminal and leave the file as it was.
enum Signals {
    nonisolated(unsafe) private static var readEnd: Int32 = -1
    static let watched: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// The descriptor that becomes readable when a watched signal arrived.
    static var descriptor: Int32 {
        if readEnd < 0 { install() }
        return readEnd
    }

    private static func install() {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        readEnd = fds[0]
        signalPipeWrite = fds[1]
        for signo in watched {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signo in
                var byte = UInt8(truncatingIfNeeded: signo)
                _ = Glibc.write(signalPipeWrite, &byte, 1)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(signo, &action, nil)
        }
    }

    /// The signal that arrived, if one did (does not block).
    static func take() -> Int32? {
        guard readEnd >= 0 else { return nil }
        var byte: UInt8 = 0
        return read(readEnd, &byte, 1) == 1 ? Int32(byte) : nil
    }

    /// Runs `body` with the watched signals blocked, so it is not cut short (an atomic write);
    /// a signal that came meanwhile is handled after.
    static func deferred<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        var blocked = sigset_t(), previous = sigset_t()
        sigemptyset(&blocked)
        for signo in watched { sigaddset(&blocked, signo) }
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        return try body()
    }

    /// Conventional exit status of a process ended by `signo`.
    static func exitStatus(_ signo: Int32) -> Int32 { 128 + signo }

    static func name(_ signo: Int32) -> String {
        switch signo {
        case SIGINT: return "interrupted"
        case SIGTERM: return "terminated"
        case SIGHUP: return "hung up"
        default: return "signal \(signo)"
        }
    }
}
