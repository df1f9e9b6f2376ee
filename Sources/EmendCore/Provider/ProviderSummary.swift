/// One provider as a catalog lists it for engines: usable or not, and why.
public struct ProviderSummary: Sendable, Equatable {
    public var id: String
    public var name: String
    public var version: String
    /// The plugin or manifest file; "" for built-in providers.
    public var path: String
    public var tools: Set<WritingTool>
    public var languages: [String]
    public var streams: Bool
    public var usesNetwork: Bool
    public var builtIn: Bool
    public var simpleForm: Bool
    public var priority: Int
    public var enabled: Bool
    /// Why it is not usable; "" when enabled.
    public var reason: String

    public init(id: String, name: String, version: String, path: String, tools: Set<WritingTool>, languages: [String],
                streams: Bool, usesNetwork: Bool, builtIn: Bool, simpleForm: Bool, priority: Int, enabled: Bool, reason: String) {
        self.id = id
        self.name = name
        self.version = version
        self.path = path
        self.tools = tools
        self.languages = languages
        self.streams = streams
        self.usesNetwork = usesNetwork
        self.builtIn = builtIn
        self.simpleForm = simpleForm
        self.priority = priority
        self.enabled = enabled
        self.reason = reason
    }
}

/// Catalogs that can list what they hold.
public protocol ProviderListing {
    var summaries: [ProviderSummary] { get }
}

extension ProviderList: ProviderListing {
    public var summaries: [ProviderSummary] {
        providers.map {
            ProviderSummary(id: $0.id, name: $0.id, version: "", path: "", tools: $0.tools, languages: ["*"], streams: false,
                            usesNetwork: false, builtIn: true, simpleForm: false, priority: 0, enabled: true, reason: "")
        }
    }
}

extension Coordinator {
    /// The providers of this coordinator's catalog, when it can list them.
    public var providerSummaries: [ProviderSummary] { (catalog as? ProviderListing)?.summaries ?? [] }
}
