import EmendCore

/// Everything the server's loop reacts to, from any thread: messages from the reader thread,
/// reports from the engine workers.
enum ServerEvent: Sendable {
    case message(RPCMessage)
    /// A frame that is not a valid message: answered with an error (id when known).
    case invalid(RequestIdentifier?, ResponseError)
    case inputEnded
    case engine(EngineReport)
}

/// A queue the loop sleeps on until an event arrives or its next deadline (debounce) passes.
final class EventQueue: @unchecked Sendable {
    private let monitor = Monitor()
    private var events: [ServerEvent] = []
    private var head = 0

    func post(_ event: ServerEvent) {
        monitor.withLock {
            events.append(event)
            monitor.broadcast()
        }
    }

    /// The next event, or nil once the monotonic clock reaches `deadline` (milliseconds).
    func next(until deadline: Int64?) -> ServerEvent? {
        monitor.lock()
        defer { monitor.unlock() }
        while head == events.count {
            let now = MonotonicClock.nowMilliseconds()
            if let deadline, now >= deadline { return nil }
            monitor.wait(until: deadline ?? now + 60_000)
        }
        let event = events[head]
        head += 1
        if head > 1024 && head * 2 > events.count {
            events.removeFirst(head)
            head = 0
        }
        return event
    }
}
