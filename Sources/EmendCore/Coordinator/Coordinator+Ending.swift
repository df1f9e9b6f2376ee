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
        if !session.awaitingAnswer {
            queue.post { [weak self] in self?.finishStop() }
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
            return endSession()
        }
        if let base = session.followUpBase, !session.cancelRequested {
            // A failed follow-up goes back to the result it refined; the session stays.
            session.followUpBase = nil
            session.phase = .delivering
            return transitionRestoring(to: base, kind: .cancel) { [weak self] in
                guard let self, let session = self.session, session.phase != .ended else { return }
                self.changeState(to: .interactiveResting) { session.phase = .resting }
            }
        }
        restoreOriginal(kind: .cancel) { [weak self] in self?.endSession() }
    }

    /// Reverts every delivered change, then runs `then`.
    func restoreOriginal(kind: ChangeKind, then: @escaping () -> Void) {
        guard let session else { return then() }
        session.phase = .stopping
        if session.tool == .proofread {
            let applied = session.suggestions.filter { $0.isApplied && $0.state != .invalid }
            let edits = applied.reversed().compactMap { suggestion -> PlannedEdit? in
                guard let range = suggestion.anchor.range, let context = session.working else { return nil }
                return PlannedEdit(anchor: context.anchor(range), replacement: suggestion.original) { _ in
                    suggestion.isApplied = false
                    suggestion.state = .rejected
                }
            }
            return deliver(edits, kind: kind, onRefused: { [weak self] in self?.endSession() }, then: then)
        }
        // Compare texts, not shownVersion: a delivery cut short leaves part of a version in the text.
        transitionRestoring(to: 0, kind: kind, then: then)
    }

    func transitionRestoring(to target: Int, kind: ChangeKind, then: @escaping () -> Void) {
        guard let session, let context = session.working, let region = session.region?.range else { return then() }
        deliver(plannedEdits(to: target, in: context, region: region), kind: kind, onRefused: { [weak self] in self?.endSession() }) { [weak self] in
            self?.session?.shownVersion = target
            then()
        }
    }

    /// Ends the session, keeping the text as it is, and goes inactive.
    func endSession(_ error: EmendError? = nil) {
        guard let session, session.phase != .ended else { return }
        if let error { lastFailure = error }
        session.phase = .ended
        session.cancelProviders()
        providerDeadline = nil
        let finish = { [weak self] in
            guard let self, self.session === session else { return }
            self.session = nil
            self.state = .inactive
        }
        if state == .inactive { return finish() }
        changeState(to: .inactive, then: finish)
    }

    /// Done: keep the result and end the session.
    public func accept() throws(EmendError) {
        try checkThread()
        guard let session, session.phase == .resting else {
            throw EmendError(.state, "there is no finished result to accept")
        }
        for suggestion in session.suggestions where suggestion.state == .pending { suggestion.state = .accepted }
        endSession()
    }

    /// Puts the original back byte for byte and ends the session.
    public func revert() throws(EmendError) {
        try checkThread()
        guard let session, session.phase == .resting else {
            throw EmendError(.state, "there is no finished result to revert (use stop while a tool runs)")
        }
        restoreOriginal(kind: .revert) { [weak self] in self?.endSession() }
    }
}
