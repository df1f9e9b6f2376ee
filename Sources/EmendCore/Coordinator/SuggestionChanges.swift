/// Which suggestions changed since the engine was last told, coalesced into one span of
/// indices per dispatch (the `suggestionsChanged` notification).
///
/// Why: without it a GUI re-reads every suggestion after every dispatch to find the few
/// that changed (a 23 KB proofread cost 20 s that way). A span rather than a list: the
/// changes of one dispatch are neighbours as a rule (a slice delivered, one suggestion
/// accepted), and the notification costs nothing to build whatever their number.
struct SuggestionChanges {
    /// The indices that changed and are not reported yet.
    private(set) var pending: Range<Int>?
    /// How many suggestions the engine was last told there are.
    private(set) var reportedTotal = 0

    /// Notes that suggestions `indices` changed (added, removed, a new state, a new range of
    /// their own, new underline rectangles).
    mutating func note(_ indices: Range<Int>) {
        guard !indices.isEmpty else { return }
        pending = pending.map { min($0.lowerBound, indices.lowerBound)..<max($0.upperBound, indices.upperBound) } ?? indices
    }

    /// What to report now that there are `total` suggestions (indices added or removed count
    /// as changed), or nil when nothing changed; the changes count as reported.
    mutating func take(total: Int) -> Range<Int>? {
        if total != reportedTotal { note(min(total, reportedTotal)..<max(total, reportedTotal)) }
        reportedTotal = total
        defer { pending = nil }
        return pending
    }

    var isEmpty: Bool { pending == nil }
}
