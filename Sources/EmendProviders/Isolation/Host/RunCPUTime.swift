import Glibc

/// The CPU time of one run, kept by the kernel: RLIMIT_CPU of the host process. Why the
/// kernel: a plugin spinning in run that nobody cancels (an engine with no provider time
/// limit, the CLI) would burn a core for ever, and a host thread watching it is the plugin's
/// to stop; at the soft limit the kernel sends SIGXCPU, which ends the host (its default
/// action), and libemend reports the run as over its CPU time (HostEnd.cpuSpent).
///
/// The limit is per process and only counts up, so each run's start moves it to the CPU time
/// the host has used so far plus the run's seconds: runs at the same time share the budget
/// of the latest one. Between runs the soft limit is lifted again (`lift`): a child the
/// plugin starts then (a checker server) inherits no limit that would end it after the
/// seconds of one run, spread over a long session; one started during a run does. The hard
/// limit is left alone (a process can never raise it again). A
/// plugin that blocks SIGXCPU or raises its own soft limit escapes this one; the cancel
/// grace and the engine's provider time limit still stop its host.
enum RunCPUTime {
    static func allow(seconds: Int) {
        guard seconds > 0 else { return }
        var usage = rusage()
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return }
        // Rounded up: the limit counts whole seconds.
        let used = Int(usage.ru_utime.tv_sec) + Int(usage.ru_stime.tv_sec) + 1
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_CPU.rawValue), &limit) == 0 else { return }
        var wanted = rlim_t(used + seconds)
        if limit.rlim_max != rlim_t.max { wanted = min(wanted, limit.rlim_max) }
        limit.rlim_cur = wanted
        _ = setrlimit(__rlimit_resource_t(RLIMIT_CPU.rawValue), &limit)
    }

    /// No run is going: the soft limit back to the hard one.
    static func lift() {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_CPU.rawValue), &limit) == 0, limit.rlim_cur != limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(__rlimit_resource_t(RLIMIT_CPU.rawValue), &limit)
    }
}
