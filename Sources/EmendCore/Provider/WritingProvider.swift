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
}

/// How a provider's run ended.
public enum ProviderOutcome: Sendable, Equatable {
    case finished
    case failed(String)
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
}

extension WritingProvider {
    /// Plain text unless a provider says otherwise.
    public var writesMarkdown: Bool { false }
}
