/// Building a session's contexts (each text's rope and its indexes) off the engine's thread
/// when the texts are large.
extension Coordinator {
    /// Texts of at least this many bytes in all are built on a thread of their own: a 4 MB
    /// document's rope (its chunks, marks and position indexes, a fresh copy of every byte)
    /// took tens of milliseconds of the dispatch that read the engine's answer. Smaller ones
    /// are built where they are, as before (well under a millisecond).
    static let contextsBuiltElsewhere = 1 << 19

    /// Makes the contexts of `descriptions`, ids from `firstID` on, and hands them to `then`
    /// on the engine's thread: at once for small texts, else in a later dispatch (a queue
    /// item). The coordinator is not idle meanwhile: the session is starting, and the thread
    /// counts as activity until its answer is queued.
    func buildContexts(_ descriptions: [ContextDescription], firstID: UInt64, then: @escaping ([SessionContext]) -> Void) {
        func build() -> [SessionContext] {
            descriptions.enumerated().map { SessionContext(id: firstID + UInt64($0.offset), description: $0.element) }
        }
        guard descriptions.reduce(0, { $0 + $1.text.utf8Count }) >= Self.contextsBuiltElsewhere else { return then(build()) }
        let activity = queue.activity
        let id = activity.begin(cancelled: false)
        weak let target = queue
        // The thread never holds `then` (and the session in it) last: see EngineThreadHandoff.
        let handoff = EngineThreadHandoff(then)
        do {
            try RuntimeThread.start {
                let contexts = EngineThreadHandoff(build())
                target?.postFresh { if let contexts = contexts.take() { handoff.take()?(contexts) } }
                activity.end(id)
            }
        } catch {
            activity.end(id)
            logger("the contexts are built on the engine's thread: \(error.message)")
            then(build())
        }
    }
}
