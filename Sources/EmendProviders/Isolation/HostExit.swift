import Glibc

/// How a provider host process ended, from its wait status.
enum HostExit: Equatable {
    case exited(Int32)
    case signalled(Int32)
    /// Reaped by someone else (SIGCHLD ignored): the status is lost.
    case unknown

    init(status: Int32) {
        let signal = status & 0x7f
        self = signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
    }
}

/// "SIGSEGV" for 11: the names a crash message uses.
enum SignalName {
    static func of(_ signal: Int32) -> String {
        switch signal {
        case SIGSEGV: return "SIGSEGV"
        case SIGABRT: return "SIGABRT"
        case SIGBUS: return "SIGBUS"
        case SIGFPE: return "SIGFPE"
        case SIGILL: return "SIGILL"
        case SIGKILL: return "SIGKILL"
        case SIGTERM: return "SIGTERM"
        case SIGINT: return "SIGINT"
        case SIGPIPE: return "SIGPIPE"
        case SIGTRAP: return "SIGTRAP"
        case SIGSYS: return "SIGSYS"
        case SIGXCPU: return "SIGXCPU"
        case SIGHUP: return "SIGHUP"
        case SIGQUIT: return "SIGQUIT"
        default: return "signal \(signal)"
        }
    }
}
