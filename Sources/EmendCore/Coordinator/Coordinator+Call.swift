/// Making delegate calls that await an answer.
extension Coordinator {
    /// Calls the delegate through `invoke` when the engine has `capability`, and runs `then`
    /// with the answer during a later dispatch (with `.unsupported` when it has not).
    /// Answers for a session that ended meanwhile are dropped. When the session was stopped
    /// while the call was out, the stop goes on instead of `then` (unless `handlesStop`; see
    /// `SessionState.answerArrives`).
    func call(_ capability: DelegateCapabilities?, _ kind: PendingRequests.Kind, handlesStop: Bool = false,
              invoke: @escaping (RequestID) -> Void, then: @escaping (DelegateAnswer) -> Void) {
        let generation = session?.generation ?? 0
        // Once a session ended, only the calls of its ending go on; earlier ones are moot.
        let madeWhileEnded = session?.state.isEnded == true
        let guarded: (DelegateAnswer) -> Void = { [weak self] answer in
            guard let self, let session = self.session, session.generation == generation,
                  !session.state.isEnded || madeWhileEnded else { return }
            session.awaited = nil
            guard self.answerMayProceed(session, handlesStop: handlesStop) else { return }
            then(answer)
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
        queue.post { [pending] in if pending.isAwaiting(id) { invoke(id) } }
    }

    /// Tells the delegate the state is about to change, then changes it and runs `then`.
    func changeState(to newState: CoordinatorState, then: @escaping () -> Void) {
        guard newState != state else { return then() }
        call(.willChangeState, .done, handlesStop: true, invoke: { [unowned self] in self.delegate.willChangeToState(self, newState, request: $0) }) { [weak self] answer in
            guard let self else { return }
            if case .failed(let error) = answer, newState != .inactive, let session = self.session, !session.state.isRestoring {
                // The engine cannot go where the session was heading: the session fails (and
                // puts back what it delivered). Going back to inactive cannot be refused.
                return self.fail(error)
            }
            // The engine was told: the state changes even if a stop came meanwhile, so that
            // the stop's own change back to inactive reaches the engine too.
            self.state = newState
            if let session = self.session, !self.answerMayProceed(session) { return }
            then()
        }
    }
}
