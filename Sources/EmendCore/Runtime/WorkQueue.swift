import Glibc
import CEmendSystem

/// Work posted from any thread and run on the engine's thread during dispatch.
///
/// `pollDescriptor` is an epoll instance holding an eventfd (work is pending) and a timerfd
/// (a deadline has come), so one readable descriptor tells an event loop to dispatch.
final class WorkQueue: @unchecked Sendable {
    typealias Work = () -> Void

    private let lock = Lock()
    private var items: [Work] = []
    private let eventFD: Int32
    private let timerFD: Int32
    let pollDescriptor: Int32

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
    }

    deinit {
        close(pollDescriptor)
        close(eventFD)
        close(timerFD)
    }

    /// Adds work and makes the descriptor readable. Any thread.
    func post(_ work: @escaping Work) {
        lock.withLock { items.append(work) }
        var one: UInt64 = 1
        _ = write(eventFD, &one, 8)
    }

    /// Takes all pending work and clears the readable flags. Engine thread.
    func drain() -> [Work] {
        var value: UInt64 = 0
        _ = read(eventFD, &value, 8)
        _ = read(timerFD, &value, 8)
        return lock.withLock {
            let taken = items
            items.removeAll(keepingCapacity: true)
            return taken
        }
    }

    var hasPendingWork: Bool { lock.withLock { !items.isEmpty } }

    /// Makes the descriptor readable at `deadline` (monotonic ms), or never for nil.
    func armTimer(at deadline: Int64?) {
        var spec = itimerspec()
        if let deadline {
            let delay = max(1, deadline - MonotonicClock.nowMilliseconds())
            spec.it_value.tv_sec = Int(delay / 1000)
            spec.it_value.tv_nsec = Int((delay % 1000) * 1_000_000)
        }
        timerfd_settime(timerFD, 0, &spec, nil)
    }

    /// Blocks until the descriptor is readable or `timeoutMilliseconds` pass (-1: forever).
    func wait(timeoutMilliseconds: Int32) {
        var pfd = pollfd(fd: pollDescriptor, events: Int16(POLLIN), revents: 0)
        _ = poll(&pfd, 1, timeoutMilliseconds)
    }
}
