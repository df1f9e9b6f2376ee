/// The suggestions an engine edit is in, found by halving instead of by looking at each.
///
/// Why: `Coordinator.updateRange` looked at every suggestion of the session for every edit
/// the engine reported (a keystroke in a proofread of a million words read a million
/// anchors). The rule it applies is emend.h's (CHANGES, INVALID): an edit is in a
/// suggestion when it overlaps its text or inserts strictly inside it; for an INVALID one,
/// the same with its last place. For a range `r` and an edit of `e` (both half-open, either
/// may be empty) that rule is one comparison: `r.lowerBound < e.upperBound && r.upperBound >
/// e.lowerBound` (an insertion at an edge, or an empty range at an edit's edge, is beside it).
///
/// What makes halving possible: the suggestions of a session are made in text order and
/// never overlap, so by index their places (the anchor's range, or an INVALID one's last
/// place) have starts that never decrease and ends that never decrease. Every edit keeps
/// that: the text moves each end by a map that never reverses two positions, and an edit
/// that touches some of them joins each with the edit's new text, which keeps both orders
/// (the last places may overlap one another; they never pass one another). So the
/// suggestions an edit is in are the run that begins at the first whose place ends after
/// the edit's start, up to the first that starts at or after the edit's end.
struct TouchedSuggestions {
    /// Indices of the suggestions the edit is in, ascending.
    var indices: [Int] = []
    /// How many places the search read (what tests count: it must not grow with the session).
    var probes = 0

    /// Where a suggestion is for the rule: its anchor's range, or an INVALID one's last
    /// place; nil when it has none (such a one is never touched).
    static func place(of suggestion: Suggestion) -> Range<Int>? {
        suggestion.state == .invalid ? suggestion.lastPlace?.range : suggestion.anchor.range
    }

    /// emend.h's rule for a range without its edges (see above).
    static func isTouched(_ place: Range<Int>, by edited: Range<Int>) -> Bool {
        place.lowerBound < edited.upperBound && place.upperBound > edited.lowerBound
    }

    /// The suggestions of `suggestions` (all of one context, in text order) that an edit of
    /// `edited` is in.
    init(in suggestions: [Suggestion], edited: Range<Int>) {
        func read(_ index: Int) -> Range<Int>? {
            probes += 1
            return Self.place(of: suggestions[index])
        }
        // The first suggestion whose place ends after the edit's start. One without a place
        // (not expected: an edit of Emend's own erased it) is passed over.
        var low = 0, high = suggestions.count
        while low < high {
            let mid = (low + high) / 2
            var probe = mid
            var found: Range<Int>?
            while probe < high, found == nil {
                found = read(probe)
                if found == nil { probe += 1 }
            }
            guard let place = found else {
                high = mid
                continue
            }
            if place.upperBound > edited.lowerBound { high = mid } else { low = probe + 1 }
        }
        // From there every place ends after the edit's start: the edit is in those that start
        // before its end.
        var index = low
        while index < suggestions.count {
            defer { index += 1 }
            guard let place = read(index) else { continue }
            if place.lowerBound >= edited.upperBound { break }
            if Self.isTouched(place, by: edited) { indices.append(index) }
        }
    }

    /// The same by looking at every suggestion (what `updateRange` did): debug builds check
    /// the search against it on every edit, so the tests and the property test hold the two
    /// to the same answer.
    static func byLookingAtEach(_ suggestions: [Suggestion], contextID: UInt64, edited: Range<Int>) -> [Int] {
        suggestions.indices.filter { index in
            let suggestion = suggestions[index]
            guard suggestion.contextID == contextID else { return false }
            if suggestion.state != .invalid { return suggestion.anchor.isTouched(by: edited) }
            return suggestion.lastPlace?.isTouched(by: edited) ?? false
        }
    }
}

extension Session {
    /// Takes `indices` (ascending) out of `placedSuggestions`: only the part of the list
    /// between the first and the last of them is looked through (found by halving), not the
    /// whole list for each edit.
    func removePlaced(_ indices: [Int]) {
        guard let first = indices.first, let last = indices.last else { return }
        func firstPosition(notBelow value: Int) -> Int {
            var low = 0, high = placedSuggestions.count
            while low < high {
                let mid = (low + high) / 2
                if placedSuggestions[mid] < value { low = mid + 1 } else { high = mid }
            }
            return low
        }
        let window = firstPosition(notBelow: first)..<firstPosition(notBelow: last + 1)
        var gone = indices[...]
        let kept = placedSuggestions[window].filter { index in
            while let next = gone.first, next < index { gone = gone.dropFirst() }
            return gone.first != index
        }
        placedSuggestions.replaceSubrange(window, with: kept)
    }
}
