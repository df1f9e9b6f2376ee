/// The one place every continuation of a session comes back to.
extension Coordinator {
    /// Handles `event`: the session's state says first whether its step goes on
    /// (`SessionState.on`: a step of the session's own work, or an engine's answer, finishes a
    /// stop asked for meanwhile or does nothing while Emend's changes go back for good), then
    /// the step is performed. Steps whose decision needs more than the event (a result, a
    /// refused replace, a rest) ask the state for it in turn (`SessionState.resultReady`,
    /// `replaceRefused`, `comesToRest`…).
    func handle(_ event: SessionEvent) {
        if let session {
            switch session.state.on(event) {
            case .proceed: break
            case .finishStop: return finishStop()
            case .halt: return
            }
        }
        perform(event)
    }

    /// Performs the step that follows `event` (see `SessionEvent`).
    private func perform(_ event: SessionEvent) {
        switch event {
        case .stateChangeAnswered(let answer, let newState, let next): stateChangeAnswered(answer, newState, then: next)
        case .previewAnswered(let answer, let planned, let next): previewAnswered(answer, planned, then: next)
        case .animationPrepared(let next): animationPrepared(then: next)
        case .started(let scope, let provider): requestContexts(scope, provider: provider)
        case .contextsAnswered(let answer, let provider): contextsAnswered(answer, provider: provider)
        case .contextsBuilt(let session, let provider, let built): contextsBuilt(session, provider: provider, built: built)
        case .followUpStarted(let session, let provider, let previous): anticipateFollowUp(session, provider: provider, previousResult: previous)
        case .anticipated(let provider, let previous): runProvider(provider, previousResult: previous)
        case .streamedPartDelivered(let run): streamedPartDone(run)
        case .streamedPartRefused(let run): streamedPartRefused(run)
        case .providerAnimationFinished: handleResult()
        case .factsWithdrawn(let run, let provider, let guidance): askAgain(run, provider: provider, guidance: guidance)
        case .poorResultWithdrawn: changeState(to: .noninteractive, then: .presentationAnnounced)
        case .presentationAnnounced: present()
        case .presentAnswered(let answer): presentAnswered(answer)
        case .presentedResultApplied: endSession()
        case .suggestionsDelivered: afterDelivery()
        case .versionDelivered(let target): versionDelivered(target)
        case .regionSelected(let session): requestResultUnderlines(session)
        case .underlinesKnown: announceResting()
        case .rests: settle()
        case .replaceAnswered(let delivery, let sent, let answer): replaceAnswered(delivery, sent, answer)
        case .suggestionSliceDelivered(let rest, let next): deliverSuggestions(rest, then: next)
        case .restoringSliceDelivered(let below, let slices): deliverRestoring(below: below, slices)
        case .rectsAnswered(let request, let suggestions, let answer): rectsAnswered(request, suggestions, answer)
        case .suggestionSet(let history, let refused): suggestionSet(history, refused: refused)
        case .reviewVersionShown(let target): reviewVersionShown(target)
        case .reviewStepRefused(let back): reviewStepRefused(back)
        case .reviewStepTakenBack(let back, let refusedAgain): reviewStepTakenBack(back, refusedAgain: refusedAgain)
        case .failedFollowUpAnimationFinished(let base): transitionRestoring(to: base, kind: .cancel, then: .followUpWithdrawn)
        case .followUpWithdrawn: followUpWithdrawn()
        case .restoreAnimationFinished(let restore): unapplySuggestions(restore)
        case .suggestionsUnapplied(let session, let restore): deliverRestore(session, restore)
        case .restoreDelivered(let restore): restoreDelivered(restore)
        case .restoreRefused: endSession()
        case .versionRestored(let target, let next): versionRestored(target, then: next)
        case .endingAnimationFinished(let error): endSession(error)
        case .inactiveAnnounced(let session): letGo(session)
        }
    }

    /// A continuation that hands `event` to `handle` in a later step. It holds the
    /// coordinator weakly: a call the engine leaves unanswered must not keep it alive.
    func handling(_ event: SessionEvent) -> () -> Void {
        { [weak self] in self?.handle(event) }
    }

    /// The session rests (`SessionState.comesToRest`). An engine edit that came after the
    /// last replace of a step but before the rest (the text already whole, the session not
    /// yet reviewable) was not checked against the version shown (`updateRange` does so only
    /// while it rests); the version shown is made true now, before undo, redo or show
    /// original can read it.
    func settle() {
        guard let session else { return }
        switch session.comesToRest() {
        case .refused, .rest: return
        case .restCheckingShownVersion:
            if let context = session.working { keepShownVersionTrue(session, context: context) }
        }
    }
}
