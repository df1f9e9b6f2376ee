import EmendCore

/// A `ProofreadingFilter` built on a thread of its own while the checker runs.
///
/// Why: the filter reads the whole request once (shielded spans, recurring words), which
/// for a 10 MB document is about a third of a second; the checker needs it only when it
/// emits its first suggestion. Built side by side, the two overlap on a second core. Small
/// requests (an editor's paragraph) build it at once: a thread costs more than they do.
final class FilterInBackground: @unchecked Sendable {
    /// Requests at least this long build their filter on a thread.
    static let threshold = 256 * 1024

    private let monitor = Monitor()
    private var built: ProofreadingFilter?

    init(_ make: @escaping @Sendable () -> ProofreadingFilter, textBytes: Int) {
        guard textBytes >= Self.threshold else {
            built = make()
            return
        }
        do {
            try RuntimeThread.start { [self] in
                let filter = make()
                monitor.withLock {
                    built = filter
                    monitor.broadcast()
                }
            }
        } catch {
            built = make()   // no thread to be had: here, as before
        }
    }

    /// The filter, once built (waits for the thread on first use).
    var filter: ProofreadingFilter {
        monitor.withLock {
            while built == nil { monitor.wait(milliseconds: 1000) }
            return built!
        }
    }
}
