import EmendText

/// A range of a context's current text that follows every change made to that text. The
/// range lives in its context's slot table, so following an edit touches no reference counts.
final class Anchor {
    private weak var context: SessionContext?
    let slot: Int
    /// Whether insertions at the edges belong to the range (a session's working region).
    let includesEdges: Bool
    private(set) var isReleased = false

    init(context: SessionContext, slot: Int, includesEdges: Bool) {
        self.context = context
        self.slot = slot
        self.includesEdges = includesEdges
    }

    deinit { if !isReleased { context?.freeSlot(slot) } }

    /// Current UTF-8 byte range; nil once an edit removed it or the anchor was released.
    var range: Range<Int>? {
        get { isReleased ? nil : context?.slotRange(slot) }
        set { if !isReleased { context?.setSlotRange(slot, newValue) } }
    }

    /// Stops following edits; the range reads nil from now on.
    func release() {
        guard !isReleased else { return }
        isReleased = true
        context?.freeSlot(slot)
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

    /// `r` after `edited` was replaced by text `delta` bytes longer.
    static func follow(_ r: Range<Int>, includesEdges: Bool, edited: Range<Int>, delta: Int) -> Range<Int>? {
        if includesEdges && edited.lowerBound >= r.lowerBound && edited.upperBound <= r.upperBound {
            return r.lowerBound..<(r.upperBound + delta)
        }
        if let moved = RangeShift.map(r, through: edited, delta: delta) { return moved }
        // A range with its edges (a session's region) never vanishes: an edit over all of it
        // leaves the new text as the region, so the session still has somewhere to be.
        return includesEdges ? edited.lowerBound..<(edited.lowerBound + edited.count + delta) : nil
    }
}
