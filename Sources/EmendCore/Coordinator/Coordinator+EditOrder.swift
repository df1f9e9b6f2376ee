/// Putting a provider's edits in order without holding the engine's thread.
extension Coordinator {
    /// Hands `edits` by start to `then`: at once when they came in order or reversed, else
    /// once a thread of its own sorted them (`then` is then a queue item). Why: sorting a
    /// million edits took hundreds of milliseconds; a provider may emit them in any order.
    /// The coordinator is not idle meanwhile: the thread counts as activity until its answer
    /// is queued.
    func inOrder(_ edits: ArrivedEdits, then: @escaping (OrderedEdits) -> Void) {
        if let ordered = edits.inOrder { return then(ordered) }
        let activity = queue.activity
        let id = activity.begin(cancelled: false)
        // Held weakly, as the analysis of a result is: a coordinator destroyed meanwhile is
        // freed at once, and the answer goes nowhere.
        weak let target = queue
        // The thread never holds `then` (and the session in it) last: see EngineThreadHandoff.
        let handoff = EngineThreadHandoff(then)
        do {
            try RuntimeThread.start {
                let sorted = edits.sorted()
                target?.post { handoff.take()?(sorted) }
                activity.end(id)
            }
        } catch {
            activity.end(id)
            logger("a provider's edits are sorted on the engine's thread: \(error.message)")
            then(edits.sorted())
        }
    }
}
