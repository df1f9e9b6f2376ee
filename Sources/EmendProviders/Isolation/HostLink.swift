import Glibc

/// The other end of a provider host's channel: a host this process started (its child,
/// watched through a pidfd, killed by its process group), or a host held by the per-user
/// checker service, reached through the service's socket. For the latter the service does
/// what only a parent can (kill, reap, the exit status) and says how the host ended in a
/// HOST_ENDED frame; "kill" from this side is dropping the connection, after which the
/// service cancels this side's runs and kills the host if they outlast the grace.
enum HostLink {
    case child(HostProcess)
    case service(channel: Int32)

    var channel: Int32 {
        switch self {
        case .child(let process): return process.channel
        case .service(let channel): return channel
        }
    }

    var pidfd: Int32 {
        switch self {
        case .child(let process): return process.pidfd
        case .service: return -1
        }
    }

    var isService: Bool {
        if case .service = self { return true }
        return false
    }

    func kill() {
        switch self {
        case .child(let process): process.kill()
        case .service(let channel): _ = shutdown(channel, Int32(SHUT_RDWR))
        }
    }

    /// How the host ended (nil: it is the service's to tell, in HOST_ENDED).
    func reap(milliseconds: Int) -> HostExit? {
        switch self {
        case .child(let process): return process.reap(milliseconds: milliseconds)
        case .service: return nil
        }
    }
}
