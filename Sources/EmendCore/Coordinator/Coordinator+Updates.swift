import EmendText

/// External edits and reflow.
extension Coordinator {
    /// The engine changed `range` of a context's text (as the runtime knew it) to `text`.
    /// The edit is the engine's own and is kept whatever the session does next: Emend's
    /// changes are rebased around it (an edit of text Emend changed makes that text the
    /// engine's), suggestions and the region move, an overlapped suggestion becomes invalid,
    /// and revert later puts back the original everywhere else. The session goes on.
    public func updateRange(contextID: UInt64, range: Range<Int>, text: String, reason: TextUpdateReason) throws(EmendError) {
        try checkThread()
        let context = try context(contextID)
        guard range.upperBound <= context.utf8Count else {
            // Said by the context's positions and sums: the text is not copied for the message.
            throw EmendError(.range, located: "range \(range: range, positions: context.positions) is outside the context's text (\(lengths: context.lengths))")
        }
        guard let session else { return }
        // Its rope is being built: the edit is kept and replayed on it once built, as it would
        // have been taken now (`replayEngineEdits`).
        if case .building(let pending) = context.content { _ = pending.record(range, text); return }
        takeEngineEdit(range, text, in: context, session: session)
    }

    /// Replays on a context whose rope was just built the engine's edits reported while it
    /// was built, in order, as `updateRange` takes them (the region made before them moves,
    /// one over all of it ends the session).
    func replayEngineEdits(_ edits: [TextBeingBuilt.EngineEdit], in context: SessionContext, session: Session) {
        for edit in edits where self.session === session {
            takeEngineEdit(edit.range, edit.replacement, in: context, session: session)
        }
    }

    /// Takes an engine's edit of a built context (checked to be in its text).
    private func takeEngineEdit(_ range: Range<Int>, _ text: String, in context: SessionContext, session: Session) {
        let contextID = context.id
        // An update that changes nothing (an empty range and no text, or the same text) is no edit.
        if context.text.substring(range) == text { return }
        let isWorking = context === session.working
        let touchesRegion = isWorking && (session.region?.isTouched(by: range) ?? false)
        // An edit over all the text the running tool works on leaves it nothing to do.
        let coversRegion = isWorking && (session.region?.range).map {
            !$0.isEmpty && range.lowerBound <= $0.lowerBound && range.upperBound >= $0.upperBound
        } ?? false
        var touched: [Int] = []
        // Where each suggestion the edit invalidates (or an INVALID one it edits again) will
        // have been: its span joined with the edit's new text (see emend.h, INVALID).
        var places: [(suggestion: Suggestion, range: Range<Int>)] = []
        let delta = text.utf8.count - range.count
        // Found by halving (a session's suggestions are all of its working context).
        let inEdit = session.suggestions.first?.contextID == contextID
            ? TouchedSuggestions(in: session.suggestions, edited: range).indices : []
        assert(inEdit == TouchedSuggestions.byLookingAtEach(session.suggestions, contextID: contextID, edited: range),
               "the suggestions an edit is in, found by halving, differ from those found one by one")
        for index in inEdit {
            let suggestion = session.suggestions[index]
            guard let r = TouchedSuggestions.place(of: suggestion) else { continue }
            if suggestion.state != .invalid { touched.append(index) }
            places.append((suggestion, Self.place(of: r, after: range, delta: delta)))
        }
        // The changes Emend reported that the edit is in count whole (see emend.h, CHANGES):
        // a suggestion whose replacement is in the text, a phrase of the rewrite shown.
        var changes = touched.compactMap { session.suggestions[$0].isApplied ? session.suggestions[$0].anchor.range : nil }
        // A rewrite's review change holds a deletion at its edge, or one space beyond it where
        // its shared spaces were cut off (see RewriteChanges.holdingReach).
        let holdingEdges = session.reviewsChanges ? changes.map { widenedOverSpaces($0, in: context) } : []
        if isWorking { changes += shownChanges(touchedBy: range, in: context, session: session) }
        context.applyEngineEdit(range, text, changes: changes, holdingEdges: holdingEdges)
        // A step's edits being planned from a copy of the region move through it (VersionAlignment).
        if isWorking { session.alignment.engineEdited(range, length: text.utf8.count) }
        if isWorking, let edit = context.ledger.baseEdits.last {
            // A change of the version shown that the edit drops while it reaches beyond the
            // edit's bytes (the version split its phrases otherwise than the ledger did) takes
            // text outside the window `versionShowsRegion(afterEngineEdit:)` compares: the
            // region is compared whole then.
            if case .showsRegion(let shown, _, _) = session.shownVersionTrack, session.versions.indices.contains(shown),
               EditLedger.dropsBeyondItself(edit, from: session.versions[shown]) {
                session.shownVersionTrack = .unknown
            }
            session.versions = session.versions.map { EditLedger.rebase($0, through: edit) }
        }
        for index in touched {
            let suggestion = session.suggestions[index]
            suggestion.state = .invalid
            suggestion.isApplied = false
            suggestion.anchor.range = nil
            session.dropSteps(ofSuggestion: index)
        }
        // They have no place any more: out of the offset search.
        session.removePlaced(touched)
        for (suggestion, place) in places {
            suggestion.lastPlace?.release()
            suggestion.lastPlace = context.anchor(place)
            noteSuggestionChanged(suggestion.index)
        }
        guard touchesRegion else { return }
        switch session.state.engineEditedRegion() {
        case .checkShownVersion: keepShownVersionTrue(session, context: context)
        case .checkAtRest, .none: break
        }
        session.run.regionEdited = true
        if coversRegion, case .interrupt(let withdrawsQuestion) = session.state.stop(.regionReplaced) {
            // Whatever the providers would say is about text that is gone: end the session now
            // (keeping the engine's text and putting back anything else Emend delivered).
            logger("the engine replaced all the text the tool works on; the session ends")
            interrupt(session, withdrawsQuestion: withdrawsQuestion)
        }
    }

    /// `range` widened over up to `RewriteChanges.holdingReach` spaces on each side.
    private func widenedOverSpaces(_ range: Range<Int>, in context: SessionContext) -> Range<Int> {
        let count = context.text.utf8Count
        var lower = range.lowerBound, upper = range.upperBound
        while range.lowerBound - lower < RewriteChanges.holdingReach, lower > 0, context.text.substring((lower - 1)..<lower) == " " { lower -= 1 }
        while upper - range.upperBound < RewriteChanges.holdingReach, upper < count, context.text.substring(upper..<(upper + 1)) == " " { upper += 1 }
        return lower..<upper
    }

    /// The span of `r` after `edited` was replaced by text `delta` bytes longer, for an edit
    /// that reaches into it: `r` joined with the edit's new text.
    static func place(of r: Range<Int>, after edited: Range<Int>, delta: Int) -> Range<Int> {
        min(r.lowerBound, edited.lowerBound)..<(max(r.upperBound, edited.upperBound) + delta)
    }

    /// The current ranges of the changes of the version shown (a rewrite's phrases) that an
    /// edit of `range` is in: where the text shows a phrase as the version has it, or where the
    /// edit would change the phrase's base (plain phrases only). Each is taken with every change of Emend's it
    /// holds or reaches into, so that the ledger and the saved versions give up the same text
    /// (the version shown could otherwise lose a phrase the ledger still holds).
    /// Only while the session rests does the text show that version whole: while a step is
    /// delivered (an undo, a revert, a result half put in) part of a phrase may already be
    /// the original again, and an edit there is beside Emend's text, not in it — only a
    /// phrase the text still shows counts then.
    private func shownChanges(touchedBy range: Range<Int>, in context: SessionContext, session: Session) -> [Range<Int>] {
        guard session.shownVersion > 0, session.versions.indices.contains(session.shownVersion) else { return [] }
        let count = context.text.utf8Count
        let showsVersion = session.isReviewable
        let base = context.ledger.baseRange(ofEngineEdit: range)
        return session.versions[session.shownVersion].compactMap { change in
            // A styled change is a paragraph restyled whole (a list item, a table): not a
            // phrase; the bytes Emend changed in it count, as for a result still streaming.
            guard change.baseText.isPlain, change.isTextPlain else { return nil }
            let shown = context.ledger.currentSpan(ofShown: change)
            let inText = shown.upperBound <= count && EditLedger.conflicts(shown, range) && context.text.substring(shown) == change.text.string
            guard inText || (showsVersion && EditLedger.conflicts(change.base, base)) else { return nil }
            let span = context.ledger.currentSpan(ofBase: change.base)
            return inText ? min(span.lowerBound, shown.lowerBound)..<max(span.upperBound, shown.upperBound) : span
        }
    }

    /// After an engine edit in the region of a resting rewrite, and after a version was
    /// delivered (a replace the engine's edit withdrew leaves part of it out): the version
    /// shown must be
    /// what the region shows — the original (with the engine's edits) plus the changes Emend
    /// still holds there — or show original and back, undo and redo would not give the text
    /// back. Where Emend's changes and the saved version part (they split a phrase
    /// differently, the engine answered a replace with other text), the version shown
    /// becomes the changes the ledger holds in the region. (The two can part without a
    /// change being taken or dropped — repeated text the ledger and the version align
    /// differently, an engine edit then lands on either side — so no cheaper sign than the
    /// text tells when.) When the version showed the region before the one engine edit the
    /// ledger took since (`ShownVersionTrack.showsRegion`), only the text around that edit is
    /// compared (`versionShowsRegion(afterEngineEdit:)`); otherwise the whole region is read.
    func keepShownVersionTrue(_ session: Session, context: SessionContext) {
        let index = session.shownVersion
        guard index > 0, session.versions.indices.contains(index), let region = session.region?.range else { return }
        let ledger = context.ledger
        if case .delivered(index, ledger.generation, ledger.baseEdits.count) = session.shownVersionTrack {
            // Delivered as its plan said, nothing since: the region shows it, and making the
            // version over the region to compare cost milliseconds per megabyte (a rewrite of
            // a million words: 3 ms of the dispatch that took the engine's answer).
            assert(session.version(index).map { context.text.holds($0.string, at: region) } ?? false,
                   "a version delivered as planned differs from the region's text")
            return noteShownVersionShowsRegion(session, context: context, version: index)
        }
        if case .showsRegion(index, let generation, let baseEdits) = session.shownVersionTrack,
           generation + 1 == ledger.generation, baseEdits + 1 == ledger.baseEdits.count, let edit = ledger.baseEdits.last,
           let shows = versionShowsRegion(afterEngineEdit: edit, version: index, session: session, context: context, region: region) {
            assert(shows == (session.version(index).map { context.text.holds($0.string, at: region) } ?? false),
                   "the version shown compared around an engine edit differs from the version compared over the region")
            if shows { return noteShownVersionShowsRegion(session, context: context, version: index) }
            session.versions[index] = ledgersChangesInRegion(context: context, region: region)
            logger("the version shown is now the changes Emend holds in the region")
            return noteShownVersionShowsRegion(session, context: context, version: index, known: false)
        }
        guard let shown = session.version(index) else { return }
        session.regionComparisons += 1
        // Compared in place: the region is not copied out (4 MB for a rewrite of a million words).
        if context.text.holds(shown.string, at: region) { return noteShownVersionShowsRegion(session, context: context, version: index) }
        session.versions[index] = ledgersChangesInRegion(context: context, region: region)
        logger("the version shown is now the changes Emend holds in the region")
        noteShownVersionShowsRegion(session, context: context, version: index, known: false)
    }

    /// The changes the ledger holds in `region` (costs their number).
    private func ledgersChangesInRegion(context: SessionContext, region: Range<Int>) -> [LedgerHunk] {
        let base = context.ledger.baseRange(ofCurrent: region)
        return context.ledger.hunks.filter { base.lowerBound <= $0.base.lowerBound && $0.base.upperBound <= base.upperBound }
    }

    /// Notes that `versions[version]` shows what the region shows at the ledger's generation
    /// (`known`: as found; otherwise, the version just made the ledger's changes, it is
    /// checked over the region once: a change reaching across the region's end may keep them apart).
    private func noteShownVersionShowsRegion(_ session: Session, context: SessionContext, version index: Int, known: Bool = true) {
        if !known, let region = session.region?.range, !(session.version(index).map { context.text.holds($0.string, at: region) } ?? false) {
            session.shownVersionTrack = .unknown
            return
        }
        session.shownVersionTrack = .showsRegion(version: index, generation: context.ledger.generation,
                                                 baseEdits: context.ledger.baseEdits.count)
    }

    /// Whether `versions[index]` still shows what the region shows after `edit`, the one
    /// engine edit the ledger took since it did (nil: that cannot be told around the edit).
    /// Why: comparing the version made over the whole region with the region's text on each
    /// engine edit cost the region's length (a 100,000-word rewrite: milliseconds per key).
    /// The edit changed the region's base only in its own range (where it dropped or trimmed
    /// the version's changes and took the ledger's): around it, a window of the base is
    /// widened until no change of either list reaches across its ends. Before the window,
    /// both texts are what both were before the edit (the same text) up to a length each;
    /// after it, likewise from the end. When those lengths agree (the changes before the
    /// window add as many bytes in both, and those after it too), the two texts are the same
    /// text outside the window, and only the window's are compared. Costs the window and one
    /// pass over the version's changes (the edit rebased them all already), not the region.
    private func versionShowsRegion(afterEngineEdit edit: BaseEdit, version index: Int, session: Session,
                                    context: SessionContext, region: Range<Int>) -> Bool? {
        let ledger = context.ledger
        let version = session.versions[index]
        let regionBase = ledger.baseRange(ofCurrent: region)
        // No change of the ledger may reach across an end of the region: the region's base
        // would then not be its base text byte for byte.
        for end in [regionBase.lowerBound, regionBase.upperBound] where ledger.hunks(touchingBase: end..<end).contains(where: {
            let base = ledger.hunk($0).base
            return base.lowerBound < end && end < base.upperBound
        }) { return nil }
        var window = edit.range.lowerBound..<(edit.range.lowerBound + edit.length)
        var ledgerPart = 0..<0, versionPart = 0..<0
        while true {
            ledgerPart = ledger.hunks(touchingBase: window)
            versionPart = Self.touching(window, in: version)
            var wider = window
            let firsts = [ledgerPart.first.map { ledger.hunk($0).base }, version[versionPart].first?.base]
            let lasts = [ledgerPart.last.map { ledger.hunk($0).base }, version[versionPart].last?.base]
            for first in firsts.compactMap({ $0 }) { wider = min(wider.lowerBound, first.lowerBound)..<wider.upperBound }
            for last in lasts.compactMap({ $0 }) { wider = wider.lowerBound..<max(wider.upperBound, last.upperBound) }
            if wider == window { break }
            window = wider
        }
        guard regionBase.lowerBound < window.lowerBound, window.upperBound < regionBase.upperBound else { return nil }
        // What the version's changes in the region add before the window and after it (the
        // version made over the region skips those outside it).
        var versionBefore = 0, versionAfter = 0
        for change in version where regionBase.lowerBound <= change.base.lowerBound && change.base.upperBound <= regionBase.upperBound {
            if change.base.upperBound < window.lowerBound { versionBefore += change.delta }
            if change.base.lowerBound > window.upperBound { versionAfter += change.delta }
        }
        // The same for the text: where the window is in it, and the region's start's delta.
        let start = window.lowerBound + ledger.deltaBefore(ledgerPart.lowerBound)
        let end = window.upperBound + ledger.deltaBefore(ledgerPart.upperBound)
        let textBefore = start - region.lowerBound - (window.lowerBound - regionBase.lowerBound)
        let textAfter = (region.upperBound - end) - (regionBase.upperBound - window.upperBound)
        guard textBefore == versionBefore, textAfter == versionAfter, start <= end, end <= region.upperBound else { return nil }
        let shown = context.text.substring(start..<end)
        let base = ledger.baseSlice(of: start..<end, in: context.text)
        guard base.utf8Count == window.count else { return nil }
        // Byte for byte, as the comparison over the whole region (`DocumentText.holds`).
        return EditLedger.applying(Array(version[versionPart]), to: base, at: window).string.utf8.elementsEqual(shown.utf8)
    }

    /// Layout changed: forget rectangles, ask again for the underlines of pending suggestions.
    public func updateForReflowedText() throws(EmendError) {
        try checkThread()
        guard let session else { return }
        session.layout += 1
        session.pointIndex = nil
        guard session.isReviewable else { return }
        session.deliveryBegins()
        // Looked through only for an engine that draws underlines: the pending suggestions
        // kept were let go in one queue item (a million references released: 17 ms).
        guard asksRectsInBatches || delegate.capabilities.contains(.underlineRects) else { return requestUnderlines([], then: .rests) }
        SlicedLoop.filter(session.suggestions, on: queue, { $0.state == .pending }) { [weak self] pending in
            guard let self, self.session === session, self.workMayProceed(session) else { return }
            self.requestUnderlines(pending[...], then: .rests)
        }
    }

    /// Asks for the bounding rectangles of `suggestions`, then handles `then`.
    func requestBounds(_ suggestions: ArraySlice<Suggestion>, then: SessionEvent) {
        requestRects(RectRequest(purpose: .bounding, rest: suggestions, then: then))
    }
}
