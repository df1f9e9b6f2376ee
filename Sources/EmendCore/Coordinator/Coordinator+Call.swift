/// Making delegate calls that await an answer.
extension Coordinator {
    /// Calls the delegate through `invoke` when the engine has `capability`, and handles the
    /// event `then` makes of the answer during a later dispatch (of `.unsupported` when it has
    /// not). Answers for a session that ended meanwhile are dropped; whether a stop asked for
    /// while the call was out takes over is the event's to say (`SessionState.on`). The
    /// continuation holds the coordinator weakly: a call the engine leaves unanswered must
    /// not keep it alive.
    func call(_ capability: DelegateCapabilities?, _ kind: PendingRequests.Kind, startsDispatch: Bool = false,
              invoke: @escaping (RequestID) -> Void, then: @escaping (DelegateAnswer) -> SessionEvent) {
        let generation = session?.generation ?? 0
        // Once a session ended, only the calls of its ending go on; earlier ones are moot.
        let madeWhileEnded = session?.state.isEnded == true
        let guarded: (DelegateAnswer) -> Void = { [weak self] answer in
            guard let self, let session = self.session, session.generation == generation,
                  !session.state.isEnded || madeWhileEnded else { return }
            session.awaited = nil
            self.handle(then(answer))
        }
        if let capability, !delegate.capabilities.contains(capability) {
            session?.awaited = (0, kind)
            queue.post { guarded(.unsupported) }
            return
        }
        // A result presented waits for a person, who reads it as long as they like: only
        // the engine's own answers (machine work) count against the completion timeout.
        let deadline = kind.waitsForAPerson ? nil : MonotonicClock.nowMilliseconds() + options.completionTimeoutMilliseconds
        let id = pending.add(kind: kind, generation: generation, deadline: deadline, continuation: guarded)
        session?.awaited = (id, kind)
        // Callbacks run only during dispatch, never inside the engine's call that caused them.
        // A request withdrawn before its turn (a stop) never reaches the engine.
        let work: WorkQueue.Work = { [pending] in if pending.isAwaiting(id) { invoke(id) } }
        // A call whose answer costs milliseconds (`startsDispatch`: a replace of megabytes) goes
        // first in a dispatch: its answer runs in the same dispatch, whatever the budget says
        // (`WorkQueue.Item.Kind.answer`), so it must not come after a dispatch's worth of work.
        if startsDispatch { queue.postFresh(work) } else { queue.post(work) }
    }

    /// Tells the delegate the state is about to change, then changes it and handles `event`.
    func changeState(to newState: CoordinatorState, then event: SessionEvent) {
        guard newState != state else { return handle(event) }
        call(.willChangeState, .done, invoke: { [unowned self] in self.delegate.willChangeToState(self, newState, request: $0) },
             then: { .stateChangeAnswered($0, newState, then: event) })
    }

    /// The engine answered that the state becomes `newState`.
    func stateChangeAnswered(_ answer: DelegateAnswer, _ newState: CoordinatorState, then event: SessionEvent) {
        if case .failed(let error) = answer, newState != .inactive, let session, !session.state.isRestoring {
            // The engine cannot go where the session was heading: the session fails (and
            // puts back what it delivered). Going back to inactive cannot be refused.
            return fail(error)
        }
        // The engine was told: the state changes even if a stop came meanwhile, so that
        // the stop's own change back to inactive reaches the engine too.
        state = newState
        if let session, !answerMayProceed(session) { return }
        handle(event)
    }
}
