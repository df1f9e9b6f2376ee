/// How sessions end: accepted, reverted, stopped, failed.
extension Coordinator {
    /// Stops the session: cancels the provider and puts back what was delivered. OK when
    /// there is no session. What a stop does in each state is `SessionState.stop(_:)`'s to say.
    public func stop() throws(EmendError) {
        try checkThread()
        guard let session else { return }
        switch session.state.stop(.engine) {
        case .ignore: return
        case .interrupt(let withdrawsQuestion): interrupt(session, withdrawsQuestion: withdrawsQuestion)
        }
    }

    /// Performs a stop's `interrupt` action: the providers are cancelled; a question the
    /// engine may hold open (contexts, a presented result, rectangles, a preview) is withdrawn
    /// when `withdrawsQuestion` (a late answer gets EMEND_E_STALE) and does not hold up the
    /// stop. Replaces are awaited: the engine may be applying one, and the runtime must know
    /// what it did; the awaited answer's continuation finishes the stop
    /// (`SessionState.answerArrives`). With nothing awaited, the restore is posted.
    func interrupt(_ session: Session, withdrawsQuestion: Bool) {
        session.cancelProviders()
        providerDeadline = nil
        if withdrawsQuestion, let awaited = session.awaited, awaited.request != 0, awaited.kind != .replace, awaited.kind != .done,
           pending.remove(awaited.request) {
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
    }

    /// A step of the session's own work is due (a provider's end, the analysis, a queued
    /// slice, a result put in): whether it goes on. When a stop was asked for meanwhile, the
    /// stop is finished instead (or is under way already) and this returns false.
    func workMayProceed(_ session: Session) -> Bool {
        perform(session.state.workResumes())
    }

    /// The engine answered a call of the session (or a delivery goes on to its next
    /// replace): whether the caller goes on; false when a stop takes over (finished here).
    func answerMayProceed(_ session: Session) -> Bool {
        perform(session.state.answerArrives(handlesStop: false))
    }

    private func perform(_ step: SessionState.Step) -> Bool {
        switch step {
        case .proceed: return true
        case .finishStop: finishStop(); return false
        case .halt: return false
        }
    }

    /// Puts the original back and ends the session (after a stop).
    func finishStop() {
        guard let session, !session.state.isRestoring, !session.state.isEnded else { return }
        restoreOriginal(kind: .cancel, then: .end(.stopped))
    }

    /// Ends the session with `error`, putting back what was delivered (`SessionState.fail`
    /// says how).
    func fail(_ error: EmendError) {
        guard let session else { return }
        let action = session.state.fail()
        if action == .ignore { return }
        lastFailure = error
        logger("session failed: \(error.message)")
        session.cancelProviders()
        providerDeadline = nil
        switch action {
        case .ignore:
            return
        case .endNow:
            // Failing while restoring: keep what is there; the text is original plus delivered edits.
            noteEndingFailure(error)
            endSession()
        case .backTo(let base):
            // A failed follow-up goes back to the result it refined; the session stays.
            finishOpenAnimation(then: .failedFollowUpAnimationFinished(backTo: base))
        case .restoreAndEnd:
            noteEndingFailure(error)
            restoreOriginal(kind: .cancel, then: .end(.failed))
        }
    }

    /// A failed follow-up's version is back in the text: the engine is told it rests, then it rests.
    func followUpWithdrawn() {
        guard let session, !session.state.isEnded else { return }
        changeState(to: .interactiveResting, then: .rests)
    }

    /// Puts the base back — the original plus the engine's own edits — by undoing each of
    /// Emend's net changes the ledger holds; then the session ends or goes on as `after` says
    /// (`resume`: the event `resumed` is handled). Byte for byte: no alignment, and protected
    /// text that came in with Emend's changes (an attachment the engine put in a replace it
    /// answered) goes out with them.
    func restoreOriginal(kind: ChangeKind, then after: SessionState.AfterRestore, resumed: SessionEvent? = nil) {
        restoreOriginal(SessionEvent.Restore(kind: kind, after: after, attempt: 1, resumed: resumed))
    }

    /// One pass of `restore` (see above): the open animation is finished first.
    private func restoreOriginal(_ restore: SessionEvent.Restore) {
        guard let session, session.beginRestoring(then: restore.after) else { return }
        finishOpenAnimation(then: .restoreAnimationFinished(restore))
    }

    /// The animation is finished: the delivered suggestions are marked not applied (a slice
    /// per queue item: a million suggestions), then the restoring replaces go out.
    func unapplySuggestions(_ restore: SessionEvent.Restore) {
        guard let session else { return }
        guard session.working != nil else { return restored(session, resumed: restore.resumed) }
        SlicedLoop.forEach(session.suggestions, on: queue, { suggestion in
            guard suggestion.isApplied else { return }
            suggestion.isApplied = false
            if suggestion.state == .pending { suggestion.state = .rejected }
        }, then: handling(.suggestionsUnapplied(session, restore)))
    }

    /// The suggestions of `session` are marked: Emend's changes go back out of the text.
    func deliverRestore(_ session: Session, _ restore: SessionEvent.Restore) {
        guard self.session === session, !session.state.isEnded else { return }
        guard let context = session.working else { return restored(session, resumed: restore.resumed) }
        deliverRestoring(in: context, styled: resolvedResultOptions.carriesStyling, kind: restore.kind,
                         onRefused: .restoreRefused, then: .restoreDelivered(restore))
    }

    /// The restoring replaces were delivered. The engine may have edited text one was planned
    /// for: what is left of Emend's changes is planned again (the ledger knows it exactly).
    func restoreDelivered(_ restore: SessionEvent.Restore) {
        guard let session else { return }
        if restore.attempt < 3, let context = session.working, !context.ledger.isEmpty {
            var again = restore
            again.attempt += 1
            return restoreOriginal(again)
        }
        session.shownVersion = 0
        restored(session, resumed: restore.resumed)
    }

    /// Emend's changes are out of the text: the session ends, or the work that waited goes on.
    private func restored(_ session: Session, resumed: SessionEvent?) {
        switch session.state.restoreFinished() {
        case .end: endSession()
        case .resume: if let resumed { handle(resumed) }
        case .halt: return
        }
    }

    /// Changes the region to `versions[target]` without ending the session (the original
    /// comes back byte for byte), then handles `event`. When the engine refuses a replace
    /// the session ends.
    func transitionRestoring(to target: Int, kind: ChangeKind, then event: SessionEvent) {
        guard target != 0 else { return restoreOriginalKeepingSession(kind: kind, then: event) }
        guard let session, session.working != nil, session.region?.range != nil else { return handle(event) }
        deliverVersion(target, kind: kind, onRefused: .restoreRefused, then: .versionRestored(target, then: event))
    }

    /// `versions[target]` is back in the text; `event` follows.
    func versionRestored(_ target: Int, then event: SessionEvent) {
        if let session {
            session.shownVersion = target
            // A planned replace the engine's typing withdrew leaves part of the version out.
            if let context = session.working { keepShownVersionTrue(session, context: context) }
        }
        handle(event)
    }

    /// Puts the base back without ending anything (a poor result goes back before it is
    /// presented; a failed follow-up of the original).
    private func restoreOriginalKeepingSession(kind: ChangeKind, then event: SessionEvent) {
        guard let session else { return handle(event) }
        restoreOriginal(kind: kind, then: .resume(followUpBase: session.state.followUpBase), resumed: event)
    }

    /// Ends the session, keeping the text as it is, and goes inactive.
    func endSession(_ error: EmendError? = nil) {
        guard let session, !session.state.isEnded else { return }
        if let error { lastFailure = error; noteEndingFailure(error) }
        session.cancelProviders()
        providerDeadline = nil
        if session.openAnimation != nil {
            // Every prepared animation is finished, however the session ends.
            return finishOpenAnimation(then: .endingAnimationFinished(error))
        }
        session.state.end()
        refusedMoves += session.refusedMoves
        if state == .inactive { return letGo(session) }
        changeState(to: .inactive, then: .inactiveAnnounced(session))
    }

    /// The engine knows the session is over: it is let go, and its end reported.
    func letGo(_ session: Session) {
        guard self.session === session else { return }
        // A million suggestions are freed over several dispatches, not in this one.
        session.releaseInSlices(on: queue)
        self.session = nil
        state = .inactive
        reportSessionEnded()
    }

    /// Done: keep the result and end the session.
    public func accept() throws(EmendError) {
        try checkThread()
        let session = try restingSession(stopping: "the session is stopping; its result is being taken back",
                                         noResult: "there is no finished result to accept")
        session.acceptPendingSuggestions()
        endSession()
    }

    /// Puts the original back byte for byte and ends the session.
    public func revert() throws(EmendError) {
        try checkThread()
        if let session, session.alignment.isInFlight, session.state.reviewStepAsked(hasResult: session.hasResult) == .stepInFlight {
            // The step in flight is being planned (VersionAlignment) and has sent nothing yet:
            // revert need not wait for it; the restore drops the plan.
            return restoreOriginal(kind: .revert, then: .end(.reverted))
        }
        _ = try restingSession(stopping: "the session is stopping; the original is being put back",
                               noResult: "there is no finished result to revert (use stop while a tool runs)")
        restoreOriginal(kind: .revert, then: .end(.reverted))
    }
}
