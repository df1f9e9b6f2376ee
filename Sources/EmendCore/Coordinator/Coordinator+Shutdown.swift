/// The coordinator going away (emend_coordinator_destroy).
extension Coordinator {
    /// Cancels every provider run, drops the answers still owed and the work still queued,
    /// and waits until no provider code of this coordinator executes, at most
    /// `RunActivity.cancelGraceMilliseconds` after its cancel. Returns how many pieces of
    /// provider work were abandoned still executing (they keep alive what they reach).
    ///
    /// Why: the session, the owed answers and the queued work hold closures that hold the
    /// coordinator (a delivery waiting for a replace's answer, say); dropping them breaks
    /// those cycles, so releasing the coordinator frees it and closes its descriptors. No
    /// delegate call is made: the document stays as it is. Owner thread, outside callbacks.
    @discardableResult
    public func shutdown() -> Int {
        let activity = queue.activity
        session?.run.dispose()
        activity.cancelAll()
        providerDeadline = nil
        let dropped = pending.takeAll()
        queue.shutDown()
        session = nil
        state = .inactive
        _ = dropped
        let abandoned = activity.waitUntilQuiet()
        if abandoned > 0 {
            logger("\(abandoned) provider run(s) still executing \(RunActivity.cancelGraceMilliseconds) ms after "
                   + "their cancel were abandoned; what they use is kept alive")
        }
        return abandoned
    }
}
