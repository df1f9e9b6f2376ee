import Glibc

/// How libemend starts a process of its own (a provider host, the provider scanner): with
/// posix_spawn, never fork (libemend lives in threaded editors), as the leader of its own
/// process group unless told otherwise (so that killing the group ends whatever a plugin
/// started too), with stdin and stderr on /dev/null (a plugin that prints must not scribble
/// on an editor's terminal), no signal blocked and the given signals back to their default
/// action (the editor may ignore or catch them).
enum ChildSpawn {
    /// Where the child's stdout goes.
    enum Output {
        case devNull
        /// A copy of this descriptor of ours (a pipe the parent reads).
        case descriptor(Int32)
    }

    /// The signals the child starts with their default action.
    enum DefaultSignals {
        /// Every signal that can be set (all but SIGKILL and SIGSTOP).
        case all
        case only([Int32])
    }

    /// Which process group the child joins.
    enum ProcessGroup {
        /// Its own, as its leader: killing the group ends whatever it started too.
        case own
        /// Ours: for a child that detaches itself at once (the service's first process).
        case inherited
    }

    /// posix_spawn's error number: why the child could not be started.
    struct Failure: Error {
        let code: Int32
        var reason: String { String(cString: strerror(code)) }
    }

    /// Starts `executable` with `arguments` (argv[1...]) and `environment` (strdup'ed entries
    /// ending in nil; freed here), and `descriptors` of ours copied to the child's numbers after
    /// stdin, stdout and stderr are set. Returns the child's pid.
    static func spawn(_ executable: String, arguments: [String] = [], environment: [UnsafeMutablePointer<CChar>?],
                      output: Output = .devNull, descriptors: [(ours: Int32, child: Int32)] = [],
                      defaultSignals: DefaultSignals, group: ProcessGroup = .own) -> Result<pid_t, Failure> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        switch output {
        case .devNull: posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        case .descriptor(let descriptor): posix_spawn_file_actions_adddup2(&actions, descriptor, 1)
        }
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        for (ours, child) in descriptors { posix_spawn_file_actions_adddup2(&actions, ours, child) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        switch group {
        case .own:
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
            posix_spawnattr_setpgroup(&attributes, 0)
        case .inherited:
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        }
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        var defaults = sigset_t()
        switch defaultSignals {
        case .all:
            sigfillset(&defaults)
            sigdelset(&defaults, SIGKILL)
            sigdelset(&defaults, SIGSTOP)
        case .only(let signals):
            sigemptyset(&defaults)
            for signal in signals { sigaddset(&defaults, signal) }
        }
        posix_spawnattr_setsigdefault(&attributes, &defaults)

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer {
            for arg in argv { free(arg) }
            for entry in environment { free(entry) }
        }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv, environment)
        return status == 0 ? .success(pid) : .failure(Failure(code: status))
    }
}
