import EmendCore

/// What a host says about its sandbox when the kernel refused a layer ("sandbox: partial
/// (refused by this kernel: ...)"): logged once per process, not once per host started.
enum SandboxNotice {
    static let prefix = "sandbox: "
    private static let lock = Lock()
    nonisolated(unsafe) private static var seen: Set<String> = []

    /// True the first time this process sees `line`.
    static func isFirst(_ line: String) -> Bool {
        lock.withLock { seen.insert(line).inserted }
    }
}
