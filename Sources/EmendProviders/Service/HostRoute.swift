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
        let wanted: Bool
        switch environment["EMEND_SERVICE"] {
        case "on"?, "1"?: wanted = true
        case "off"?, "0"?: wanted = false
        default: wanted = settings.hosts.map { $0 == .service } ?? serviceByDefault
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
