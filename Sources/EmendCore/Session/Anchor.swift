import EmendText

/// A range of a context's current text that follows every change made to that text.
final class Anchor {
    /// Current UTF-8 byte range; nil once an edit removed or overlapped it.
    var range: Range<Int>?
    /// Whether insertions at the edges belong to the range (a session's working region).
    let includesEdges: Bool

    init(_ range: Range<Int>, includesEdges: Bool = false) {
        self.range = range
        self.includesEdges = includesEdges
    }

    /// Follows the replacement of `edited` by text `delta` bytes longer.
    func follow(_ edited: Range<Int>, delta: Int) {
        guard let r = range else { return }
        if includesEdges && edited.lowerBound >= r.lowerBound && edited.upperBound <= r.upperBound {
            range = r.lowerBound..<(r.upperBound + delta)
        } else {
            range = RangeShift.map(r, through: edited, delta: delta)
        }
    }

    /// Whether an edit of `edited` changes text inside this range (edges excluded for
    /// insertions unless the range includes its edges).
    func isTouched(by edited: Range<Int>) -> Bool {
        guard let r = range else { return false }
        if edited.isEmpty {
            return includesEdges ? (r.lowerBound...r.upperBound).contains(edited.lowerBound)
                                 : (r.lowerBound < edited.lowerBound && edited.lowerBound < r.upperBound)
        }
        return edited.overlaps(r) || (r.isEmpty && edited.contains(r.lowerBound) && edited.lowerBound < r.lowerBound)
    }
}
