import Glibc
import EmendCore
import CEmend

/// Where the lines a plugin logs without a run (`host->log(NULL, ...)`) go: to the context of
/// the host call the plugin is inside on this thread (entry, create, run, cancel, destroy),
/// else to the logger of the newest instance, since nothing says which plugin wrote them.
final class PluginLogContext: @unchecked Sendable {
    /// Put before each line: the plugin's id or path.
    let prefix: String
    let logger: @Sendable (String) -> Void
    private let problemLock = Monitor()
    private var problem: String?

    /// The last warning or error logged in this context (create failures quote it).
    var lastProblem: String? { problemLock.withLock { problem } }

    init(prefix: String, logger: @escaping @Sendable (String) -> Void) {
        self.prefix = prefix
        self.logger = logger
    }

    func log(_ level: emend_log_level, _ message: String) {
        if level.rawValue >= EMEND_LOG_WARNING.rawValue { problemLock.withLock { problem = message } }
        logger("\(prefix): \(PluginLogContext.name(of: level)): \(message)")
    }

    static func name(of level: emend_log_level) -> String {
        switch level {
        case EMEND_LOG_DEBUG: return "debug"
        case EMEND_LOG_INFO: return "info"
        case EMEND_LOG_WARNING: return "warning"
        case EMEND_LOG_ERROR: return "error"
        default: return "level \(level.rawValue)"
        }
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()
    private static let monitor = Monitor()
    nonisolated(unsafe) private static var newest: PluginLogContext?

    /// Runs `body` (a call into a plugin) with `context` as this thread's log context.
    static func with<T>(_ context: PluginLogContext, _ body: () -> T) -> T {
        let previous = pthread_getspecific(key)
        pthread_setspecific(key, Unmanaged.passUnretained(context).toOpaque())
        defer { pthread_setspecific(key, previous) }
        return withExtendedLifetime(context) { body() }
    }

    /// Makes `context` the destination of lines from threads that are in no host call.
    static func adoptAsFallback(_ context: PluginLogContext) {
        monitor.withLock { newest = context }
    }

    /// The context for a line logged without a run on this thread.
    static var current: PluginLogContext? {
        if let raw = pthread_getspecific(key) { return Unmanaged<PluginLogContext>.fromOpaque(raw).takeUnretainedValue() }
        return monitor.withLock { newest }
    }
}
