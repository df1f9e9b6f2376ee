import EmendText

/// Building a session's contexts (each text's rope and its indexes).
extension Coordinator {
    /// Makes the contexts of `descriptions`, ids from `firstID` on, the session's in the
    /// dispatch that takes the engine's answer (emend.h: the ids exist from then on, and the
    /// engine reports its edits on them), then handles `contextsBuilt`. Texts of at least
    /// `CoordinatorOptions.contextsBuiltElsewhereBytes` in all have their ropes built on a
    /// thread of their own: a 4 MB document's rope took tens of milliseconds of that dispatch.
    /// Their contexts are `building` meanwhile; they keep the engine's edits, which are replayed
    /// on the built ropes in `contextsBuilt`, the event that begins the work (nothing reads a
    /// text before it).
    ///
    /// Why not on a thread with the contexts left out until built (as once): the ids were
    /// missing for a few dispatches, the engine's edits meanwhile were refused (NOT_FOUND), and
    /// every later replace landed beside its words (`ContextBuildingTests`).
    func buildContexts(_ descriptions: [ContextDescription], firstID: UInt64, for session: Session,
                       provider: WritingProvider) {
        let total = descriptions.reduce(0) { $0 + $1.text.utf8Count }
        guard total >= options.contextsBuiltElsewhereBytes else {
            session.contexts = descriptions.enumerated().map { SessionContext(id: firstID + UInt64($0.offset), description: $0.element) }
            return handle(.contextsBuilt(session, provider: provider, built: []))
        }
        let contexts = descriptions.enumerated().map {
            SessionContext(id: firstID + UInt64($0.offset), buildingFrom: $0.element)
        }
        session.contexts = contexts
        // Only the engine's texts go to the thread (values; the strings are shared, not copied).
        let texts = descriptions.map(\.text)
        let activity = queue.activity
        let id = activity.begin(cancelled: false)
        weak let target = queue
        weak let coordinator = self
        // The thread never holds the session last: see EngineThreadHandoff.
        let handoff = EngineThreadHandoff((session, contexts))
        do {
            try RuntimeThread.start {
                // The offset counts first (a few milliseconds; the ropes take longer): the
                // engine's calls in UTF-16 or code points meanwhile use them (`TextBeingBuilt`).
                let counts = texts.map { ChunkCounts(of: $0.string) }
                if let target {
                    target.postFresh { coordinator?.countsMade(counts, firstID: firstID) }
                }
                let built = EngineThreadHandoff(texts.map { DocumentText($0) })
                if let target {
                    target.postFresh {
                        guard let built = built.take() else { return }
                        guard let (session, contexts) = handoff.take(), let coordinator else {
                            return SlicedRelease.freeElsewhere(built)
                        }
                        coordinator.contextsBuilt(contexts, consume built, session: session, provider: provider)
                    }
                }
                activity.end(id)
            }
        } catch {
            activity.end(id)
            logger("the contexts are built on the engine's thread: \(error.message)")
            _ = handoff.take()
            handle(.contextsBuilt(session, provider: provider, built: texts.map { DocumentText($0) }))
        }
    }

    /// The offset counts of the original texts, made elsewhere, are in: each context still
    /// being built takes them and replays into them the engine's edits recorded since (ids are
    /// never reused, so a later session's contexts cannot take them).
    private func countsMade(_ counts: [ChunkCounts], firstID: UInt64) {
        guard let session else { return }
        for (offset, made) in counts.enumerated() {
            guard let context = session.contexts.first(where: { $0.id == firstID + UInt64(offset) }),
                  case .building(let pending) = context.content else { continue }
            pending.take(countsOfOriginal: made)
        }
    }

    /// The ropes built elsewhere are in (unless the session ended meanwhile: a stop, another
    /// session): the event that begins the work takes them.
    private func contextsBuilt(_ contexts: [SessionContext], _ built: consuming [DocumentText], session: Session,
                               provider: WritingProvider) {
        // An ended session's contexts are the release's (or gone): what was built goes elsewhere.
        if self.session === session {
            handle(.contextsBuilt(session, provider: provider, built: copy built))
        }
        // A session stopped in the window does not take them: the ropes this made go
        // elsewhere too (freeing a 4 MB rope here is the cost building elsewhere saved).
        if self.session !== session || contexts.contains(where: { !$0.isBuilt }) {
            SlicedRelease.freeElsewhere((contexts, consume built))
        }
    }
}
