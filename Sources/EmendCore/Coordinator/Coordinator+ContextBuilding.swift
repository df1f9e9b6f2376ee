/// Building a session's contexts (each text's rope and its indexes).
extension Coordinator {
    /// Makes the contexts of `descriptions`, ids from `firstID` on, and hands them to `then`,
    /// in the dispatch that takes the engine's answer.
    ///
    /// Why not on a thread of its own, although a 4 MB document's rope takes tens of
    /// milliseconds of that dispatch: emend.h promises that the context ids exist from the
    /// dispatch that takes the contexts answer, and engines report their edits with
    /// `emend_coordinator_update_range` from then on. Contexts built elsewhere were missing
    /// for a few dispatches: the edits made meanwhile were refused (NOT_FOUND), and the
    /// contexts then held the text as it was before them, so every later replace landed
    /// beside its words (`ContextBuildingTests`). Building elsewhere needs the engine's edits
    /// of that window kept and replayed on the built rope first.
    func buildContexts(_ descriptions: [ContextDescription], firstID: UInt64, then: ([SessionContext]) -> Void) {
        then(descriptions.enumerated().map { SessionContext(id: firstID + UInt64($0.offset), description: $0.element) })
    }
}
