/// Putting a provider's edits in order without holding the engine's thread.
extension Coordinator {
    /// Hands `edits` by start to `then`: at once when they came in order or reversed, else
    /// once a thread of its own sorted them (`then` is then a queue item). Why: sorting a
    /// million edits took hundreds of milliseconds; a provider may emit them in any order.
    /// The coordinator is not idle meanwhile: the thread counts as activity until its answer
    /// is queued.
    func inOrder(_ edits: ArrivedEdits, then: @escaping (OrderedEdits) -> Void) {
        if let ordered = edits.inOrder { return then(ordered) }
        runElsewhere("a provider's edits are sorted", returning: .queued, { edits.sorted() }, then: then)
    }
}
