import EmendCore

/// What discovery knows about one provider file without loading it (from the scanner, or
/// from the cache of an earlier scan).
public struct ProviderRecord: Sendable, Equatable {
    public enum Kind: String, Sendable {
        /// A shared object exporting emend_provider_entry.
        case plugin
        /// A TOML manifest naming a C function bound through libffi.
        case simple
    }

    public var path: String
    public var kind: Kind
    public var id: String
    public var name: String
    public var version: String
    public var tools: Set<WritingTool>
    /// BCP 47 tags; ["*"] for any language.
    public var languages: [String]
    /// EMEND_OUTPUT_* bits.
    public var outputs: UInt32
    public var streams: Bool
    public var usesNetwork: Bool
    public var priority: Int
    /// The paths outside its directory the plugin declares it reads (its
    /// `emend_provider_read_paths` symbol, include/emend_provider.h); its sandbox allows them.
    public var declaredPaths: [String] = []

    public init(path: String, kind: Kind, id: String, name: String, version: String, tools: Set<WritingTool>,
                languages: [String], outputs: UInt32, streams: Bool, usesNetwork: Bool, priority: Int) {
        self.path = path
        self.kind = kind
        self.id = id
        self.name = name
        self.version = version
        self.tools = tools
        self.languages = languages
        self.outputs = outputs
        self.streams = streams
        self.usesNetwork = usesNetwork
        self.priority = priority
    }
}

/// A provider file that cannot be used, and why (remembered until the file changes).
public struct BrokenProvider: Sendable, Equatable {
    public var path: String
    public var reason: String
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
}
