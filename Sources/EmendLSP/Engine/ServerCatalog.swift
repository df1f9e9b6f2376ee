import EmendCore
import EmendProofreading

/// The providers the server's coordinators use: the registry (plugins, config.toml and the
/// built-in fixture) with the client's settings on top — the providers it names per tool
/// (for proofread, combined into one proofreader as every front end combines them), and its
/// language in every request. Settings change while the server runs, hence the lock.
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

    /// One proofreader, built as the CLI and libemend build theirs (`Proofreader`), over the
    /// checkers the client names for the tool (else those config.toml or the registry chooses).
    /// Without a language in the settings, each paragraph is checked in the language it is
    /// written in, as `emend proofread` without `--language` checks it.
    func proofreader(for tool: WritingTool) throws(EmendError) -> WritingProvider {
        let settings = current
        return frontEnd(try Proofreader.proofreader(for: tool, listed: settings.providers[tool], in: base), settings)
    }

    /// The checker `id` a coordinator was asked for by name, as a combination of one built as
    /// libemend's registry and the CLI build it (`Proofreader.named`): its time limit, the
    /// completeness report and language detection, not the bare provider.
    func proofreader(for tool: WritingTool, named id: String) throws(EmendError) -> WritingProvider {
        frontEnd(try Proofreader.named([id], for: tool, in: base), current)
    }

    private func frontEnd(_ combined: WritingProvider, _ settings: ServerSettings) -> WritingProvider {
        let proofreader = settings.language == nil ? Proofreader.detectingLanguage(combined) : combined
        return LanguageProvider(base: proofreader, language: settings.language)
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
