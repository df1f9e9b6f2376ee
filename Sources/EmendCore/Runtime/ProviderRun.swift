/// One provider run on a runtime thread. Its output goes to the coordinator's work queue;
/// once cancelled or finished, nothing more it emits reaches the session.
final class ProviderRun: ProviderSink, @unchecked Sendable {
    enum Event {
        case text(String)
        case edit(ProviderEdit)
        case finished(ProviderOutcome)
    }

    private let lock = Lock()
    private var cancelled = false
    private var done = false
    private let queue: WorkQueue
    private let deliver: (Event) -> Void
    private let logger: @Sendable (String) -> Void

    /// `deliver` runs on the engine's thread during dispatch.
    init(queue: WorkQueue, logger: @escaping @Sendable (String) -> Void, deliver: @escaping (Event) -> Void) {
        self.queue = queue
        self.logger = logger
        self.deliver = deliver
    }

    var isCancelled: Bool { lock.withLock { cancelled } }

    func cancel() { lock.withLock { cancelled = true } }

    func emitText(_ chunk: String) { post(.text(chunk)) }
    func emitEdit(_ edit: ProviderEdit) { post(.edit(edit)) }
    func log(_ message: String) { logger(message) }

    /// Runs `provider` on a new runtime thread.
    func start(_ provider: WritingProvider, _ request: ProviderRequest) throws(EmendError) {
        try RuntimeThread.start { [self] in
            let outcome = provider.run(request, sink: self)
            post(.finished(outcome))
        }
    }

    private func post(_ event: Event) {
        let accepted: Bool = lock.withLock {
            if done || cancelled { return false }
            if case .finished = event { done = true }
            return true
        }
        guard accepted else { return }
        queue.post { [deliver] in deliver(event) }
    }
}
