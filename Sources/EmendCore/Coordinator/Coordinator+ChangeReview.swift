import EmendText

/// Reviewing a rewrite change by change, like track changes: the result resting in the text
/// is split into its changes (see RewriteChanges), and from then on the session's suggestion
/// calls work on them as on proofreading suggestions — accept keeps one, reject puts its
/// original back (and only its), undo and redo step through the decisions, Done keeps every
/// change not rejected, revert puts the whole original back byte for byte.
extension Coordinator {
    /// The category of a rewrite's change under review (`SuggestionInfo.category`).
    public static let rewriteChangeCategory = "rewrite"

    /// Splits the rewrite resting in the text into its changes and returns how many there are
    /// (once split, the same changes: a second call returns their count again). Throws
    /// `.state` unless a rewrite's result (a rewrite, a follow-up, composed text) rests in
    /// the text.
    @discardableResult
    public func reviewChanges() throws(EmendError) -> Int {
        try checkThread()
        try checkOutsideCallbacks()
        let session = try restingSession()
        guard session.tool.isRewrite || session.tool == .compose, session.hasResult else {
            throw EmendError(.state, session.tool == .proofread ? "proofreading is already reviewed per suggestion"
                                                                : "no rewrite's result rests in the text")
        }
        guard session.shownVersion > 0 else {
            throw EmendError(.state, "the original is shown: show the rewritten text first, then review its changes")
        }
        if session.reviewsChanges { return session.suggestions.count }
        guard let context = session.working, let region = session.region?.range else {
            throw EmendError(.state, "the session lost its working region")
        }
        let net = zip(context.ledger.currentSpans, context.ledger.hunks).compactMap { span, hunk -> RewriteChanges.NetChange? in
            guard span.lowerBound >= region.lowerBound, span.upperBound <= region.upperBound else { return nil }
            return RewriteChanges.NetChange(span: (span.lowerBound - region.lowerBound)..<(span.upperBound - region.lowerBound),
                                            original: Array(hunk.baseText.string.utf8))
        }
        // The region once (a rewrite's region: a selection and its sentences, not the document).
        let regionBytes = Array(context.text.substring(region).utf8)
        let changes = RewriteChanges.changes(of: net, in: regionBytes)
        var firstNet = 0
        session.suggestions = changes.enumerated().map { index, change in
            let span = (change.span.lowerBound + region.lowerBound)..<(change.span.upperBound + region.lowerBound)
            let edit = ProviderEdit(range: span, replacement: change.replacement, category: Self.rewriteChangeCategory)
            let base = context.ledger.baseRange(ofCurrent: span)
            let suggestion = Suggestion(index: index, contextID: context.id, anchor: context.anchor(span), original: change.original,
                                        edit: edit, originalRange: base.lowerBound..<(base.lowerBound + change.original.utf8.count))
            suggestion.isApplied = true
            if resolvedResultOptions.carriesStyling {
                // A reject puts the original back as it was, styled, and its undo the new text
                // (see setSuggestion).
                while firstNet < net.count, net[firstNet].span.upperBound < change.span.lowerBound,
                      !Self.onlySpaces(regionBytes, net[firstNet].span.upperBound..<change.span.lowerBound) { firstNet += 1 }
                suggestion.styledOriginal = styledOriginal(of: change, net: net[firstNet...], regionBytes: regionBytes, region: region,
                                                           context: context)
                suggestion.styledReplacement = context.text.slice(span)
            }
            return suggestion
        }
        // The review is the session's history from now on: a step before it (show original
        // and back, the result itself) would change the text under the changes' marks.
        session.undoStack.removeAll()
        session.redoStack.removeAll()
        // Read once here (the split read the region already): each step keeps it true where it changed.
        trackShownVersion(session, context: context, region: region)
        session.deliveryBegins()
        requestUnderlines(session.suggestions[...], then: .rests)
        return session.suggestions.count
    }

    /// `change`'s original as it was, styled: the base of its span widened over the net
    /// changes at its edges (RewriteChanges trims the spaces both texts share off a change,
    /// which may cut into a net change), then cut back to the change. Nil (the original goes
    /// back plain) when that does not read as the change's original. `net` starts at the
    /// first net change that may touch it.
    private func styledOriginal(of change: ReviewChange, net: ArraySlice<RewriteChanges.NetChange>, regionBytes: [UInt8],
                                region: Range<Int>, context: SessionContext) -> AttributedText? {
        var wide = change.span
        for other in net {
            if other.span.lowerBound > change.span.upperBound,
               !Self.onlySpaces(regionBytes, change.span.upperBound..<other.span.lowerBound) { break }
            wide = min(wide.lowerBound, other.span.lowerBound)..<max(wide.upperBound, other.span.upperBound)
        }
        let base = context.baseSlice((wide.lowerBound + region.lowerBound)..<(wide.upperBound + region.lowerBound))
        let left = change.span.lowerBound - wide.lowerBound, right = wide.upperBound - change.span.upperBound
        guard base.utf8Count >= left + right else { return nil }
        let original = base.slice(left..<(base.utf8Count - right))
        return original.string == change.original ? original : nil
    }

    private static func onlySpaces(_ bytes: [UInt8], _ range: Range<Int>) -> Bool {
        bytes[range].allSatisfy { $0 == 0x20 }
    }

    /// After a review step (`history`) put a change's original or replacement into the text:
    /// the version shown is what the text shows (a follow-up refines it, a failed one comes
    /// back to it). Why not `keepShownVersionTrue` every step: it reads the whole region (the
    /// version made over the region's base, compared with its text), and a reject, undo or
    /// redo of one word of a 100,000-word rewrite cost all of it. While the version shown is
    /// known to be the ledger's changes in the region (`ShownVersionTrack`), the step changed
    /// only the ledger's changes at its own change, and those alone are taken into the version.
    func keepReviewedVersionTrue(after history: ReviewHistory) {
        guard let session, session.reviewsChanges, let context = session.working, let region = session.region?.range else { return }
        let index = session.shownVersion
        let step: Int? = switch history {
        case .reject(let suggestion): suggestion
        case .undo(let undone): undone.suggestion
        case .redo(let redone): redone.suggestion
        case .none: nil
        }
        guard session.shownVersionTrack == .ledgersChanges(version: index, baseEdits: context.ledger.baseEdits.count),
              session.versions.indices.contains(index), let step, session.suggestions.indices.contains(step),
              let span = session.suggestions[step].anchor.range else {
            keepShownVersionTrue(session, context: context)
            return trackShownVersion(session, context: context, region: region)
        }
        takeLedgersChanges(around: span, into: index, of: session, context: context, region: region)
        assert(session.versions[index] == ledgersChanges(context: context, region: region),
               "the version shown, kept where a review step changed it, differs from the ledger's changes in the region")
    }

    /// The changes the ledger holds in `region` (what `keepShownVersionTrue` makes the version
    /// shown when it parts from the text; costs their number).
    private func ledgersChanges(context: SessionContext, region: Range<Int>) -> [LedgerHunk] {
        let base = context.ledger.baseRange(ofCurrent: region)
        return context.ledger.hunks.filter { base.lowerBound <= $0.base.lowerBound && $0.base.upperBound <= base.upperBound }
    }

    /// Notes whether the version shown is the ledger's changes in the region (costs their number).
    private func trackShownVersion(_ session: Session, context: SessionContext, region: Range<Int>) {
        let index = session.shownVersion
        let known = index > 0 && session.versions.indices.contains(index)
            && session.versions[index] == ledgersChanges(context: context, region: region)
        session.shownVersionTrack = known ? .ledgersChanges(version: index, baseEdits: context.ledger.baseEdits.count) : .unknown
    }

    /// Puts the ledger's changes at `span` (a reviewed change's text now) into
    /// `versions[index]`, which held the ledger's changes in the region before the step: the
    /// changes of either whose base touches the step's, widened until none reaches past them,
    /// are replaced by the ledger's there (costs those changes, and a binary search of each list).
    private func takeLedgersChanges(around span: Range<Int>, into index: Int, of session: Session, context: SessionContext,
                                    region: Range<Int>) {
        let ledger = context.ledger
        let regionBase = ledger.baseRange(ofCurrent: region)
        var window = ledger.baseRange(ofCurrent: span)
        var ledgerPart = 0..<0, versionPart = 0..<0
        while true {
            // The ledger's found by bisection and read one by one (not copied out whole).
            ledgerPart = ledger.hunks(touchingBase: window)
            versionPart = Self.touching(window, in: session.versions[index])
            var wider = window
            let firsts = [ledgerPart.first.map { ledger.hunk($0).base }, session.versions[index][versionPart].first?.base]
            let lasts = [ledgerPart.last.map { ledger.hunk($0).base }, session.versions[index][versionPart].last?.base]
            for first in firsts.compactMap({ $0 }) { wider = min(wider.lowerBound, first.lowerBound)..<wider.upperBound }
            for last in lasts.compactMap({ $0 }) { wider = wider.lowerBound..<max(wider.upperBound, last.upperBound) }
            if wider == window { break }
            window = wider
        }
        let taken = ledgerPart.map(ledger.hunk).filter {
            regionBase.lowerBound <= $0.base.lowerBound && $0.base.upperBound <= regionBase.upperBound
        }
        session.versions[index].replaceSubrange(versionPart, with: taken)
    }

    /// The changes (sorted by base, disjoint) whose base overlaps or touches `window`.
    static func touching(_ window: Range<Int>, in hunks: [LedgerHunk]) -> Range<Int> {
        func first(_ holds: (LedgerHunk) -> Bool) -> Int {
            var low = 0, high = hunks.count
            while low < high {
                let middle = (low + high) / 2
                if holds(hunks[middle]) { high = middle } else { low = middle + 1 }
            }
            return low
        }
        let lower = first { $0.base.upperBound >= window.lowerBound }
        let upper = first { $0.base.lowerBound > window.upperBound }
        return lower..<max(lower, upper)
    }

    /// A follow-up refines the text as it stands: the review of the changes before it ends
    /// (their marks and decision steps go; the text keeps every decision).
    func endChangeReview(_ session: Session) {
        guard session.reviewsChanges else { return }
        if let context = session.working { keepShownVersionTrue(session, context: context) }
        session.undoStack.removeAll { $0.suggestion != nil }
        session.redoStack.removeAll { $0.suggestion != nil }
        session.suggestions = []
    }
}

extension Session {
    /// A rewrite's changes are under review (its suggestions are those changes).
    var reviewsChanges: Bool { tool != .proofread && !suggestions.isEmpty }
}
