/// How much work one `dispatch()` does before it gives the engine's thread back.
///
/// Why: dispatch runs on the engine's thread, usually its UI loop. A provider that streams
/// thousands of pieces, or a proofread with thousands of suggestions answered at once, must
/// not freeze it: dispatch stops once its budget is spent, leaves the rest queued and keeps
/// the poll descriptor readable, so the engine's loop calls it again after drawing a frame.
/// At least one item runs per dispatch, so every dispatch makes progress.
public enum DispatchBudget: Sendable, Equatable {
    /// Stop taking work once this much time has passed (the default: a few milliseconds).
    case time(microseconds: Int64)
    /// Stop after this many items of work (deterministic: for tests that count dispatches).
    case items(Int)
    /// Run until nothing is left (the behaviour before budgets; an engine with no UI thread).
    case unlimited

    /// Leaves the longest dispatch below 5 ms when each item of work stays well below 1 ms.
    public static let standard = DispatchBudget.time(microseconds: 3_000)

    /// Whether dispatches end by time (then the slices of long loops do too, see `WorkSlice`).
    var isTimed: Bool {
        if case .time = self { return true }
        return false
    }

    /// Tracks one dispatch against the budget.
    struct Meter {
        let budget: DispatchBudget
        let start: Int64

        init(_ budget: DispatchBudget) {
            self.budget = budget
            if case .time = budget { start = MonotonicClock.nowMicroseconds() } else { start = 0 }
        }

        /// Whether a `.fresh` item waits for the next dispatch, `processed` items in: under a
        /// time budget, unless it would be the first.
        func defersFresh(after processed: Int) -> Bool {
            guard processed > 0, case .time = budget else { return false }
            return true
        }

        /// Whether the dispatch should stop taking work, `processed` items in.
        func isSpent(after processed: Int) -> Bool {
            guard processed > 0 else { return false }
            switch budget {
            case .time(let limit): return MonotonicClock.nowMicroseconds() - start >= limit
            case .items(let limit): return processed >= limit
            case .unlimited: return false
            }
        }
    }
}
