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
        /// `.fresh`: work that costs milliseconds (it reads a text of a megabyte and more); it
        /// starts a dispatch of its own, so it never lands at the end of a spent one.
        enum Kind { case work, answer, fresh }
        let kind: Kind
        let run: Work
    }

    private let lock = Lock()
    /// Pending work is `draining[head...]`, then `incoming`. Posts append to `incoming`; once
    /// `draining` is used up the two arrays swap. Why two arrays of optionals: a provider may
    /// queue hundreds of thousands of items, and taking them must cost only the items taken.
    /// A taken slot is emptied (the item moves out), so no dispatch ever pays for moving or
    /// releasing items run in earlier ones; a single array compacted from time to time did,
    /// several milliseconds at once for a 300,000-piece stream.
    private var draining: [Item?] = []
    private var head = 0
    private var incoming: [Item?] = []
    private var pendingCount: Int { draining.count - head + incoming.count }
    /// Set by `shutDown`: the coordinator is going away and posts are dropped.
    private var closed = false
    /// The engine's thread is inside dispatch, which runs until the queue is empty or its
    /// budget is spent: a post then needs no wake-up (a write to the eventfd, which a dense
    /// proofread paid once per delegate answer); `endDispatch` makes the descriptor readable
    /// if work is left.
    private var dispatching = false
    /// Provider code of this coordinator still executing (it wakes the descriptor as it ends).
    let activity = RunActivity()
    private let eventFD: Int32
    private let timerFD: Int32
    let pollDescriptor: Int32
    /// Engine thread only.
    private var armedDeadline: Int64?

    /// Whether the loops run a slice per item (`WorkSlice`) end their slices by time: true
    /// when dispatches are bounded by time, false when by a count of items (runs that must
    /// be the same each time) or not at all.
    let slicesByTime: Bool

    init(slicesByTime: Bool = true) throws(EmendError) {
        self.slicesByTime = slicesByTime
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

    /// Adds work that runs first in a dispatch (see `Item.Kind.fresh`). Any thread.
    func postFresh(_ work: @escaping Work) { post(.fresh, work) }

    private func post(_ kind: Item.Kind, _ work: @escaping Work) {
        let wakes = lock.withLock {
            if closed { return false }
            incoming.append(Item(kind: kind, run: work))
            return pendingCount == 1 && !dispatching
        }
        if wakes { signal() }
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
        let dropped: ([Item?], [Item?]) = lock.withLock {
            closed = true
            defer { draining = []; incoming = []; head = 0 }
            return (draining, incoming)
        }
        _ = dropped   // released here, outside the lock: their captures may run deinits
    }

    /// Takes up to `limit` items of pending work, oldest first. Engine thread. Why a limit:
    /// a dispatch runs only as much as its budget allows, and taking (then putting back)
    /// everything queued would cost the whole queue on every dispatch. It may return fewer
    /// (the rest of `draining`), and returns none only when nothing is pending.
    func take(limit: Int) -> [Item] {
        lock.withLock {
            if head == draining.count {
                // Used up: its slots are all empty, so clearing it releases nothing.
                draining.removeAll(keepingCapacity: true)
                head = 0
                swap(&draining, &incoming)
            }
            let end = min(draining.count, head + limit)
            var taken: [Item] = []
            taken.reserveCapacity(end - head)
            for index in head..<end {
                var item: Item? = nil
                swap(&item, &draining[index])
                if let item { taken.append(item) }
            }
            head = end
            return taken
        }
    }

    /// A dispatch starts: posts from now on need no wake-up. Engine thread.
    func beginDispatch() { lock.withLock { dispatching = true } }

    /// A dispatch ends: the descriptor is made readable when work is still pending (posted
    /// during the dispatch, after its last look at the queue). Engine thread.
    func endDispatch() {
        let pending = lock.withLock {
            dispatching = false
            return pendingCount > 0 && !closed
        }
        if pending { signal() }
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
                // The usual case: the slots the work was taken from are right before `head`.
                head -= work.count
                for (offset, item) in work.enumerated() { draining[head + offset] = item }
            } else {
                draining.replaceSubrange(..<head, with: work.map { Optional($0) })
                head = 0
            }
        }
        signal()
    }

    var hasPendingWork: Bool { lock.withLock { pendingCount > 0 } }

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
