/// Telling the engine how a session ended.
///
/// Why: an engine that drives the coordinator from its event loop calls `dispatch`, which
/// returns normally when a session fails; only `runUntilIdle` threw the failure. The outcome
/// is kept per session (not in `lastFailure`, which `runUntilIdle` clears on entry) and
/// reported once, when the state became inactive.
extension Coordinator {
    /// Remembers the failure that ends the current session. The first one is the cause: a
    /// later one (a replace refused while putting things back) does not replace it.
    /// A failed session has no result, so nothing about it is complete or partial: its
    /// completeness becomes unknown here, before the engine is told the state is inactive.
    /// Why here and not in the combination: a combined proofread that failed reported what
    /// each checker did (each one's part, which the per-language runs of language detection
    /// need), and front ends showed "partial result" beside the failure, which already says
    /// why each checker gave nothing.
    func noteEndingFailure(_ error: EmendError) {
        guard endingFailure == nil else { return }
        endingFailure = error
        completeness = nil
    }

    /// Records the outcome of the session that just ended and tells the delegate, during
    /// dispatch (queued when the end came outside it). Called by `endSession` once the
    /// state is inactive and the session is gone.
    func reportSessionEnded() {
        let outcome: SessionOutcome = endingFailure.map { .failed($0) } ?? .finished
        endingFailure = nil
        lastSessionOutcome = outcome
        guard delegate.capabilities.contains(.sessionEnded) else { return }
        let message = endMessage(outcome)
        let notify = { [weak self] in
            guard let self else { return }
            self.delegate.sessionEnded(self, status: outcome.status, message: message)
        }
        if inDispatch { notify() } else { queue.post(notify) }
    }

    /// The session_ended message: the failure's, else what the result lacks or who did not
    /// take part ("" for a whole result), so that an engine that only listens still learns
    /// that a proofread was partial.
    func endMessage(_ outcome: SessionOutcome) -> String {
        if case .failed = outcome { return outcome.message }
        return completeness?.message ?? ""
    }
}
