import EmendCore
import EmendProofreading
import EmendProviders

/// Text a provider streams, handed from its thread to the run loop, which prints it.
final class StreamBuffer: @unchecked Sendable {
    private let lock = Lock()
    private var pending = ""
    private var all = ""

    func append(_ chunk: String) {
        lock.withLock {
            pending += chunk
            all += chunk
        }
    }

    /// What arrived since the last call.
    func take() -> String {
        lock.withLock {
            let chunk = pending
            pending = ""
            return chunk
        }
    }

    /// Everything that arrived.
    var text: String {
        lock.withLock { all }
    }

    func reset() {
        lock.withLock {
            pending = ""
            all = ""
        }
    }
}

/// A provider as the CLI runs it: the user's `--language` goes into every request, and the
/// text it emits is also copied to `stream` so the command can print it as it arrives.
struct CLIProvider: WrappingProvider {
    let base: WritingProvider
    let language: String?
    let stream: StreamBuffer?

    func run(_ request: ProviderRequest, sink: ProviderSink) -> ProviderOutcome {
        var request = request
        if let language { request.language = language }
        guard let stream else { return base.run(request, sink: sink) }
        return base.run(request, sink: TeeSink(base: sink, stream: stream))
    }

    private struct TeeSink: ProviderSink {
        let base: ProviderSink
        let stream: StreamBuffer
        var isCancelled: Bool { base.isCancelled }
        func emitText(_ chunk: String) {
            stream.append(chunk)
            base.emitText(chunk)
        }
        func emitEdit(_ edit: ProviderEdit) { base.emitEdit(edit) }
        func log(_ message: String) { base.log(message) }
        func beginWorkOutlivingRun() -> @Sendable () -> Void { base.beginWorkOutlivingRun() }
        func reportCompleteness(_ completeness: Completeness) { base.reportCompleteness(completeness) }
    }
}

/// Gives a stored result back as if a provider had just written it: how `emend follow-up`
/// rebuilds the finished rewrite session that the follow-up request refines.
struct ReplayProvider: WritingProvider {
    static let replayID = "org.emend.cli.replay"
    let id = ReplayProvider.replayID
    let tools: Set<WritingTool> = Set(WritingTool.allCases.filter { $0.isRewrite || $0 == .compose })
    /// It hands back a result the user saw already: nothing to check, nothing to ask again.
    var needsFactCheck: Bool { false }
    var canRetry: Bool { false }
    let result: String

    func run(_ request: ProviderRequest, sink: ProviderSink) -> ProviderOutcome {
        sink.emitText(result)
        return .finished
    }
}

/// The catalog the CLI hands its coordinator: the registry of discovered plugins (plus the
/// built-in fixture), every provider wrapped as a `CLIProvider`, and extra providers of the
/// CLI's own (the replay provider) that only an explicit id selects.
final class CLICatalog: ProviderCatalog, ProviderListing, @unchecked Sendable {
    let base: ProviderCatalog
    let extras: [WritingProvider]
    let language: String?
    /// The checker `--provider` names for proofread (nil: those config.toml or the registry chooses).
    let proofreadProvider: String?
    let stream: StreamBuffer
    private let lock = Lock()
    private var chosen: [String] = []

    init(base: ProviderCatalog, extras: [WritingProvider] = [], language: String?, proofreadProvider: String? = nil,
         stream: StreamBuffer) {
        self.base = base
        self.extras = extras
        self.language = language
        self.proofreadProvider = proofreadProvider
        self.stream = stream
    }

    /// Ids of the providers handed out for the last start, most preferred first.
    var lastChosen: [String] {
        lock.withLock { chosen }
    }

    private func note(_ ids: [String]) {
        lock.withLock { chosen = ids }
    }

    func provider(for tool: WritingTool, named id: String?) throws(EmendError) -> WritingProvider {
        if let id, let extra = extras.first(where: { $0.id == id }) {
            guard extra.tools.contains(tool) else { throw EmendError(.unsupported, "\(id) does not serve \(tool.name)") }
            return extra
        }
        let provider = try base.provider(for: tool, named: id)
        note([provider.id])
        return CLIProvider(base: provider, language: language, stream: stream)
    }

    /// One proofreader, built as the language server and libemend build theirs (`Proofreader`),
    /// over the checkers config.toml or the registry chooses, or the one `--provider` names.
    func proofreader(for tool: WritingTool) throws(EmendError) -> WritingProvider {
        if let proofreadProvider { return try proofreader(for: tool, named: proofreadProvider) }
        return frontEnd(try Proofreader.proofreader(for: tool, listed: nil, in: base))
    }

    /// The checker `id` (`--provider`, or a coordinator's chosen or requested one) as a
    /// combination of one, as libemend's registry builds it (`Proofreader.named`). Why: handed
    /// out bare (`provider(for:named:)`, which `emend doctor` and the other tools use) it went
    /// round the combination (no time limit of its own, no completeness report) and language
    /// detection.
    func proofreader(for tool: WritingTool, named id: String) throws(EmendError) -> WritingProvider {
        frontEnd(try Proofreader.named([id], for: tool, in: base))
    }

    /// `combined` as the command runs it: each paragraph in its own language without
    /// `--language`, the language given in every request, its text copied to `stream`.
    private func frontEnd(_ combined: WritingProvider) -> WritingProvider {
        note((combined as? CombinedProofreader)?.members.map(\.id) ?? [combined.id])
        let proofreader = language == nil ? Proofreader.detectingLanguage(combined) : combined
        return CLIProvider(base: proofreader, language: language, stream: stream)
    }

    var summaries: [ProviderSummary] { (base as? ProviderListing)?.summaries ?? [] }
}
