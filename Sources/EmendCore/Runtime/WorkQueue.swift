import Glibc
import CEmendSystem

/// Work posted from any thread and run on the engine's thread during dispatch.
///
/// `pollDescriptor` is an epoll instance holding an eventfd (work is pending) and a timerfd
/// (a deadline has come), so one readable descriptor tells an event loop to dispatch. The
/// eventfd is written only when the queue goes from empty to non-empty, and the timer is
/// re-armed only when a deadline comes sooner than the armed one.
final class WorkQueue: @unchecked Sendable {
    typealias Work = () -> Void

    /// One piece of work and whether a dispatch may stop before it.
    struct Item {
        /// `.answer`: the continuation of an engine's answer. The engine already changed its
        /// text when it answered a replace, so the runtime's copy must follow before dispatch
        /// returns (an engine edit reported right after would otherwise land on a stale copy).
        /// A dispatch never stops before one, whatever its budget.
        enum Kind { case work, answer }
        let kind: Kind
        let run: Work
    }

    private let lock = Lock()
    /// Pending work is `items[head...]`: taking from the front moves `head` instead of
    /// moving every item behind it (a provider may have queued hundreds of thousands).
    private var items: [Item] = []
    private var head = 0
    /// Set by `shutDown`: the coordinator is going away and posts are dropped.
    private var closed = false
    /// Provider code of this coordinator still executing (it wakes the descriptor as it ends).
    let activity = RunActivity()
    private let eventFD: Int32
    private let timerFD: Int32
    let pollDescriptor: Int32
    /// Engine thread only.
    private var armedDeadline: Int64?

    init() throws(EmendError) {
        eventFD = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        timerFD = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
        pollDescriptor = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard eventFD >= 0, timerFD >= 0, pollDescriptor >= 0 else {
            for fd in [eventFD, timerFD, pollDescriptor] where fd >= 0 { close(fd) }
            throw EmendError(.internal, "could not create the coordinator's descriptors (errno \(errno))")
        }
        for fd in [eventFD, timerFD] {
            var event = epoll_event()
            event.events = EPOLLIN.rawValue
            event.data.fd = fd
            epoll_ctl(pollDescriptor, EPOLL_CTL_ADD, fd, &event)
        }
        activity.wake = { [weak self] in self?.signal() }
    }

    deinit {
        close(pollDescriptor)
        close(eventFD)
        close(timerFD)
    }

    /// Adds work and makes the descriptor readable. Any thread.
    func post(_ work: @escaping Work) { post(.work, work) }

    /// Adds the continuation of an engine's answer (see `Item.Kind.answer`). Any thread.
    func postAnswer(_ work: @escaping Work) { post(.answer, work) }

    private func post(_ kind: Item.Kind, _ work: @escaping Work) {
        let wasEmpty = lock.withLock {
            if closed { return false }
            items.append(Item(kind: kind, run: work))
            return items.count - head == 1
        }
        if wasEmpty { signal() }
    }

    /// Makes the descriptor readable without adding work (something worth a look changed).
    func signal() {
        var one: UInt64 = 1
        _ = write(eventFD, &one, 8)
    }

    /// Drops pending work and every later post. Why: queued work holds closures that hold the
    /// coordinator; dropped, nothing keeps it past emend_coordinator_destroy. The descriptors
    /// stay open until deinit, so a late writer never writes to a reused descriptor number.
    func shutDown() {
        let dropped: [Item] = lock.withLock {
            closed = true
            defer { items.removeAll(); head = 0 }
            return Array(items[head...])
        }
        _ = dropped   // released here, outside the lock: their captures may run deinits
    }

    /// Takes up to `limit` items of pending work, oldest first. Engine thread. Why a limit:
    /// a dispatch runs only as much as its budget allows, and taking (then putting back)
    /// everything queued would cost the whole queue on every dispatch.
    func take(limit: Int) -> [Item] {
        lock.withLock {
            let end = min(items.count, head + limit)
            let taken = Array(items[head..<end])
            head = end
            if head == items.count {
                items.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 4096 && head * 2 >= items.count {
                items.removeFirst(head)
                head = 0
            }
            return taken
        }
    }

    /// Clears the readable flags; check `hasPendingWork` afterwards so no post is missed.
    func clearSignals() {
        var value: UInt64 = 0
        _ = read(eventFD, &value, 8)
        if let armed = armedDeadline, armed <= MonotonicClock.nowMilliseconds() {
            _ = read(timerFD, &value, 8)
            armedDeadline = nil
        }
    }

    /// Puts work taken but not run (a dispatch spent its budget) back before anything posted
    /// since, so the order of work never changes, and keeps the descriptor readable. Engine
    /// thread.
    func putBack(_ work: ArraySlice<Item>) {
        guard !work.isEmpty else { return }
        lock.withLock {
            if closed { return }
            if head >= work.count {
                head -= work.count
                items.replaceSubrange(head..<(head + work.count), with: work)
            } else {
                items.insert(contentsOf: work, at: head)
            }
        }
        signal()
    }

    var hasPendingWork: Bool { lock.withLock { items.count > head } }

    /// Makes the descriptor readable by `deadline` (monotonic ms). A later deadline keeps
    /// the armed one: the early wake-up finds nothing due and arms again.
    func armTimer(at deadline: Int64?) {
        guard let deadline else { return }
        if let armed = armedDeadline, armed <= deadline { return }
        var spec = itimerspec()
        let delay = max(1, deadline - MonotonicClock.nowMilliseconds())
        spec.it_value.tv_sec = Int(delay / 1000)
        spec.it_value.tv_nsec = Int((delay % 1000) * 1_000_000)
        timerfd_settime(timerFD, 0, &spec, nil)
        armedDeadline = deadline
    }

    /// Blocks until the descriptor is readable or `timeoutMilliseconds` pass (-1: forever).
    func wait(timeoutMilliseconds: Int32) {
        var pfd = pollfd(fd: pollDescriptor, events: Int16(POLLIN), revents: 0)
        _ = poll(&pfd, 1, timeoutMilliseconds)
    }
}
