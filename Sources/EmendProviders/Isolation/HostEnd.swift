/// Why a provider host's channel ended, and what that means for the runs it served and for
/// the plugin's record: a crash, an unexpected exit and garbage on the channel count towards
/// marking the plugin broken; a kill libemend chose (a cancelled run past its grace), a run
/// over its CPU time or a close (the provider went away) do not.
enum HostEnd: Equatable {
    /// The exit status of a host whose sandbox went over its memory bound
    /// (EMEND_SANDBOX_EXIT_MEMORY in include/emend_sandbox.h, which libemend does not link).
    static let memoryExitStatus: Int32 = 124

    case crashed(signal: Int32)
    case exited(code: Int32)
    /// Gone, and its status lost (the embedding process ignores SIGCHLD).
    case vanished
    /// It sent something the protocol does not allow; libemend killed it.
    case violated(String)
    /// A cancelled run went on past the grace; libemend killed it.
    case killedAfterCancel(milliseconds: Int)
    /// It did not answer CREATE (READY or CREATE_FAILED) within the load limit; libemend killed it.
    case notReady(milliseconds: Int)
    /// The plugin's processes together went over memory_mb: the sandbox's supervisor
    /// killed them all (exit status `memoryExitStatus`).
    case memorySpent(megabytes: Int)
    /// A run used up its CPU time (`cpu_seconds`): the kernel stopped the host (SIGXCPU).
    case cpuSpent(seconds: Int)
    /// libemend closed the channel.
    case closed
    /// The checker service that held the host ended (stopped, replaced, killed): not the
    /// plugin's doing. A run that had no output yet is run once more (a new service).
    case serviceEnded

    var countsAsCrash: Bool {
        switch self {
        case .crashed, .exited, .vanished, .violated, .notReady: return true
        case .killedAfterCancel, .cpuSpent, .memorySpent, .closed, .serviceEnded: return false
        }
    }

    /// What a run that was going on is told, naming the plugin.
    func message(provider id: String) -> String {
        switch self {
        case .crashed(let signal): return "provider '\(id)' crashed (\(SignalName.of(signal)))"
        case .exited(let code): return "provider '\(id)' exited unexpectedly (status \(code))"
        case .vanished: return "provider '\(id)' ended unexpectedly"
        case .violated(let reason): return "provider '\(id)' broke the host protocol (\(reason)); its host was stopped"
        case .killedAfterCancel(let milliseconds):
            return "provider '\(id)' did not stop within \(milliseconds) ms of cancel; its host was killed"
        case .notReady(let milliseconds):
            return "provider '\(id)' did not finish loading within \(milliseconds) ms (load_timeout_ms); its host was killed"
        case .memorySpent(let megabytes):
            return "provider '\(id)' used more than \(megabytes) MiB of memory in all its processes together "
                + "(memory_mb in config.toml); its host was stopped"
        case .cpuSpent(let seconds):
            return "provider '\(id)' used up the CPU time of one run (\(seconds) s, cpu_seconds in config.toml); "
                + "the kernel stopped its host"
        case .closed: return "provider '\(id)' was closed"
        case .serviceEnded: return "provider '\(id)' ended with the emend checker service that held it"
        }
    }
}
