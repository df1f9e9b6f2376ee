import EmendCore

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
