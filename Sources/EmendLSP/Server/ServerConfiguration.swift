import EmendCore

/// What the command hands the server: where it reads and writes, how to find providers (the
/// command knows the install layout: scanner, library directory), its version and log.
public struct ServerConfiguration: Sendable {
    public var input: Int32 = 0
    public var output: Int32 = 1
    public var version: String
    public var environment: [String: String]
    /// Builds the provider catalog (discovery, config.toml); called once, off the loop.
    public var makeCatalog: @Sendable () -> Result<ProviderCatalog, EmendError>
    public var logger: @Sendable (String) -> Void
    /// How long (ms) a provider may take for a check or a tool before it is given up on.
    public var providerTimeoutMilliseconds: Int64 = 120_000
    /// What a timeout's message names as the way to give providers more time.
    public static let providerTimeoutSetting = "emend lsp --timeout SECONDS"

    public init(version: String, environment: [String: String],
                makeCatalog: @escaping @Sendable () -> Result<ProviderCatalog, EmendError>,
                logger: @escaping @Sendable (String) -> Void = { _ in }) {
        self.version = version
        self.environment = environment
        self.makeCatalog = makeCatalog
        self.logger = logger
    }
}
