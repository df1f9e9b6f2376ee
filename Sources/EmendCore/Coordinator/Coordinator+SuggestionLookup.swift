/// Finding the pending suggestion at an offset or a point, at a cost that does not grow with
/// the session (a GUI asks on every click and every cursor move).
extension Coordinator {
    /// Index of the pending suggestion whose text contains `offset` (UTF-8 bytes), or whose
    /// empty range (a deletion) is at it.
    ///
    /// A search by halving: suggestions are made in text order and never overlap, and every
    /// edit keeps that order (an engine edit in one makes it INVALID and takes it out of
    /// `placedSuggestions`), so their current ranges ascend with their index.
    public func suggestionIndex(contextID: UInt64, offset: Int) throws(EmendError) -> Int {
        try checkThread()
        let context = try context(contextID)
        if let session, let found = Self.pendingSuggestion(in: session, contextID: contextID, at: offset) { return found }
        // The message names the offset in the engine's units, converted by the context's
        // positions (a chunk's work; copying the whole text for it cost every click beside
        // the underlines the document's length).
        throw EmendError(.notFound, located: "no pending suggestion at \(offset: offset, positions: context.positions)")
    }

    static func pendingSuggestion(in session: Session, contextID: UInt64, at offset: Int) -> Int? {
        let placed = session.placedSuggestions
        let all = session.suggestions
        func range(_ position: Int) -> Range<Int>? { all[placed[position]].anchor.range }
        // The first placed suggestion that ends at or after `offset`. A place without a range
        // (an anchor an edit of Emend's own erased: not expected) is passed over.
        var low = 0, high = placed.count
        while low < high {
            let mid = (low + high) / 2
            guard let probe = (mid..<high).first(where: { range($0) != nil }) else {
                high = mid
                continue
            }
            if range(probe)!.upperBound >= offset { high = mid } else { low = probe + 1 }
        }
        // From there, the few whose range starts at or before `offset`: one holding it, one
        // ending at it, a deletion at it (they do not overlap).
        for position in low..<placed.count {
            guard let r = range(position) else { continue }
            if r.lowerBound > offset { break }
            let suggestion = all[placed[position]]
            if suggestion.contextID == contextID, session.state(of: suggestion) == .pending,
               r.contains(offset) || (r.isEmpty && r.lowerBound == offset) {
                return placed[position]
            }
        }
        return nil
    }

    /// Index of the pending suggestion whose bounding rectangles contain the point.
    ///
    /// The rectangles of every placed suggestion (any state: one an undo makes pending again
    /// is found too) are asked for once per layout, in batches when the engine takes them;
    /// the call throws `.again` until they arrive. The first call after they arrived sorts
    /// them by height (`SuggestionPointIndex`, kept until the next reflow); every call then
    /// costs a search by halving plus the rectangles in the point's band of the page.
    public func suggestionIndex(x: Double, y: Double) throws(EmendError) -> Int {
        try checkThread()
        guard delegate.capabilities.contains(.boundingRects) || asksRectsInBatches else {
            throw EmendError(.unsupported, "the engine gives no bounding rectangles")
        }
        if let session, case .delivering = session.state, !session.suggestions.isEmpty {
            // Rectangles asked for and not all answered yet (or a review step on its way):
            // the answer comes after a dispatch. STATE would read as "no session" to a GUI,
            // which would drop the click.
            throw EmendError(.again, "the engine is still being asked for rectangles (or a change is being delivered); dispatch, then ask again")
        }
        let session = try restingSession()
        let index: SuggestionPointIndex
        if let known = session.pointIndex {
            index = known
        } else {
            let placed = session.placedSuggestions.map { session.suggestions[$0] }.filter { $0.anchor.range != nil }
            let missing = placed.filter { $0.boundingRects(in: session.layout) == nil }
            if !missing.isEmpty {
                session.deliveryBegins()
                requestBounds(missing[...], then: .rests)
                throw EmendError(.again, "asked the engine for rectangles; dispatch, then ask again")
            }
            index = SuggestionPointIndex(placed.flatMap { suggestion in
                (suggestion.boundingRects(in: session.layout) ?? []).map { (rect: $0, suggestion: suggestion.index) }
            })
            session.pointIndex = index
        }
        let found = index.suggestion(atX: x, y: y) { i in
            session.suggestions[i].state == .pending && session.suggestions[i].anchor.range != nil
        }
        guard let found else { throw EmendError(.notFound, "no pending suggestion at (\(x), \(y))") }
        return found
    }
}
