import EmendCore

/// What one checker suggested for a request, as the combiner reads it.
public struct MemberEdits: Sendable, Equatable {
    public var providerID: String
    /// Its place in the user's (or the registry's) order: 0 is the most preferred.
    public var rank: Int
    public var edits: [ProviderEdit]

    public init(providerID: String, rank: Int, edits: [ProviderEdit]) {
        self.providerID = providerID
        self.rank = rank
        self.edits = edits
    }
}

/// A suggestion the combiner kept, with who proposed it (for statistics and tests).
public struct CombinedEdit: Sendable, Equatable {
    public var edit: ProviderEdit
    /// The providers that proposed this range and replacement, most preferred first.
    public var supporters: [String]
    /// The providers that flagged any part of this span (with any replacement).
    public var flaggedBy: [String]
}
