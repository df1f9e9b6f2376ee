/// Delegate calls awaiting the engine's answer. Answers may come from any thread.
final class PendingRequests: @unchecked Sendable {
    enum Kind: Equatable {
        case contexts, replace, rects, preview, presented, done
        /// A `requestsRects` naming `count` ranges (its answer gives as many lists).
        case rectBatch(count: Int)

        /// Whether a person answers it (a presented result: Replace, Copy, Dismiss) rather
        /// than the engine's code, so that no machine timeout applies.
        var waitsForAPerson: Bool { if case .presented = self { true } else { false } }
    }

    struct Entry {
        let kind: Kind
        let generation: UInt64
        /// When the answer is overdue; nil for a call a person answers (present_result): a
        /// person's pace is never a machine's delay, so it has no time limit.
        let deadline: Int64?
        let continuation: (DelegateAnswer) -> Void
    }

    private let lock = Lock()
    private var entries: [RequestID: Entry] = [:]

    func add(kind: Kind, generation: UInt64, deadline: Int64?, continuation: @escaping (DelegateAnswer) -> Void) -> RequestID {
        let id = RequestNumbering.next()
        return lock.withLock {
            entries[id] = Entry(kind: kind, generation: generation, deadline: deadline, continuation: continuation)
            return id
        }
    }

    /// Removes and returns the entry for `id` if `accepts` says the answer fits its kind.
    func take(_ id: RequestID, accepts: (Kind) -> Bool) -> Result<Entry, EmendError> {
        lock.withLock {
            guard let entry = entries[id] else {
                return .failure(EmendError(.stale, "request \(id) is not awaiting an answer (answered already, or its session ended)"))
            }
            guard accepts(entry.kind) else {
                if case .rectBatch(let count) = entry.kind {
                    return .failure(EmendError(.invalidArgument, "request \(id) names \(count) ranges: answer with emend_answer_rects_batch and one rect count per range"))
                }
                return .failure(EmendError(.invalidArgument, "request \(id) awaits a different kind of answer (\(entry.kind))"))
            }
            entries[id] = nil
            return .success(entry)
        }
    }

    /// Withdraws a request; false when it was answered already.
    func remove(_ id: RequestID) -> Bool {
        lock.withLock { entries.removeValue(forKey: id) != nil }
    }

    /// Whether `id` still awaits an answer.
    func isAwaiting(_ id: RequestID) -> Bool {
        lock.withLock { entries[id] != nil }
    }

    /// Removes and returns every entry whose deadline has passed.
    func takeExpired(now: Int64) -> [Entry] {
        lock.withLock {
            let expired = entries.filter { $0.value.deadline.map { $0 <= now } ?? false }
            for id in expired.keys { entries[id] = nil }
            return Array(expired.values)
        }
    }

    /// Removes and returns every entry (the coordinator is going away).
    func takeAll() -> [Entry] {
        lock.withLock {
            let all = Array(entries.values)
            entries.removeAll()
            return all
        }
    }

    var earliestDeadline: Int64? { lock.withLock { entries.values.compactMap(\.deadline).min() } }
    var isEmpty: Bool { lock.withLock { entries.isEmpty } }
}
