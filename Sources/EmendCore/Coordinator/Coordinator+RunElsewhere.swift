/// Work that would hold the engine's thread, done on a runtime thread instead.
extension Coordinator {
    /// How the value of work done elsewhere comes back to the engine's thread.
    enum Return {
        /// A queue item like any other (after what is queued already).
        case queued
        /// A queue item that begins a dispatch of its own (`WorkQueue.postFresh`): the
        /// continuation reads something large (a result, a plan's edits), so it does not share
        /// a dispatch with work queued before it.
        case fresh
    }

    /// Runs `work` on a runtime thread and hands its value to `then` on the engine's thread,
    /// as a queue item. Why one helper: every site (sorting a provider's edits, analysing a
    /// result, planning a version's edits, writing a request's Markdown) must keep the same
    /// three promises, and each had spelled them out:
    /// - the coordinator is not idle meanwhile: the thread counts as activity until its
    ///   answer is queued;
    /// - the thread holds the queue weakly: a coordinator destroyed meanwhile is freed (its
    ///   descriptors closed) at once, and the answer goes nowhere;
    /// - the thread never holds `then` (and the session in it) last: see EngineThreadHandoff;
    /// - nor the value once it is queued: the engine's thread takes it whole, unshared.
    /// Whether `then` may still act (a stop, a revert, another run came meanwhile) is for
    /// `then` to check: it runs whenever the coordinator still exists.
    /// When no thread can be had, `work` runs here, at once, as before it had one (`what`
    /// names it in the log).
    func runElsewhere<Value>(_ what: String, returning: Return = .fresh, _ work: @escaping () -> Value,
                             then: @escaping (Value) -> Void) {
        let activity = queue.activity
        let id = activity.begin(cancelled: false)
        weak let target = queue
        let handoff = EngineThreadHandoff(then)
        do {
            try RuntimeThread.start {
                // Held by a handoff the engine's thread takes it from, not by this thread: this
                // thread may still be running (descheduled on a busy machine) when the engine's
                // thread uses the value, and a reference held here made a plan's 16 MB texts
                // shared, so the ledger copied them to trim a change (7 ms of one dispatch).
                let made = EngineThreadHandoff(work())
                let answer: () -> Void = {
                    guard let value = made.take() else { return }
                    handoff.take()?(value)
                }
                switch returning {
                case .queued: target?.post(answer)
                case .fresh: target?.postFresh(answer)
                }
                activity.end(id)
            }
        } catch {
            activity.end(id)
            logger("\(what) on the engine's thread: \(error.message)")
            handoff.take()?(work())
        }
    }
}
