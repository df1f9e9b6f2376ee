import CEmendSandbox
import Glibc
import EmendProviders

/// The provider host's sandbox: the C layers of include/emend_sandbox.h with the policy
/// CREATE carries. The channel (descriptor 3) is the only descriptor kept.
enum HostConfinement {
    /// Enters the sandbox, its processes bounded to `memoryBytes` together (0: not
    /// measured; each one has RLIMIT_AS besides); nil when every layer held, else a line naming the level and what
    /// the kernel refused (the host sends it to libemend's log). Returns in the sandboxed
    /// process only: this process becomes its supervisor.
    @Sendable static func enter(_ sandbox: HostSandbox, memoryBytes: Int) -> String? {
        var report = emend_sandbox_report()
        let keep: [Int32] = [ProviderHostServer.channelDescriptor]
        let paths = sandbox.readPaths.map { strdup($0) }, writable = sandbox.writePaths.map { strdup($0) }
        defer { for path in paths + writable { free(path) } }
        let status: Int32 = keep.withUnsafeBufferPointer { keepFds in
            paths.map { UnsafePointer<CChar>($0) }.withUnsafeBufferPointer { readPaths in
                writable.map { UnsafePointer<CChar>($0) }.withUnsafeBufferPointer { writePaths in
                    var policy = emend_sandbox_policy()
                    policy.keep_fds = keepFds.baseAddress
                    policy.keep_count = keepFds.count
                    policy.read_paths = readPaths.baseAddress
                    policy.read_count = readPaths.count
                    policy.write_paths = writePaths.baseAddress
                    policy.write_count = writePaths.count
                    policy.network = sandbox.network ? 1 : 0
                    policy.memory_bytes = UInt64(max(0, memoryBytes))
                    return emend_sandbox_enter(&policy, &report)
                }
            }
        }
        if status != 0 { return "sandbox: none (no process could be made: \(String(cString: strerror(errno))))" }
        return SandboxReportText.notice(report)
    }
}

/// The one line a sandbox report becomes in a log.
enum SandboxReportText {
    static func notice(_ report: emend_sandbox_report) -> String? {
        var report = report
        guard report.applied != report.wanted else { return nil }
        let level = String(cString: emend_sandbox_level(&report))
        let refused = withUnsafeBytes(of: &report.refused) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return "sandbox: \(level) (refused by this kernel: \(refused))"
    }
}
