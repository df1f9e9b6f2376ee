import Glibc

/// Starts the service's first process with posix_spawn (a front end may be a threaded editor:
/// never fork there), stdin, stdout and stderr on /dev/null, and waits for it: with
/// `--detach` it forks the service itself and exits at once, so no front end is left with a
/// zombie child or holds the service in its process group.
enum ServiceLauncher {
    static func spawn(_ executable: String, arguments: [String]) -> Result<Void, ServiceClient.Failure> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        var defaults = sigset_t()
        sigfillset(&defaults)
        sigdelset(&defaults, SIGKILL)
        sigdelset(&defaults, SIGSTOP)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        let environment = HostEnvironment.entries(keeping: nil)
        defer {
            for arg in argv { free(arg) }
            for entry in environment { free(entry) }
        }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv, environment)
        guard status == 0 else {
            return .failure(ServiceClient.Failure(reason: "cannot start \(executable) --service: \(String(cString: strerror(status)))"))
        }
        var exit: Int32 = 0
        while waitpid(pid, &exit, 0) < 0 && errno == EINTR {}
        return .success(())
    }
}
