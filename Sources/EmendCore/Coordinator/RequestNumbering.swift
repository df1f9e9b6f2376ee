/// Request ids unique in the process, not per coordinator. Why: an answer may arrive for a
/// coordinator that was destroyed, and a new coordinator can get the same address; with ids
/// from one counter such an answer never matches a request of the new one (it is STALE).
enum RequestNumbering {
    private static let lock = Lock()
    nonisolated(unsafe) private static var last: RequestID = 0

    static func next() -> RequestID {
        lock.withLock {
            last += 1
            return last
        }
    }
}
