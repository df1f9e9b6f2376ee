import EmendCore

/// One provider the registry knows: a discovered file or a built-in, and whether it may run.
public struct RegistryEntry: Sendable, Equatable {
    public var id: String
    /// What discovery found; nil for a built-in provider.
    public var record: ProviderRecord?
    public var tools: Set<WritingTool>
    /// Higher is preferred when the configuration names none; built-ins come last.
    public var priority: Int
    /// Why it may not run ("disabled in config.toml", "uses the network; ...",
    /// "broken: ..."), or nil when enabled.
    public var disabledReason: String?

    public var isEnabled: Bool { disabledReason == nil }
    public var isBuiltin: Bool { record == nil }

    /// Priority of built-in providers: below every plugin.
    public static let builtinPriority = Int.min

    /// Higher priority first, then id.
    static func preferred(_ a: RegistryEntry, _ b: RegistryEntry) -> Bool {
        a.priority != b.priority ? a.priority > b.priority : a.id < b.id
    }
}
