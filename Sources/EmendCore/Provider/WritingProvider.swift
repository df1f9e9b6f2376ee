/// Where a provider sends its output while it runs. Called from the provider's thread.
public protocol ProviderSink: Sendable {
    /// True once the session was stopped; a provider checks it between steps and returns.
    var isCancelled: Bool { get }
    /// A piece of the result text (for rewrite, summary, compose, ...).
    func emitText(_ chunk: String)
    /// One suggested edit (for proofread).
    func emitEdit(_ edit: ProviderEdit)
    /// A line for the log.
    func log(_ message: String)
    /// Provider code that may go on executing after `run` returned (a plugin's own call of
    /// its run function, which the host stops waiting for after a cancel) begins; call the
    /// returned function once when it ended. Why: the coordinator is idle, and its destroy
    /// returns, only once no provider code of it still executes (or a grace passed).
    func beginWorkOutlivingRun() -> @Sendable () -> Void
    /// What became of each provider's part in this run's result (a combination of checkers
    /// says which answered, timed out, failed or did not take part). Call before returning
    /// from `run`; the last report counts. Why a separate report and not a log line: front
    /// ends must tell a partial result from a complete one (see `Completeness`).
    func reportCompleteness(_ completeness: Completeness)
}

extension ProviderSink {
    /// Sinks that do not track provider code (tests, the command line) need no record.
    public func beginWorkOutlivingRun() -> @Sendable () -> Void { {} }
    /// Sinks that do not show completeness (tests, a checker's own sink) ignore it.
    public func reportCompleteness(_ completeness: Completeness) {}
}

/// How a provider's run ended.
public enum ProviderOutcome: Sendable, Equatable {
    case finished
    case failed(String)
    /// It does not serve this request, with why (a language it has no dictionary for: a
    /// plugin's EMEND_E_UNSUPPORTED). Alone it is a failure like `failed`; in a combined
    /// proofread the checker is listed as skipped, not as a gap. Why apart from `failed`: a
    /// checker that has nothing to say about German is not one that broke.
    case declined(String)

    /// Why the run gave nothing (`failed` or `declined`), nil when it finished.
    public var failureReason: String? {
        switch self {
        case .finished: return nil
        case .failed(let why), .declined(let why): return why
        }
    }
}

/// Something that performs Writing Tools: a grammar checker, a model, a fixture for tests.
public protocol WritingProvider: Sendable {
    /// Reverse-DNS identifier, e.g. "org.emend.fixture".
    var id: String { get }
    /// The tools it serves.
    var tools: Set<WritingTool> { get }
    /// Runs one request on a runtime thread, emitting into `sink`; returns when done.
    func run(_ request: ProviderRequest, sink: ProviderSink) -> ProviderOutcome
    /// Whether the text it emits is Markdown (read back into lists, tables, emphasis) rather
    /// than plain text; such a provider reads `ProviderRequest.selectedMarkdown`.
    var writesMarkdown: Bool { get }
    /// Whether asking again with `ProviderRequest.guidance` can give another answer (a
    /// deterministic rule set cannot; a model can).
    var canRetry: Bool { get }
    /// Whether its results go through the fact guard (false for a provider that only hands
    /// back a result the user saw already, as the command's follow-up replay does).
    var needsFactCheck: Bool { get }
    /// Whether it answers by `ProviderRequest.deadline` by itself, with what it has then (a
    /// combination of checkers, which leaves the late ones out and says so). The coordinator
    /// then gives it `ProviderTimeout.graceMilliseconds` past the deadline before it fails
    /// the session, so that its answer is not lost to the machine's load.
    var answersByDeadline: Bool { get }
}

extension WritingProvider {
    /// Plain text unless a provider says otherwise.
    public var writesMarkdown: Bool { false }
    /// Providers may be asked again unless they say otherwise.
    public var canRetry: Bool { true }
    /// Results are checked unless a provider says otherwise.
    public var needsFactCheck: Bool { true }
    /// A provider is stopped at the deadline unless it says it answers by it itself.
    public var answersByDeadline: Bool { false }
}

/// A provider that adds something to another's runs (a language, a filter, a copy of its
/// text) and is otherwise that provider: its id, tools and traits are the base's. Why a
/// protocol: each wrapper forwarded the same five properties, and code that asks about the
/// provider behind the wrappers (its health) can unwrap any of them (`innermost`).
public protocol WrappingProvider: WritingProvider {
    var base: WritingProvider { get }
}

extension WrappingProvider {
    public var id: String { base.id }
    public var tools: Set<WritingTool> { base.tools }
    public var writesMarkdown: Bool { base.writesMarkdown }
    public var canRetry: Bool { base.canRetry }
    public var needsFactCheck: Bool { base.needsFactCheck }
    public var answersByDeadline: Bool { base.answersByDeadline }
}

extension WritingProvider {
    /// The provider behind every wrapper (itself when it wraps none).
    public var innermost: WritingProvider {
        var provider: WritingProvider = self
        while let wrapper = provider as? WrappingProvider { provider = wrapper.base }
        return provider
    }
}
