import EmendCore
import EmendProofreading

/// The providers of this process: discovered plugins and manifests plus built-ins, with the
/// user's configuration applied. Chooses the provider for a tool:
///
/// 1. a provider named by the engine or CLI, if it is enabled and serves the tool;
/// 2. else the first enabled provider in the configuration's order for the tool;
/// 3. else the enabled provider with the highest declared priority (ties by id); built-ins
///    come last.
///
/// Providers are made on first choice and kept, so plugins that are never chosen are never
/// loaded. Providers that use the network are off until `network = true`.
public final class ProviderRegistry: ProviderCatalog, @unchecked Sendable {
    public let configuration: ProviderConfiguration
    /// What discovery found (including broken and shadowed files), for listings.
    public let discovery: DiscoveryResult

    /// Where the user's `dictionary.txt` and `ignored-rules.txt` are (nil: none), for the
    /// `FilteringProofreader` every discovered proofreading provider is wrapped in.
    public let dictionaryDirectory: String?

    private let factory: ProviderFactory
    private let logger: @Sendable (String) -> Void
    private let lock = Lock()
    /// Guarded by `lock`.
    private var table: [RegistryEntry]
    private var made: [String: WritingProvider]

    /// `hostPath` is the emend-provider-host that runs plugins (nil: found by
    /// ProviderHostLocator from the environment and the executable's directory); a plugin
    /// that keeps crashing is remembered as broken in the discovery cache at `cachePath`.
    public convenience init(discovery: DiscoveryResult, configuration: ProviderConfiguration,
                            builtins: [WritingProvider], dictionaryDirectory: String? = nil,
                            logger: @escaping @Sendable (String) -> Void = { _ in },
                            hostPath: String? = nil, cachePath: String? = nil, route: HostRoute = .ownProcesses) {
        let host = hostPath ?? ProviderHostLocator.locate(environment: ProcessEnvironment.current, libraryDirectory: nil)
        self.init(discovery: discovery, configuration: configuration, builtins: builtins, logger: logger,
                  factory: .standard(logger: logger, hostPath: host, cachePath: cachePath, route: route),
                  dictionaryDirectory: dictionaryDirectory)
    }

    init(discovery: DiscoveryResult, configuration: ProviderConfiguration, builtins: [WritingProvider],
         logger: @escaping @Sendable (String) -> Void, factory: ProviderFactory, dictionaryDirectory: String? = nil) {
        self.configuration = configuration
        self.dictionaryDirectory = dictionaryDirectory
        self.discovery = discovery
        self.factory = factory
        self.logger = logger
        let file = configuration.fileName
        var entries: [RegistryEntry] = []
        var made: [String: WritingProvider] = [:]
        for builtin in builtins where made[builtin.id] == nil {
            made[builtin.id] = builtin.tools.contains(.proofread)
                ? FilteringProofreader(base: builtin, dictionaryDirectory: dictionaryDirectory, preferences: configuration.proofreading)
                : builtin
            entries.append(RegistryEntry(id: builtin.id, record: nil, tools: builtin.tools,
                                         priority: RegistryEntry.builtinPriority,
                                         disabledReason: configuration.disabled.contains(builtin.id) ? "disabled in \(file)" : nil))
        }
        for record in discovery.records {
            guard made[record.id] == nil, !entries.contains(where: { $0.id == record.id }) else {
                logger("provider \(record.path): id \"\(record.id)\" is taken by a built-in provider; ignored")
                continue
            }
            var reason: String?
            if configuration.disabled.contains(record.id) {
                reason = "disabled in \(file)"
            } else if record.usesNetwork && !configuration.network {
                reason = "uses the network; set network = true in \(file)"
            }
            entries.append(RegistryEntry(id: record.id, record: record, tools: record.tools, priority: record.priority,
                                         disabledReason: reason))
        }
        self.table = entries
        self.made = made
        for warning in configuration.warnings { logger(warning) }
        for (tool, ids) in configuration.toolOrder {
            for id in ids where !entries.contains(where: { $0.id == id }) {
                logger("\(file): [tools] \(tool.name) names \"\(id)\", which is not installed")
            }
        }
        for broken in discovery.broken { logger("provider \(broken.path) is broken: \(broken.reason)") }
    }

    /// Every provider with its state: built-ins first, then discovered ones in search order.
    /// A provider made and then found broken (a plugin whose host kept crashing) is listed
    /// with that reason and is no longer chosen.
    public var entries: [RegistryEntry] {
        lock.withLock {
            table.map { entry in
                // A proofreader is wrapped in the user's dictionary filter; its health is the innermost provider's.
                let provider = made[entry.id]?.innermost
                guard entry.disabledReason == nil, let health = provider as? ProviderHealth,
                      let reason = health.brokenReason else { return entry }
                var broken = entry
                broken.disabledReason = "broken: \(reason)"
                return broken
            }
        }
    }

    /// The enabled providers that serve `tool`, in the order they would be chosen.
    public func candidates(for tool: WritingTool) -> [RegistryEntry] {
        let usable = entries.filter { $0.isEnabled && $0.tools.contains(tool) }
        var ordered: [RegistryEntry] = []
        for id in configuration.toolOrder[tool] ?? [] {
            if let entry = usable.first(where: { $0.id == id }), !ordered.contains(where: { $0.id == id }) {
                ordered.append(entry)
            }
        }
        let rest = usable.filter { entry in !ordered.contains(where: { $0.id == entry.id }) }
        return ordered + rest.sorted(by: RegistryEntry.preferred)
    }

    public func provider(for tool: WritingTool, named id: String?) throws(EmendError) -> WritingProvider {
        if let id {
            let all = entries
            guard let entry = all.first(where: { $0.id == id }) else {
                let known = all.map(\.id).joined(separator: ", ")
                throw EmendError(.notFound, "no provider \"\(id)\" (installed: \(known.isEmpty ? "none" : known))")
            }
            if let reason = entry.disabledReason {
                throw EmendError(.refused, "provider \"\(id)\" is off: \(reason)")
            }
            guard entry.tools.contains(tool) else {
                let serves = entry.tools.sorted { $0.rawValue < $1.rawValue }.map(\.name).joined(separator: ", ")
                throw EmendError(.unsupported, "provider \"\(id)\" does not serve \(tool.name) (it serves \(serves))")
            }
            return try make(entry)
        }
        var lastFailure: EmendError?
        for entry in candidates(for: tool) {
            do { return try make(entry) } catch { lastFailure = error }
        }
        if let lastFailure { throw lastFailure }
        let off = entries.filter { !$0.isEnabled && $0.tools.contains(tool) }
        let detail = off.isEmpty ? "" : "; off: " + off.map { "\($0.id) (\($0.disabledReason ?? ""))" }.joined(separator: ", ")
        throw EmendError(.unsupported, "no enabled provider serves \(tool.name)\(detail)")
    }

    /// The provider of `entry`, made once; a provider that cannot be made is marked broken.
    private func make(_ entry: RegistryEntry) throws(EmendError) -> WritingProvider {
        let result: Result<WritingProvider, EmendError> = lock.withLock {
            if let existing = made[entry.id] { return .success(existing) }
            guard let record = entry.record else { return .failure(EmendError(.internal, "built-in \(entry.id) missing")) }
            do throws(EmendError) {
                var provider = try factory.make(record, configuration)
                if record.tools.contains(.proofread) {
                    provider = FilteringProofreader(base: provider, dictionaryDirectory: dictionaryDirectory,
                                                    preferences: configuration.proofreading)
                }
                made[entry.id] = provider
                return .success(provider)
            } catch {
                if let index = table.firstIndex(where: { $0.id == entry.id }) {
                    table[index].disabledReason = "broken: \(error.message)"
                }
                return .failure(EmendError(.provider, "provider \"\(entry.id)\" is broken: \(error.message)"))
            }
        }
        switch result {
        case .success(let provider): return provider
        case .failure(let error):
            logger(error.message)
            throw error
        }
    }
}
