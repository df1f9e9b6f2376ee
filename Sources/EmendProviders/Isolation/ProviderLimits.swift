/// What a provider host allows one plugin: its address space, the size of one result and of
/// one edit's text, the CPU time of one run, and how long a cancelled run may go on before
/// the host is killed.
/// Defaults below; `config.toml` overrides them for every provider (`[limits]`) or for one
/// (`[providers."ID"]`), see `ProviderConfiguration`.
public struct ProviderLimits: Sendable, Equatable {
    /// RLIMIT_AS of the host process, in bytes (0: none). 4 GiB lets a small local model
    /// (SmolLM2-135M needs well under 1 GiB) load with room for its context.
    public var memoryBytes: Int = 4 << 30
    /// The text of one result plus the text of all its edits, in bytes.
    public var resultBytes: Int = 16 << 20
    /// One edit's replacement, explanation, category and rule id together, in bytes.
    public var editBytes: Int = 64 << 10
    /// How long a cancelled run may keep going before its host is killed.
    public var cancelGraceMilliseconds: Int = 2000
    /// CPU seconds one run may use (RLIMIT_CPU, moved on at each run's start; 0: none). Why:
    /// a plugin spinning in run that no one cancels (an engine with no provider time limit,
    /// the CLI) would burn a core for ever; the kernel stops its host instead (SIGXCPU) and
    /// the run says so. Ten minutes covers a long rewrite by a local model on a small machine.
    public var cpuSeconds: Int = 600
    /// How long loading (the plugin's create) may take before its host is killed; a model
    /// of a few GiB loads in seconds, so a minute is generous. (Not sent to the host.)
    public var loadTimeoutMilliseconds: Int = 60_000

    public init() {}

    /// The config.toml keys, their meaning and how each is set.
    static let keys: [(name: String, apply: @Sendable (inout ProviderLimits, Int) -> Void)] = [
        ("memory_mb", { $0.memoryBytes = $1 << 20 }),
        ("max_result_bytes", { $0.resultBytes = $1 }),
        ("max_edit_bytes", { $0.editBytes = $1 }),
        ("cancel_grace_ms", { $0.cancelGraceMilliseconds = $1 }),
        ("load_timeout_ms", { $0.loadTimeoutMilliseconds = $1 }),
        ("cpu_seconds", { $0.cpuSeconds = $1 }),
    ]

    static func isKey(_ name: String) -> Bool { keys.contains { $0.name == name } }

    func encode(into encoder: inout FrameEncoder) {
        encoder.int(memoryBytes)
        encoder.int(resultBytes)
        encoder.int(editBytes)
        encoder.int(cancelGraceMilliseconds)
        encoder.int(cpuSeconds)
    }

    static func decode(_ decoder: inout FrameDecoder) throws(ProtocolViolation) -> ProviderLimits {
        var limits = ProviderLimits()
        limits.memoryBytes = try decoder.count()
        limits.resultBytes = try decoder.count()
        limits.editBytes = try decoder.count()
        limits.cancelGraceMilliseconds = try decoder.count()
        limits.cpuSeconds = try decoder.count()
        return limits
    }
}
