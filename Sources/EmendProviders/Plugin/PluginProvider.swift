import EmendCore
import CEmend

/// A WritingProvider backed by a plugin shared object.
///
/// Lazy: the library is loaded and the instance created on the first run, so a warm start
/// never loads plugins it does not use. When loading or create fails, every run fails with
/// that reason. Runs happen on the caller's (runtime) thread, which waits for the plugin's
/// finish while watching the sink for cancellation.
public final class PluginProvider: WritingProvider, @unchecked Sendable {
    public let record: ProviderRecord
    public var id: String { record.id }
    public var tools: Set<WritingTool> { record.tools }
    /// EMEND_OUTPUT_MARKDOWN in the descriptor's outputs.
    public var writesMarkdown: Bool { record.outputs & UInt32(EMEND_OUTPUT_MARKDOWN) != 0 }

    private let settings: [(key: String, value: String)]
    private let logger: @Sendable (String) -> Void
    private let monitor = Monitor()
    private var instance: Result<PluginInstance, EmendError>?
    /// How long a cancelled run may go on before the run stops waiting for it.
    private let cancelGrace: Int64

    /// `settings` are the keys of the provider's table in the user's configuration; `logger`
    /// receives the plugin's log lines and refusals outside a run.
    public convenience init(record: ProviderRecord, settings: [(key: String, value: String)],
                            logger: @escaping @Sendable (String) -> Void = { _ in }) {
        self.init(record: record, settings: settings, logger: logger, cancelGrace: PluginInstance.cancelGraceMilliseconds)
    }

    /// A provider whose cancelled runs get `cancelGrace` milliseconds (a provider host waits
    /// without end: libemend kills the host instead).
    init(record: ProviderRecord, settings: [(key: String, value: String)],
         logger: @escaping @Sendable (String) -> Void, cancelGrace: Int64) {
        self.cancelGrace = cancelGrace
        self.record = record
        self.settings = settings
        self.logger = logger
    }

    public func run(_ request: ProviderRequest, sink: ProviderSink) -> ProviderOutcome {
        guard tools.contains(request.tool) else { return .failed("\(id): does not serve \(request.tool.name)") }
        switch instanceOrFailure() {
        case .success(let instance): return instance.perform(request, sink: sink)
        case .failure(let error): return .failed(error.message)
        }
    }

    /// Whether the plugin has been loaded and its instance created (or failed to be).
    public var isLoaded: Bool { monitor.withLock { instance != nil } }

    /// Whether the plugin may be asked again (its descriptor's EMEND_PROVIDER_NO_RETRY; known
    /// once it is loaded, which it is by the time a result of it is checked).
    public var canRetry: Bool {
        monitor.withLock {
            if case .success(let loaded) = instance { return !loaded.library.refusesRetry }
            return true
        }
    }

    /// Loads the plugin and creates its instance now (a provider host does it before its
    /// first run, so a failure or a crash in create is told apart from one in run).
    func prepare() -> EmendError? {
        if case .failure(let error) = instanceOrFailure() { return error }
        return nil
    }

    private func instanceOrFailure() -> Result<PluginInstance, EmendError> {
        monitor.withLock {
            if let instance { return instance }
            let made = Result { () throws(EmendError) -> PluginInstance in
                let library = try PluginLibrary.load(path: record.path)
                guard library.record.id == record.id else {
                    throw EmendError(.provider, "\(record.path): the plugin now says it is \"\(library.record.id)\", "
                                     + "not \"\(record.id)\" (the file changed since it was scanned)")
                }
                return try PluginInstance.create(library: library, settings: settings, logger: logger, cancelGrace: cancelGrace)
            }
            if case .failure(let error) = made { logger(error.message) }
            instance = made
            return made
        }
    }
}
