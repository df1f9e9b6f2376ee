/// How much of a long loop one queue item runs on the engine's thread.
///
/// Why: work too large for one dispatch (a million suggestions made, marked or looked
/// through) goes a slice per queue item, and a dispatch stops taking items once its budget
/// (3 ms) is spent, so it lasts that plus one item. A slice of a fixed count lasted as long as
/// its elements cost: 512 suggestions made (a rebase through the ledger and reads of the rope
/// each, about 10 µs) held the dispatches of delivering a million edits to 4.6–6.9 ms. A
/// slice bounded by time asks the clock every few elements and ends once about
/// `standardMicroseconds` are spent, whatever each element costs; a minimum count keeps every
/// item making progress.
///
/// Under a dispatch budget of items (tests that count dispatches) or none, a slice is a fixed
/// count instead, so those runs stay the same from one run to the next.
struct WorkSlice {
    /// What ends a slice.
    enum Bound: Equatable, Sendable {
        /// About this much time, read every `checkEvery` elements, never before `minimum` elements.
        case time(microseconds: Int64, minimum: Int)
        /// This many elements.
        case elements(Int)
    }

    /// The time a slice may take on the engine's thread: a dispatch is its budget plus at
    /// most one item, and must stay under 5 ms.
    static let standardMicroseconds: Int64 = 1_000
    /// Elements every time-bounded slice runs, whatever the clock says.
    static let minimumElements = 16

    /// The bound for a loop on `queue`: by time when its dispatches are by time, else
    /// `elements` per slice.
    static func bound(on queue: WorkQueue, elements: Int) -> Bound {
        queue.slicesByTime ? .time(microseconds: standardMicroseconds, minimum: minimumElements) : .elements(max(1, elements))
    }

    let bound: Bound
    /// Elements between two reads of the clock (a read costs about 20-50 ns).
    let checkEvery: Int
    private let start: Int64
    private(set) var taken = 0

    /// A slice that starts now.
    init(_ bound: Bound, checkEvery: Int = 8) {
        self.bound = bound
        self.checkEvery = max(1, checkEvery)
        if case .time = bound { start = MonotonicClock.nowMicroseconds() } else { start = 0 }
    }

    /// Whether the slice takes another element (counted as taken when it does).
    mutating func takesAnother() -> Bool {
        switch bound {
        case .elements(let count):
            guard taken < count else { return false }
        case .time(let limit, let minimum):
            if taken >= minimum, taken % checkEvery == 0, MonotonicClock.nowMicroseconds() - start >= limit { return false }
        }
        taken += 1
        return true
    }
}
