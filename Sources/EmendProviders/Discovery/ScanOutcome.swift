/// How one run of the scanner ended.
enum ScanOutcome: Equatable {
    /// Exit status 0; the text it printed.
    case finished(String)
    /// Exited with a non-zero status (e.g. the plugin called exit() while loading).
    case exited(Int32)
    /// Killed by a signal it raised (SIGSEGV, SIGABRT, ...).
    case crashed(signal: Int32)
    /// Still running at the time limit; killed.
    case timedOut(milliseconds: Int)
    /// The scanner could not be started at all.
    case notStarted(String)

    /// The reason a provider is broken, or nil when the scan finished with a report.
    var failure: String? {
        switch self {
        case .finished: return nil
        case .exited(let status): return "exits while loading (status \(status))"
        case .crashed(let signal): return "crashes while loading (signal \(signal))"
        case .timedOut(let ms): return "hangs while loading (killed after \(ms) ms)"
        case .notStarted(let why): return why
        }
    }

    /// Whether the verdict may be remembered until the file changes (not when the scanner
    /// itself could not run).
    var isCacheable: Bool {
        if case .notStarted = self { return false }
        return true
    }
}
