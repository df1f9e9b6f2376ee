import Glibc

/// The provider code of one coordinator that may still be executing: each provider run's
/// thread while it is inside `WritingProvider.run`, and work a provider says outlives its
/// run (a plugin's own call of its run function, which the host may stop waiting for).
///
/// Why: "idle" and "destroyed" must mean that no provider code of the coordinator still
/// runs, or a process that exits right after can crash in a plugin's static destructors
/// while a plugin thread is inside it. Once cancelled, work has `cancelGraceMilliseconds`
/// to end; past that it is abandoned: no longer waited for (logged), and what it can reach
/// is kept alive by its own references, never freed under it.
public final class RunActivity: @unchecked Sendable {
    /// How long cancelled provider work may take to end before it is abandoned (emend.h,
    /// emend_coordinator_destroy).
    public static let cancelGraceMilliseconds: Int64 = 5000

    private let monitor = Monitor()
    /// Work executing, by id: nil while it runs uncancelled, else when it counts as abandoned.
    private var active: [UInt64: Int64?] = [:]
    private var nextID: UInt64 = 1
    /// Makes the coordinator's descriptor readable when work ends (run_until_idle wakes).
    var wake: @Sendable () -> Void = {}

    init() {}

    private func locked<T>(_ body: () -> T) -> T { monitor.withLock(body) }

    /// Work begins; `cancelled` work gets its grace at once. Any thread.
    func begin(cancelled: Bool) -> UInt64 {
        locked {
            let id = nextID
            nextID += 1
            let deadline: Int64? = cancelled ? MonotonicClock.nowMilliseconds() + Self.cancelGraceMilliseconds : nil
            active.updateValue(deadline, forKey: id)
            return id
        }
    }

    /// Work ended (also after it was abandoned). Any thread.
    func end(_ id: UInt64) {
        locked {
            active.removeValue(forKey: id)
            monitor.broadcast()
        }
        wake()
    }

    /// The work was asked to stop: its grace starts now (unless it started earlier).
    func cancel(_ ids: [UInt64]) {
        let deadline = MonotonicClock.nowMilliseconds() + Self.cancelGraceMilliseconds
        locked {
            for id in ids {
                if let current = active[id], current == nil { active.updateValue(deadline, forKey: id) }
            }
        }
    }

    /// Every piece of work was asked to stop (the coordinator is going away).
    func cancelAll() { cancel(locked { Array(active.keys) }) }

    /// Whether no work executes, apart from work abandoned past its grace.
    public var isQuiet: Bool {
        let now = MonotonicClock.nowMilliseconds()
        return locked { active.values.allSatisfy { deadline in deadline.map { $0 <= now } ?? false } }
    }

    /// When the next cancelled piece of work will be abandoned, for a wake-up then.
    public var nextAbandonment: Int64? {
        let now = MonotonicClock.nowMilliseconds()
        return locked { active.values.compactMap { $0 }.filter { $0 > now }.min() }
    }

    /// Waits until quiet. Returns how many pieces of work were abandoned (still executing).
    func waitUntilQuiet() -> Int {
        locked {
            while true {
                let now = MonotonicClock.nowMilliseconds()
                let waiting = active.values.compactMap { deadline -> Int64? in
                    guard let deadline else { return Int64.max }
                    return deadline > now ? deadline : nil
                }
                guard let until = waiting.min() else { return active.count }
                monitor.wait(until: until == Int64.max ? now + 1000 : until)
            }
        }
    }
}
