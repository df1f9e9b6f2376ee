/// One provider run on a runtime thread. Its output goes to the coordinator's work queue;
/// once cancelled or finished, nothing more it emits reaches the session.
///
/// It holds the queue weakly and lets go of its delivery closure when cancelled: a run the
/// provider does not end (it ignores cancellation) must not keep the coordinator, whose
/// closures the delivery captures, or its descriptors alive. What the running provider
/// itself can reach (this object, the activity record) stays alive through its thread.
final class ProviderRun: ProviderSink, @unchecked Sendable {
    enum Event {
        case text(String)
        case edit(ProviderEdit)
        case finished(ProviderOutcome)
    }

    private let lock = Lock()
    private var cancelled = false
    private var done = false
    private weak var queue: WorkQueue?
    private let activity: RunActivity
    /// The activity records of this run: its thread, and work the provider said outlives run.
    private var activityIDs: [UInt64] = []
    private var deliver: ((Event) -> Void)?
    private let logger: @Sendable (String) -> Void

    /// `deliver` runs on the engine's thread during dispatch.
    init(queue: WorkQueue, logger: @escaping @Sendable (String) -> Void, deliver: @escaping (Event) -> Void) {
        self.queue = queue
        self.activity = queue.activity
        self.logger = logger
        self.deliver = deliver
    }

    var isCancelled: Bool { lock.withLock { cancelled } }

    func cancel() {
        let (ids, dropped) = lock.withLock { () -> ([UInt64], ((Event) -> Void)?) in
            cancelled = true
            defer { deliver = nil }
            return (activityIDs, deliver)
        }
        activity.cancel(ids)
        _ = dropped   // released outside the lock
    }

    func emitText(_ chunk: String) { post(.text(chunk)) }
    func emitEdit(_ edit: ProviderEdit) { post(.edit(edit)) }
    func log(_ message: String) { logger(message) }

    func beginWorkOutlivingRun() -> @Sendable () -> Void {
        let id = track()
        return { [self] in untrack(id) }
    }

    /// Runs `provider` on a new runtime thread.
    func start(_ provider: WritingProvider, _ request: ProviderRequest) throws(EmendError) {
        let id = track()
        do {
            try RuntimeThread.start { [self] in
                let outcome = provider.run(request, sink: self)
                post(.finished(outcome))
                untrack(id)
            }
        } catch {
            untrack(id)
            throw error
        }
    }

    private func track() -> UInt64 {
        lock.withLock {
            let id = activity.begin(cancelled: cancelled)
            activityIDs.append(id)
            return id
        }
    }

    private func untrack(_ id: UInt64) {
        lock.withLock { activityIDs.removeAll { $0 == id } }
        activity.end(id)
    }

    private func post(_ event: Event) {
        let target: ((Event) -> Void)? = lock.withLock {
            if done || cancelled { return nil }
            if case .finished = event { done = true }
            return deliver
        }
        guard let target, let queue else { return }
        queue.post { target(event) }
    }
}
