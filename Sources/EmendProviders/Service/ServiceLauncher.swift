import Glibc

/// Starts the service's first process with ChildSpawn (posix_spawn: a front end may be a
/// threaded editor, never fork there), stdin, stdout and stderr on /dev/null, in our process
/// group, and waits for it: with `--detach` it forks the service itself and exits at once, so
/// no front end is left with a zombie child or holds the service in its process group.
enum ServiceLauncher {
    /// `arguments` is the whole argv, argv[0] included.
    static func spawn(_ executable: String, arguments: [String]) -> Result<Void, ServiceClient.Failure> {
        let spawned = ChildSpawn.spawn(executable, arguments: Array(arguments.dropFirst()),
                                       environment: HostEnvironment.entries(keeping: nil),
                                       defaultSignals: .all, group: .inherited)
        switch spawned {
        case .failure(let failure):
            return .failure(ServiceClient.Failure(reason: "cannot start \(executable) --service: \(failure.reason)"))
        case .success(let pid):
            var exit: Int32 = 0
            while waitpid(pid, &exit, 0) < 0 && errno == EINTR {}
            return .success(())
        }
    }
}
