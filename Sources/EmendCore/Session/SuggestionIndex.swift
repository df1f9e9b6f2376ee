/// The session's suggestions ordered by their range in the text the providers read, for
/// merging a later provider's batch into them.
///
/// Why: merging looked, for every edit of the batch, at every suggestion (which ones it
/// overlaps, and the nearest one before it): a second checker's 10,000 flags on a document
/// with 10,000 suggestions cost 10^8 steps on the engine's thread. Here each is a search.
struct SuggestionIndex {
    /// By the start of `originalRange`, and the furthest end among each prefix of them (so
    /// the first that can reach a point is found by bisection, whatever their lengths).
    private let byStart: [Suggestion]
    private let reach: [Int]
    /// By the end of `originalRange`, and those ends.
    private let byEnd: [Suggestion]
    private let ends: [Int]

    init(_ suggestions: [Suggestion]) {
        byStart = suggestions.sorted { $0.originalRange.lowerBound < $1.originalRange.lowerBound }
        var furthest = Int.min
        reach = byStart.map { suggestion in
            furthest = max(furthest, suggestion.originalRange.upperBound)
            return furthest
        }
        byEnd = suggestions.sorted { $0.originalRange.upperBound < $1.originalRange.upperBound }
        ends = byEnd.map(\.originalRange.upperBound)
    }

    /// The suggestions that are not invalid and whose original range `conflicts` with `range`
    /// (a conflicting one starts at or before `range` ends and ends at or after it starts).
    func overlapping(_ range: Range<Int>, conflicts: (Range<Int>, Range<Int>) -> Bool) -> [Suggestion] {
        var index = Self.firstIndex(in: reach) { $0 >= range.lowerBound }
        var found: [Suggestion] = []
        while index < byStart.count, byStart[index].originalRange.lowerBound <= range.upperBound {
            let suggestion = byStart[index]
            if suggestion.state != .invalid && conflicts(suggestion.originalRange, range) { found.append(suggestion) }
            index += 1
        }
        return found
    }

    /// Of the suggestions still in the text that ended at or before `offset`, the one that
    /// ended last.
    func nearest(endingAtOrBefore offset: Int) -> Suggestion? {
        var index = Self.firstIndex(in: ends) { $0 > offset } - 1
        while index >= 0 {
            if byEnd[index].anchor.range != nil { return byEnd[index] }
            index -= 1
        }
        return nil
    }

    /// The first index of `values` (ascending) where `isAfter` holds; `values.count` if none.
    private static func firstIndex(in values: [Int], where isAfter: (Int) -> Bool) -> Int {
        var low = 0, high = values.count
        while low < high {
            let middle = (low + high) / 2
            if isAfter(values[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
