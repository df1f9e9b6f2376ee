/// What one discovery pass found.
public struct DiscoveryResult: Sendable, Equatable {
    /// Usable providers in search order (directory order, then file name).
    public var records: [ProviderRecord]
    /// Files (and directories) that cannot be used, with the reason.
    public var broken: [BrokenProvider]
    /// Files handed to the scanner this time (not answered from the cache).
    public var probed: [String]
    /// Files hidden by a file of the same name in an earlier directory.
    public var shadowed: [String]

    public init(records: [ProviderRecord] = [], broken: [BrokenProvider] = [], probed: [String] = [], shadowed: [String] = []) {
        self.records = records
        self.broken = broken
        self.probed = probed
        self.shadowed = shadowed
    }
}
