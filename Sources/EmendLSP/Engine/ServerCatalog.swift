import EmendCore

/// The providers the server's coordinators use: the registry (plugins, config.toml and the
/// built-in fixture) with the client's settings on top — the providers it names per tool,
/// and its language in every request. Settings change while the server runs, hence the lock.
final class ServerCatalog: ProviderCatalog, @unchecked Sendable {
    private let base: ProviderCatalog
    private let lock = Lock()
    private var settings = ServerSettings()

    init(base: ProviderCatalog) { self.base = base }

    func update(_ settings: ServerSettings) { lock.withLock { self.settings = settings } }

    private var current: ServerSettings { lock.withLock { settings } }

    func provider(for tool: WritingTool, named id: String?) throws(EmendError) -> WritingProvider {
        let settings = current
        let chosen = try base.provider(for: tool, named: id ?? settings.providers[tool]?.first)
        return LanguageProvider(base: chosen, language: settings.language)
    }

    func providersToCombine(for tool: WritingTool) throws(EmendError) -> [WritingProvider] {
        let settings = current
        let providers: [WritingProvider]
        if let ids = settings.providers[tool], !ids.isEmpty {
            var named: [WritingProvider] = []
            for id in ids { named.append(try base.provider(for: tool, named: id)) }
            providers = named
        } else {
            providers = try base.providersToCombine(for: tool)
        }
        return providers.map { LanguageProvider(base: $0, language: settings.language) }
    }
}

/// A provider with the client's language put into each request.
struct LanguageProvider: WrappingProvider {
    let base: WritingProvider
    let language: String?

    func run(_ request: ProviderRequest, sink: ProviderSink) -> ProviderOutcome {
        var request = request
        if let language { request.language = language }
        return base.run(request, sink: sink)
    }
}
