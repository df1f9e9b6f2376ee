/// Where a process's provider hosts run: each process starts its own (libemend's default:
/// an embedding engine owns its children), or the per-user checker service holds them once
/// for every front end of the user (the default of the `emend` command and `emend lsp`).
/// `config.toml` chooses (`[service] hosts`), `EMEND_SERVICE=on|off` overrides it (tests).
public enum HostRoute: Sendable, Equatable {
    case ownProcesses
    case service(ServiceEndpoint)

    /// The route for a front end whose default is `serviceByDefault`: `EMEND_SERVICE` first,
    /// then `[service] hosts` of config.toml. A service directory that is not safe to use
    /// (see ServiceEndpoint) means own processes, with the reason in `logger`.
    public static func resolve(environment: [String: String], settings: ServiceSettings, serviceByDefault: Bool,
                               logger: (String) -> Void = { _ in }) -> HostRoute {
        resolve(environment: environment, settings: settings,
                preference: serviceByDefault ? .serviceUnlessConfigured : .ownUnlessConfigured, logger: logger)
    }

    /// The route for a front end that asks for `preference` (libemend's engines choose it
    /// per coordinator, emend_provider_hosts): `EMEND_SERVICE` first, then config.toml
    /// unless the front end insists on own processes, then the preference.
    public static func resolve(environment: [String: String], settings: ServiceSettings, preference: HostPreference,
                               logger: (String) -> Void = { _ in }) -> HostRoute {
        let wanted: Bool
        switch (environment["EMEND_SERVICE"], preference) {
        case ("on"?, _), ("1"?, _): wanted = true
        case ("off"?, _), ("0"?, _): wanted = false
        case (_, .ownProcesses): wanted = false
        case (_, .ownUnlessConfigured): wanted = settings.hosts.map { $0 == .service } ?? false
        case (_, .serviceUnlessConfigured): wanted = settings.hosts.map { $0 == .service } ?? true
        }
        guard wanted else { return .ownProcesses }
        switch ServiceEndpoint.standard(environment: environment, idleTimeoutMilliseconds: settings.idleTimeoutMilliseconds) {
        case .success(let endpoint): return .service(endpoint)
        case .failure(let problem):
            logger("the checker service is not used: \(problem.reason)")
            return .ownProcesses
        }
    }
}

/// What a front end asks for, before config.toml and `EMEND_SERVICE` have their say
/// (HostRoute.resolve): the user's configuration wins over a front end's default, and only
/// a front end whose providers must be its own children overrules the configuration.
public enum HostPreference: Sendable, Equatable {
    /// `[service] hosts` of config.toml chooses; without it, own processes (libemend's default).
    case ownUnlessConfigured
    /// `[service] hosts` chooses; without it, the service (the CLI's, `emend lsp`'s, and
    /// EMEND_PROVIDER_HOSTS_SERVICE).
    case serviceUnlessConfigured
    /// Own processes whatever config.toml says (EMEND_PROVIDER_HOSTS_OWN).
    case ownProcesses
}

/// `[service]` of config.toml.
public struct ServiceSettings: Sendable, Equatable {
    public enum Hosts: String, Sendable {
        /// Provider hosts live in the per-user service.
        case service
        /// Each process starts its own.
        case process
    }

    /// `hosts`; nil: the front end's default.
    public var hosts: Hosts?
    /// `idle_timeout_ms`: the service exits when no front end has been connected for this long.
    public var idleTimeoutMilliseconds = 600_000

    public init() {}
}
