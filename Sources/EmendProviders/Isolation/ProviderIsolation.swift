/// Where a provider's plugin runs: in a provider host process (the default: a crash, a
/// hang or a runaway allocation takes down only the host) or, for a plugin the user trusts,
/// in the process that embeds libemend (`isolation = "none"` in config.toml), which saves
/// a process and a socket hop and gives up every one of those protections.
public enum ProviderIsolation: String, Sendable, Equatable {
    case process
    case none
}
