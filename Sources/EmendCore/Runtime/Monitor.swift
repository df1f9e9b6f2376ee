import Glibc

/// A mutex with a condition variable on the monotonic clock: the lock that guards a plugin
/// instance's runs or a coordinator's executing provider work, and the signal that one ended.
public final class Monitor: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    public init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    public func lock() { pthread_mutex_lock(mutex) }
    public func unlock() { pthread_mutex_unlock(mutex) }

    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }

    /// With the lock held: sleeps until `broadcast` or until `milliseconds` passed.
    public func wait(milliseconds: Int) {
        wait(until: MonotonicClock.nowMilliseconds() + Int64(milliseconds))
    }

    /// With the lock held: sleeps until `broadcast` or until the monotonic clock reads
    /// `deadline` (milliseconds).
    public func wait(until deadline: Int64) {
        var time = timespec()
        time.tv_sec = Int(deadline / 1000)
        time.tv_nsec = Int((deadline % 1000) * 1_000_000)
        pthread_cond_timedwait(condition, mutex, &time)
    }

    /// Wakes every waiter.
    public func broadcast() { pthread_cond_broadcast(condition) }
}
