import EmendCore

/// One change of a rewrite the language server applied, offered for review: a diagnostic
/// with the quick fixes "Keep this change" and "Undo this change" (see LanguageServer+Review).
struct ReviewItem: Equatable {
    let id: Int
    /// Where the change's text is now (bytes of the document).
    var range: Range<Int>
    let original: String
    let replacement: String
}

/// A rewrite's edit sent to the client and not seen back yet: its changes become review
/// items once the document holds `result` at `start` (the client applied the edit).
struct PendingReview {
    let start: Int
    let result: [UInt8]
    let changes: [ReviewedChange]
}

extension OpenDocument {
    /// Follows an edit of `range` that became `length` bytes: items after it move; an item the
    /// edit is in (overlapping it, or inserting strictly inside it) is the writer's now and
    /// goes — as an engine edit makes a change INVALID (emend.h, CHANGES).
    mutating func moveReviewItems(_ range: Range<Int>, length: Int) {
        guard !reviewItems.isEmpty else { return }
        let delta = length - range.count
        reviewItems = reviewItems.compactMap { item in
            var moved = item
            let r = item.range
            let inside = range.isEmpty ? (r.lowerBound < range.lowerBound && range.lowerBound < r.upperBound)
                                       : (range.overlaps(r) || (r.isEmpty && range.lowerBound < r.lowerBound && r.lowerBound < range.upperBound))
            if inside { return nil }
            if r.lowerBound >= range.upperBound {
                moved.range = (r.lowerBound + delta)..<(r.upperBound + delta)
            }
            return moved
        }
    }

    /// Turns the pending review into items when the document holds its result where the
    /// edit was sent; returns whether it did.
    mutating func takePendingReview(nextID: inout Int) -> Bool {
        guard let pending = pendingReview else { return false }
        let end = pending.start + pending.result.count
        guard end <= document.bytes.count, Array(document.bytes[pending.start..<end]) == pending.result else { return false }
        pendingReview = nil
        reviewItems = pending.changes.map { change in
            defer { nextID += 1 }
            return ReviewItem(id: nextID, range: (change.range.lowerBound + pending.start)..<(change.range.upperBound + pending.start),
                              original: change.original, replacement: change.replacement)
        }
        return true
    }
}
