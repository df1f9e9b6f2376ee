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
        /// Edits in the order emitted (a batch of them: see `pendingEdits`).
        case edits([ProviderEdit])
        /// What became of each provider's part (a combination's report), before `finished`.
        case completeness(Completeness)
        case finished(ProviderOutcome)
    }

    /// Edits emitted and not yet handed to the engine's thread. Why not a queue item each:
    /// there they are only gathered until the run finishes, and a post per edit woke the
    /// engine's thread once per edit (an eventfd write and a dispatch each: a fifth of a
    /// dense proofread's provider time). They go over as one event before any other event
    /// of the run, and every `editBatch` edits.
    private var pendingEdits: [ProviderEdit] = []
    static let editBatch = 4096

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
            pendingEdits = []
            defer { deliver = nil }
            return (activityIDs, deliver)
        }
        activity.cancel(ids)
        _ = dropped   // released outside the lock
    }

    func emitText(_ chunk: String) {
        if NULByte.isIn(chunk) { return refuse(NULByte.refusal("the result's text")) }
        post(.text(chunk))
    }
    func emitEdit(_ edit: ProviderEdit) {
        if NULByte.isIn(edit.replacement) {
            return refuse(NULByte.refusal("the replacement of the edit at \(edit.range.lowerBound)..<\(edit.range.upperBound)"))
        }
        let full = lock.withLock { () -> Bool in
            if done || cancelled { return false }
            pendingEdits.append(edit)
            return pendingEdits.count >= Self.editBatch
        }
        if full { post(nil) }
    }
    func log(_ message: String) { logger(message) }

    /// Output no engine may receive: the run is over for the session, failed with `reason`
    /// (nothing the provider emits afterwards is taken; what it emitted before goes nowhere,
    /// since a failed run delivers nothing).
    private func refuse(_ reason: String) {
        post(.finished(.failed(reason)))
    }

    func reportCompleteness(_ completeness: Completeness) { post(.completeness(completeness)) }

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

    /// Hands the pending edits over, then `event` (nil: the edits alone).
    private func post(_ event: Event?) {
        let (target, edits) = lock.withLock { () -> (((Event) -> Void)?, [ProviderEdit]) in
            if done || cancelled { return (nil, []) }
            if case .finished = event { done = true }
            defer { pendingEdits = [] }
            return (deliver, pendingEdits)
        }
        guard let target, let queue else { return }
        if !edits.isEmpty { queue.post { target(.edits(edits)) } }
        if let event { queue.post { target(event) } }
    }
}
