/// Reviewing a finished result: suggestions, show original, undo and redo.
extension Coordinator {
    /// A read-only view of one suggestion.
    public struct SuggestionInfo: Sendable, Equatable {
        public let contextID: UInt64
        /// Where its text is now (UTF-8 bytes); for an INVALID one, where it was: the span the
        /// engine's edit that invalidated it left there (moved by later edits). nil only when
        /// no place is known.
        public let range: Range<Int>?
        public let original: String
        public let replacement: String
        public let explanation: String
        public let category: String
        public let ruleID: String
        public let state: SuggestionState
    }

    public var suggestions: [SuggestionInfo] {
        guard let session else { return [] }
        return session.suggestions.map { SuggestionInfo($0, state: session.state(of: $0)) }
    }

    /// The text of the session's working region as it stands, once a result arrived.
    public var resultText: String? { session.flatMap { $0.hasResult ? $0.regionText : nil } }

    /// The session of a review step: resting, or `.again` while the result or a step (a
    /// reject's replace, an undo or redo) is on its way to the engine — the step is in
    /// flight, not missing: the same call works after the next dispatch (STATE read as "no
    /// result" would make a GUI drop the click or key press that a dispatch later would
    /// work). `SessionState.reviewStepAsked` decides; the messages name the step.
    func restingSession(stopping: String = "the session is stopping",
                        noResult: String = "no finished result is being reviewed") throws(EmendError) -> Session {
        guard let session else { throw EmendError(.state, noResult) }
        switch session.state.reviewStepAsked(hasResult: session.hasResult) {
        case .open: return session
        case .stepInFlight:
            throw EmendError(.again, "a change is being delivered to the engine (a step in flight); dispatch, then ask again")
        case .stopping: throw EmendError(.state, stopping)
        case .noResult: throw EmendError(.state, noResult)
        }
    }

    func pendingSuggestion(_ index: Int) throws(EmendError) -> Suggestion {
        let session = try restingSession()
        guard session.suggestions.indices.contains(index) else {
            throw EmendError(.notFound, "no suggestion \(index) (there are \(session.suggestions.count))")
        }
        let suggestion = session.suggestions[index]
        guard suggestion.state == .pending else {
            throw EmendError(.state, "suggestion \(index) is not pending")
        }
        return suggestion
    }

    public func acceptSuggestion(_ index: Int) throws(EmendError) {
        try checkThread()
        let suggestion = try pendingSuggestion(index)
        suggestion.state = .accepted
        noteSuggestionChanged(index)
        record(.accept(index))
    }

    public func rejectSuggestion(_ index: Int) throws(EmendError) {
        try checkThread()
        let suggestion = try pendingSuggestion(index)
        setSuggestion(suggestion, applied: false, kind: .suggestionReject, history: .reject(index))
    }

    /// Puts a suggestion's replacement (applied) or original (not) into the text, then
    /// handles `.suggestionSet` (refused or not) with the `history` the step keeps.
    private func setSuggestion(_ suggestion: Suggestion, applied: Bool, kind: ChangeKind, history: ReviewHistory) {
        guard let session, suggestion.state != .invalid, suggestion.anchor.range != nil else {
            // Nothing to put in: the step ends at once, without a rest (the session rests already).
            return keep(history, refused: false)
        }
        session.deliveryBegins()
        // The suggestion's own anchor is replaced and then set to the new text's range, so a
        // deletion (its anchor empty) still covers the words once they are put back.
        // A rewrite's change of a styled text goes back and forth with its styling.
        let edit = PlannedEdit(anchor: suggestion.anchor, replacement: applied ? suggestion.replacement : suggestion.original,
                               styling: applied ? suggestion.styledReplacement : suggestion.styledOriginal,
                               releasesAnchor: false, marks: SuggestionMark(suggestion: suggestion, applied: applied, reviewed: true))
        deliver([edit], kind: kind, onRefused: .suggestionSet(history, refused: true), then: .suggestionSet(history, refused: false))
    }

    /// A suggestion's replacement or original is in the text (or the engine refused it):
    /// the session rests, and the step's history is kept.
    func suggestionSet(_ history: ReviewHistory, refused: Bool) {
        settle()
        if !refused { keepReviewedVersionTrue(after: history) }
        keep(history, refused: refused)
    }

    private func record(_ step: Session.UndoStep) {
        session?.undoStack.append(step)
        session?.redoStack.removeAll()
    }

    /// Keeps what `history` says of a review step that ended (`refused`: its replace did not
    /// go in). A reject happened only when its suggestion is rejected now (the engine may
    /// have edited the text first).
    private func keep(_ history: ReviewHistory, refused: Bool) {
        guard let session else { return }
        var happened = !refused
        if case .reject(let index) = history, session.suggestions.indices.contains(index) {
            happened = happened && session.suggestions[index].state == .rejected
        }
        history.ended(happened: happened, undo: &session.undoStack, redo: &session.redoStack)
    }

    /// Shows the original (true) or the result (false) without ending the session.
    public func showOriginal(_ show: Bool) throws(EmendError) {
        try checkThread()
        let session = try restingSession()
        guard session.tool != .proofread else {
            throw EmendError(.unsupported, "proofreading is reviewed per suggestion; show original applies to rewrites")
        }
        guard !session.reviewsChanges else {
            throw EmendError(.state, "the rewrite's changes are being reviewed one by one: reject a change to see its original, or revert")
        }
        let target = show ? 0 : session.versions.count - 1
        session.deliveryBegins()
        reviewTransition(to: target, kind: show ? .showOriginal : .showRewritten, history: .none)
    }

    /// Shows `versions[target]` as a review step (show original or rewritten, undo, redo),
    /// then rests (`.reviewVersionShown`). When the engine refuses one of its replaces the
    /// step does not happen: what it delivered goes back (`.reviewStepRefused`), and the
    /// session rests as it was, `history` put back — as a refused reject leaves its
    /// suggestion pending.
    private func reviewTransition(to target: Int, kind: ChangeKind, history: ReviewHistory) {
        guard let session, session.working != nil, session.region?.range != nil,
              session.versions.indices.contains(target) else {
            settle()
            return keep(history, refused: true)
        }
        let back = SessionEvent.ReviewStepBack(from: session.shownVersion, target: target, kind: kind, history: history)
        deliverVersion(target, kind: kind, onRefused: .reviewStepRefused(back), then: .reviewVersionShown(target: target))
    }

    /// A review step's version is in the text: the session rests.
    func reviewVersionShown(_ target: Int) {
        guard let session else { return }
        session.shownVersion = target
        if let context = session.working { keepShownVersionTrue(session, context: context) }
        session.rests()
    }

    /// The engine refused a replace of a review step: the region goes back to the version
    /// shown before (`.reviewStepTakenBack`).
    func reviewStepRefused(_ back: SessionEvent.ReviewStepBack) {
        logger("the engine refused a replace of a review step; the step is taken back")
        guard let session, session.working != nil, session.region?.range != nil,
              session.versions.indices.contains(back.from) else { return reviewStepTakenBack(back, refusedAgain: nil) }
        deliverVersion(back.from, kind: back.kind, onRefused: .reviewStepTakenBack(back, refusedAgain: true),
                       then: .reviewStepTakenBack(back, refusedAgain: false))
    }

    /// A refused review step is taken back: the session rests as it was, its history put
    /// back. Should the engine have refused the taking back too (`refusedAgain`), the text
    /// stays as it is (the original plus delivered edits), and the version shown becomes
    /// what the text shows (or show original and back, undo and redo would start from a
    /// version the text does not hold): the version before, or the refused step's target
    /// when that was the original, which cannot change. nil: nothing was delivered back.
    func reviewStepTakenBack(_ back: SessionEvent.ReviewStepBack, refusedAgain: Bool?) {
        if let refusedAgain, let session, let context = session.working {
            session.shownVersion = refusedAgain && back.from == 0 ? back.target : back.from
            keepShownVersionTrue(session, context: context)
        }
        settle()
        keep(back.history, refused: true)
    }

    public var canUndo: Bool { !(session?.undoStack.isEmpty ?? true) && session?.isReviewable == true }
    public var canRedo: Bool { !(session?.redoStack.isEmpty ?? true) && session?.isReviewable == true }

    public func undo() throws(EmendError) {
        try checkThread()
        let session = try restingSession()
        guard let step = session.undoStack.popLast() else { throw EmendError(.state, "nothing to undo") }
        session.redoStack.append(step)
        perform(step, reversed: true)
    }

    public func redo() throws(EmendError) {
        try checkThread()
        let session = try restingSession()
        guard let step = session.redoStack.popLast() else { throw EmendError(.state, "nothing to redo") }
        session.undoStack.append(step)
        perform(step, reversed: false)
    }

    /// Undoes (`reversed`) or redoes `step`, moved to the other stack already; when the
    /// engine refuses its replace (the step did not happen) it goes back (`ReviewHistory`).
    private func perform(_ step: Session.UndoStep, reversed: Bool) {
        guard let session else { return }
        let kind: ChangeKind = reversed ? .undo : .redo
        let history: ReviewHistory = reversed ? .undo(step) : .redo(step)
        switch step {
        case .version(let from, let to):
            session.deliveryBegins()
            reviewTransition(to: reversed ? from : to, kind: kind, history: history)
        case .accept(let index):
            session.suggestions[index].state = reversed ? .pending : .accepted
            noteSuggestionChanged(index)
        case .reject(let index):
            let suggestion = session.suggestions[index]
            setSuggestion(suggestion, applied: reversed, kind: kind, history: history)
        }
    }

    /// Refines the finished rewrite with a follow-up request.
    func startFollowUp(prompt: String, provider: WritingProvider) throws(EmendError) {
        guard let session else { throw EmendError(.state, "a follow-up needs a finished rewrite in the current session") }
        switch session.state.followUpAsked(refinesResult: session.tool.isRewrite || session.tool == .compose) {
        case .open: break
        case .noFinishedRewrite: throw EmendError(.state, "a follow-up needs a finished rewrite in the current session")
        }
        endChangeReview(session)
        let previous = session.regionText
        session.versions.removeSubrange((session.shownVersion + 1)...)
        session.tool = .followUp
        session.prompt = prompt
        session.state.followUpStarts(refining: session.shownVersion)
        lastFailure = nil
        changeState(to: .interactiveStreaming, then: .followUpStarted(session, provider: provider, previousResult: previous))
    }

    /// The engine knows the follow-up starts: it is anticipated on the region, then runs.
    func anticipateFollowUp(_ session: Session, provider: WritingProvider, previousResult: String?) {
        guard let range = session.region?.range else { return }
        animate(.anticipate, region: range, then: .anticipated(provider: provider, previousResult: previousResult))
    }
}

extension Coordinator {
    /// The underline rectangles the engine gave for suggestion `index` ([] when unknown).
    public func underlineRects(ofSuggestion index: Int) throws(EmendError) -> [Rect] {
        guard let session, session.suggestions.indices.contains(index) else {
            throw EmendError(.notFound, "no suggestion \(index)")
        }
        return session.suggestions[index].underlineRects(in: session.layout) ?? []
    }
}
