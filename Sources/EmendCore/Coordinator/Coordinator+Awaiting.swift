/// Whether a delegate call still awaits its answer, for engines that answer late.
extension Coordinator {
    /// True exactly when `answer(request, …)` would take an answer rather than refuse it as
    /// stale. Any thread. Why: an engine answering after a dialog or from a worker can tell
    /// whether acting on its answer still matters before it edits its document.
    public func isAwaitingAnswer(_ request: RequestID) -> Bool {
        pending.isAwaiting(request)
    }
}
