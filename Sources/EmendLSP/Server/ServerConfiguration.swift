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
    /// Seconds a provider may take for a check or a tool before it is given up on.
    public var providerTimeoutMilliseconds: Int64 = 120_000

    public init(version: String, environment: [String: String],
                makeCatalog: @escaping @Sendable () -> Result<ProviderCatalog, EmendError>,
                logger: @escaping @Sendable (String) -> Void = { _ in }) {
        self.version = version
        self.environment = environment
        self.makeCatalog = makeCatalog
        self.logger = logger
    }
}

/// Builds the catalog once for both workers (discovery runs once), the first to ask waits.
final class SharedCatalog: @unchecked Sendable {
    private let lock = Lock()
    private var made: Result<ServerCatalog, EmendError>?
    private let make: @Sendable () -> Result<ProviderCatalog, EmendError>
    private var pendingSettings = ServerSettings()

    init(make: @escaping @Sendable () -> Result<ProviderCatalog, EmendError>) { self.make = make }

    func get() -> Result<ProviderCatalog, EmendError> {
        lock.withLock {
            if made == nil {
                made = make().map { base in
                    let catalog = ServerCatalog(base: base)
                    catalog.update(pendingSettings)
                    return catalog
                }
            }
            return made!.map { $0 as ProviderCatalog }
        }
    }

    func update(_ settings: ServerSettings) {
        lock.withLock {
            pendingSettings = settings
            if case .success(let catalog) = made { catalog.update(settings) }
        }
    }
}
