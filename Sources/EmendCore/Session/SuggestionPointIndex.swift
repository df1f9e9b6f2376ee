/// The bounding rectangles of a session's suggestions, sorted by their top edge, for hit
/// testing a point (emend_session_suggestion_at_point) without looking at every suggestion.
///
/// Why: a click is a getter, and its cost must not grow with the session (1,600 suggestions
/// were all tested on every click). A rectangle holds the point only if its top lies at most
/// the tallest rectangle's height above it, so a search by halving finds the band of tops
/// that can; on a page of text that band is a line or two, whatever the number of suggestions.
struct SuggestionPointIndex {
    private struct Entry {
        let rect: Rect
        let suggestion: Int
    }

    /// Every usable rectangle (finite, not empty), ascending by `rect.y`.
    private let entries: [Entry]
    /// The tallest rectangle's height: how far above a point a rectangle holding it can start.
    private let tallest: Double

    /// Indexes `rects` (each with the index of the suggestion it belongs to). Rectangles come
    /// from the engine in text order, which on a page is top to bottom as a rule: a look, not
    /// a sort, unless they are not.
    init(_ rects: [(rect: Rect, suggestion: Int)]) {
        var entries = rects.compactMap { item -> Entry? in
            let r = item.rect
            guard r.x.isFinite, r.y.isFinite, r.width.isFinite, r.height.isFinite, r.width > 0, r.height > 0 else { return nil }
            return Entry(rect: r, suggestion: item.suggestion)
        }
        if zip(entries, entries.dropFirst()).contains(where: { $0.rect.y > $1.rect.y }) {
            entries.sort { $0.rect.y < $1.rect.y }
        }
        self.entries = entries
        tallest = entries.reduce(0) { max($0, $1.rect.height) }
    }

    /// The lowest suggestion index among the rectangles holding (x, y) for which `accepts`
    /// says yes (a pending suggestion), or nil. Costs a search by halving plus the rectangles
    /// whose top lies within `tallest` above the point.
    func suggestion(atX x: Double, y: Double, accepts: (Int) -> Bool) -> Int? {
        guard x.isFinite, y.isFinite else { return nil }
        // The first entry whose top is above y - tallest no longer (rect.y > y - tallest).
        var low = 0, high = entries.count
        while low < high {
            let mid = (low + high) / 2
            if entries[mid].rect.y > y - tallest { high = mid } else { low = mid + 1 }
        }
        var found: Int?
        for entry in entries[low...] {
            if entry.rect.y > y { break }
            guard entry.rect.contains(x: x, y: y), found.map({ entry.suggestion < $0 }) ?? true, accepts(entry.suggestion) else { continue }
            found = entry.suggestion
        }
        return found
    }
}
