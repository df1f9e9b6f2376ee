import CEmendSystem
import Glibc
import EmendCore

/// The checker service (`emend-provider-host --service`): one process per user that holds
/// the provider hosts for every front end of the user (the CLI, each language server, editors
/// through libemend when config.toml asks), so a checker loads once and stays warm.
///
/// It listens on `ServiceEndpoint.socketPath` (its directory 0700, the socket 0600), takes
/// only peers of its own uid (SO_PEERCRED), answers HELLO (Sources/EmendProviderHost/PROTOCOL.md),
/// and exits when asked (`emend service stop`, or a front end of another build replacing it)
/// or when no front end has been connected for its idle time. A second service started at
/// the same moment finds the lock taken and leaves.
public enum ServiceServer {
    /// Parses `--directory DIR --idle-ms N [--detach]` and serves; never returns.
    public static func main(arguments: [String]) -> Never {
        var directory: String?
        var idle = 600_000
        var detach = false
        var index = 0
        while index < arguments.count {
            switch arguments[index] {
            case "--directory" where index + 1 < arguments.count: directory = arguments[index + 1]; index += 1
            case "--idle-ms" where index + 1 < arguments.count: idle = Int(arguments[index + 1]) ?? idle; index += 1
            case "--detach": detach = true
            default: break
            }
            index += 1
        }
        guard let directory else { exit(2) }
        if detach {
            // The front end waits for this process; the service is its child, in a session of
            // its own, reparented to init once this one exits.
            let child = fork()
            if child != 0 { _exit(child > 0 ? 0 : 71) }
            _ = setsid()
        }
        // Whatever the front end that started it had open (an editor's pipes, a test
        // runner's socket that says when its child ended) must not be held open for the
        // service's life; systemd's socket (descriptor 3) stays.
        closeInheritedDescriptors(keepingListener: activatedListener() != nil)
        signal(SIGPIPE, SIG_IGN)
        signal(SIGHUP, SIG_IGN)
        let executable = CommandLine.arguments.first ?? "emend-provider-host"
        serve(endpoint: ServiceEndpoint(directory: directory, idleTimeoutMilliseconds: max(idle, 0)),
              identity: ServiceIdentity.of(executable: executable))
    }

    static func serve(endpoint: ServiceEndpoint, identity: String) -> Never {
        guard case .success = ServiceEndpoint.prepare(directory: endpoint.directory) else { exit(73) }
        // One service per directory: the lock is held for the process's life (the kernel
        // lets go of it however the process ends). A service being replaced still holds it
        // for a moment, so wait a little for it.
        let lock = open(endpoint.lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard lock >= 0 else { exit(73) }
        let deadline = MonotonicClock.nowMilliseconds() + ServiceClient.startMilliseconds
        while flock(lock, LOCK_EX | LOCK_NB) != 0 {
            if MonotonicClock.nowMilliseconds() >= deadline { exit(0) }
            // Another service listens: it serves; this one is not needed.
            if let fd = ServiceClient.connect(endpoint) {
                Glibc.close(fd)
                exit(0)
            }
            usleep(5000)
        }
        // Started by systemd's emend.socket: the socket is systemd's (descriptor 3), kept
        // when the service exits, so the next connection starts it again.
        let activated = activatedListener()
        if activated == nil { unlink(endpoint.socketPath) }
        let listener = activated ?? emendsys_unix_listen(endpoint.socketPath, 64)
        guard listener >= 0 else { exit(73) }
        if activated == nil { _ = chmod(endpoint.socketPath, 0o600) }
        let state = ServiceState(identity: identity, idleTimeoutMilliseconds: endpoint.idleTimeoutMilliseconds)

        var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        while !state.isStopping {
            let ready = poll(&poller, 1, 50)
            let now = MonotonicClock.nowMilliseconds()
            for host in state.liveHosts { host.tick(now: now) }
            if state.idleExpired(now: now) { _ = state.beginStopping(); break }
            guard ready > 0 else { continue }
            let fd = emendsys_accept_cloexec(listener)
            guard fd >= 0 else { continue }
            // Only the user's own processes: anyone else is hung up on before a byte is read.
            guard emendsys_peer_uid(fd) == Int(getuid()) else {
                Glibc.close(fd)
                continue
            }
            state.connected()
            do {
                try RuntimeThread.start { ServiceConnection.serve(fd: fd, state: state) }
            } catch {
                Glibc.close(fd)
                state.disconnected()
            }
        }
        // Stopping: no new connection, the socket gone (before the lock is let go), the hosts
        // closed (each destroys its plugin's instance), the front ends hung up.
        if activated == nil { unlink(endpoint.socketPath) }
        Glibc.close(listener)
        let hosts = state.liveHosts
        for host in hosts { host.close() }
        for host in hosts { host.waitUntilEnded(milliseconds: HostConnection.closeGraceMilliseconds) }
        exit(0)
    }

    /// The listening socket systemd passed (sd_listen_fds: LISTEN_PID is this process,
    /// LISTEN_FDS at least 1, the first on descriptor 3), or nil.
    static func activatedListener() -> Int32? {
        guard let pid = getenv("LISTEN_PID").flatMap({ Int32(String(cString: $0)) }), pid == getpid(),
              let count = getenv("LISTEN_FDS").flatMap({ Int(String(cString: $0)) }), count >= 1 else { return nil }
        _ = fcntl(3, F_SETFD, FD_CLOEXEC)
        return 3
    }

    /// Closes every descriptor above stderr (and above 3 when systemd passed its socket there).
    static func closeInheritedDescriptors(keepingListener: Bool) {
        var limit = rlimit()
        _ = getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        let top = Int32(min(limit.rlim_cur, 65536))
        var fd: Int32 = keepingListener ? 4 : 3
        while fd < top {
            _ = close(fd)
            fd += 1
        }
    }
}
