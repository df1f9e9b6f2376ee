import CEmendSystem
import Glibc
import EmendCore

/// A running `emend-provider-host`: started by ChildSpawn (posix_spawn, its own process group,
/// stdin/stdout/stderr on /dev/null), the channel on descriptor 3.
struct HostProcess {
    let pid: pid_t
    /// libemend's end of the socketpair (close-on-exec, so other children never hold it).
    let channel: Int32
    /// A pidfd of the host (-1 when the kernel has none): readable the moment it ends, so a
    /// crash is a crash at once even when a child of the plugin still holds the socket.
    let pidfd: Int32

    /// Starts `executable`; the failure names it and why. `environment` (the checker service
    /// starting a front end's host) replaces the one HostEnvironment makes for `create`.
    static func spawn(_ executable: String, create: HostCreate? = nil, environment given: [String]? = nil) -> Result<HostProcess, HostSpawnError> {
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
            return .failure(HostSpawnError(executable: executable, reason: String(cString: strerror(errno))))
        }
        // The child's end must not be 3 already: dup2(3, 3) would keep its close-on-exec.
        let childEnd = fcntl(ends[1], F_DUPFD_CLOEXEC, 10)
        close(ends[1])

        let environment = given.map { $0.map { strdup($0) } + [nil] } ?? HostEnvironment.make(for: create)
        let spawned = ChildSpawn.spawn(executable, environment: environment,
                                       descriptors: [(ours: childEnd, child: ProviderHostServer.channelDescriptor)],
                                       defaultSignals: .all)
        close(childEnd)
        switch spawned {
        case .success(let pid):
            let pidfd = emendsys_pidfd_open(pid)
            if pidfd >= 0 { _ = fcntl(pidfd, F_SETFD, FD_CLOEXEC) }
            return .success(HostProcess(pid: pid, channel: ends[0], pidfd: pidfd))
        case .failure(let failure):
            close(ends[0])
            return .failure(HostSpawnError(executable: executable, reason: failure.reason))
        }
    }

    /// SIGKILL to the host's process group (a plugin's own children go too) and the host.
    func kill() {
        _ = Glibc.kill(-pid, SIGKILL)
        _ = Glibc.kill(pid, SIGKILL)
    }

    /// Waits for the host to end (at most `milliseconds`, then kills it) and says how.
    func reap(milliseconds: Int) -> HostExit {
        let deadline = MonotonicClock.nowMilliseconds() + Int64(milliseconds)
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid { return HostExit(status: status) }
            if result < 0 && errno == EINTR { continue }
            // ECHILD: the embedding process ignores SIGCHLD, so the kernel reaped the host.
            if result < 0 { return .unknown }
            if MonotonicClock.nowMilliseconds() >= deadline {
                kill()
                while waitpid(pid, &status, 0) < 0 {
                    if errno != EINTR { return .unknown }
                }
                return HostExit(status: status)
            }
            usleep(2000)
        }
    }
}

/// Why a provider host could not be started.
struct HostSpawnError: Error {
    let executable: String
    let reason: String
}
