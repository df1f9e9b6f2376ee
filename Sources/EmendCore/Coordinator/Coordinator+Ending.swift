/// How sessions end: accepted, reverted, stopped, failed.
extension Coordinator {
    /// Stops the session: cancels the provider and puts back what was delivered. OK when
    /// there is no session.
    public func stop() throws(EmendError) {
        try checkThread()
        guard let session, session.phase != .ended, !session.cancelRequested else { return }
        session.cancelRequested = true
        if session.hasRunningProviders {
            session.cancelProviders()
            providerDeadline = nil
        }
        if let awaited = session.awaited, awaited.request != 0, awaited.kind != .replace, awaited.kind != .done,
           pending.remove(awaited.request) {
            // A question the engine may hold open (contexts, a presented result, rectangles,
            // a preview) does not hold up a stop: it is withdrawn (a late answer gets
            // EMEND_E_STALE) and the stop goes on now. Replaces are awaited: the engine may be
            // applying one, and the runtime must know what it did.
            session.awaited = nil
        }
        if !session.awaitingAnswer {
            // The restore belongs to this session: should it end some other way first, a
            // later session is not stopped by it.
            queue.post { [weak self, weak session] in
                guard let self, let session, self.session === session else { return }
                self.finishStop()
            }
        }
        // Otherwise the awaited answer's continuation (a streamed replace, say) sees
        // cancelRequested and finishes the stop once the engine answered.
    }

    /// Puts the original back and ends the session (after a stop).
    func finishStop() {
        guard let session, session.phase != .stopping, session.phase != .ended else { return }
        restoreOriginal(kind: .cancel) { [weak self] in self?.endSession() }
    }

    /// Ends the session with `error`, putting back what was delivered.
    func fail(_ error: EmendError) {
        guard let session, session.phase != .ended else { return }
        lastFailure = error
        logger("session failed: \(error.message)")
        session.cancelProviders()
        providerDeadline = nil
        if session.phase == .stopping {
            // Failing while restoring: keep what is there; the text is original plus delivered edits.
            noteEndingFailure(error)
            return endSession()
        }
        if let base = session.followUpBase, !session.cancelRequested {
            // A failed follow-up goes back to the result it refined; the session stays.
            session.followUpBase = nil
            session.enter(.delivering)
            return finishOpenAnimation { [weak self] in self?.transitionRestoring(to: base, kind: .cancel) { [weak self] in
                guard let self, let session = self.session, session.phase != .ended else { return }
                self.changeState(to: .interactiveResting) { session.enter(.resting) }
            } }
        }
        noteEndingFailure(error)
        restoreOriginal(kind: .cancel) { [weak self] in self?.endSession() }
    }

    /// Puts the base back — the original plus the engine's own edits — by undoing each of
    /// Emend's net changes the ledger holds, then runs `then`. Byte for byte: no alignment,
    /// and protected text that came in with Emend's changes (an attachment the engine put in
    /// a replace it answered) goes out with them.
    func restoreOriginal(kind: ChangeKind, attempt: Int = 1, then: @escaping () -> Void) {
        guard let session else { return then() }
        session.enter(.stopping)
        finishOpenAnimation { [weak self] in
            guard let self, let session = self.session, session.working != nil else { return then() }
            // A slice per queue item: a million suggestions.
            SlicedLoop.forEach(session.suggestions, on: self.queue, { suggestion in
                guard suggestion.isApplied else { return }
                suggestion.isApplied = false
                if suggestion.state == .pending { suggestion.state = .rejected }
            }) { [weak self] in
                guard let self, let session = self.session, let context = session.working else { return then() }
                self.deliverRestoring(in: context, styled: self.resolvedResultOptions.carriesStyling, kind: kind,
                                      onRefused: { [weak self] in self?.endSession() }) { [weak self] in
                    guard let self, let session = self.session else { return then() }
                    // The engine may have edited text a restoring replace was planned for: what is
                    // left of Emend's changes is planned again (the ledger knows it exactly).
                    if attempt < 3, let context = session.working, !context.ledger.isEmpty {
                        return self.restoreOriginal(kind: kind, attempt: attempt + 1, then: then)
                    }
                    session.shownVersion = 0
                    then()
                }
            }
        }
    }

    func transitionRestoring(to target: Int, kind: ChangeKind, then: @escaping () -> Void) {
        guard target != 0 else { return restoreOriginalKeepingSession(kind: kind, then: then) }
        guard let session, let context = session.working, let region = session.region?.range else { return then() }
        deliver(plannedEdits(to: target, in: context, region: region), kind: kind, onRefused: { [weak self] in self?.endSession() }) { [weak self] in
            if let self, let session = self.session {
                session.shownVersion = target
                // A planned replace the engine's typing withdrew leaves part of the version out.
                if let context = session.working { self.keepShownVersionTrue(session, context: context) }
            }
            then()
        }
    }

    /// Puts the base back without ending anything (a poor result goes back before it is
    /// presented; a failed follow-up of the original).
    private func restoreOriginalKeepingSession(kind: ChangeKind, then: @escaping () -> Void) {
        guard let session else { return then() }
        let phase = session.phase
        restoreOriginal(kind: kind) { [weak self] in
            if let session = self?.session, session.phase == .stopping { session.enter(phase) }
            then()
        }
    }

    /// Ends the session, keeping the text as it is, and goes inactive.
    func endSession(_ error: EmendError? = nil) {
        guard let session, session.phase != .ended else { return }
        if let error { lastFailure = error; noteEndingFailure(error) }
        session.cancelProviders()
        providerDeadline = nil
        if session.openAnimation != nil {
            // Every prepared animation is finished, however the session ends.
            return finishOpenAnimation { [weak self] in self?.endSession(error) }
        }
        session.enter(.ended)
        refusedMoves += session.refusedMoves
        let finish = { [weak self] in
            guard let self, self.session === session else { return }
            // A million suggestions are freed over several dispatches, not in this one.
            session.releaseInSlices(on: self.queue)
            self.session = nil
            self.state = .inactive
            self.reportSessionEnded()
        }
        if state == .inactive { return finish() }
        changeState(to: .inactive, then: finish)
    }

    /// Done: keep the result and end the session.
    public func accept() throws(EmendError) {
        try checkThread()
        try refuseWhileAStepIsInFlight()
        guard let session, session.isReviewable else {
            throw EmendError(.state, session?.cancelRequested == true ? "the session is stopping; its result is being taken back"
                                                                     : "there is no finished result to accept")
        }
        for suggestion in session.suggestions where suggestion.state == .pending { suggestion.state = .accepted }
        endSession()
    }

    /// Puts the original back byte for byte and ends the session.
    public func revert() throws(EmendError) {
        try checkThread()
        try refuseWhileAStepIsInFlight()
        guard let session, session.isReviewable else {
            throw EmendError(.state, session?.cancelRequested == true ? "the session is stopping; the original is being put back"
                                                                     : "there is no finished result to revert (use stop while a tool runs)")
        }
        restoreOriginal(kind: .revert) { [weak self] in self?.endSession() }
    }
}
