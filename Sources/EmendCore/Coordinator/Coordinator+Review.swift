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
        setSuggestion(suggestion, applied: false, kind: .suggestionReject) { [weak self] in
            // Only a reject that happened is a step (the engine may have edited the text first).
            if suggestion.state == .rejected { self?.record(.reject(index)) }
        }
    }

    /// Puts a suggestion's replacement (applied) or original (not) into the text. When the
    /// engine refuses the replace, nothing changed: `refused` runs instead of `then`.
    private func setSuggestion(_ suggestion: Suggestion, applied: Bool, kind: ChangeKind, refused: @escaping () -> Void = {},
                               then: @escaping () -> Void) {
        guard let session, suggestion.state != .invalid, suggestion.anchor.range != nil else { return then() }
        session.deliveryBegins()
        // The suggestion's own anchor is replaced and then set to the new text's range, so a
        // deletion (its anchor empty) still covers the words once they are put back.
        // A rewrite's change of a styled text goes back and forth with its styling.
        let edit = PlannedEdit(anchor: suggestion.anchor, replacement: applied ? suggestion.replacement : suggestion.original,
                               styling: applied ? suggestion.styledReplacement : suggestion.styledOriginal,
                               releasesAnchor: false) { [weak self] _ in
            suggestion.isApplied = applied
            suggestion.state = applied ? .pending : .rejected
            self?.noteSuggestionChanged(suggestion.index)
        }
        deliver([edit], kind: kind, onRefused: { [weak self] in
            self?.session?.rests()
            refused()
        }) { [weak self] in
            self?.session?.rests()
            self?.keepReviewedVersionTrue()
            then()
        }
    }

    private func record(_ step: Session.UndoStep) {
        session?.undoStack.append(step)
        session?.redoStack.removeAll()
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
        reviewTransition(to: target, kind: show ? .showOriginal : .showRewritten) {}
    }

    /// Shows `versions[target]` as a review step (show original or rewritten, undo, redo),
    /// then rests. When the engine refuses one of its replaces the step does not happen: what
    /// it delivered goes back (the version shown before), `refused` runs, and the session
    /// rests as it was — as a refused reject leaves its suggestion pending.
    private func reviewTransition(to target: Int, kind: ChangeKind, refused: @escaping () -> Void) {
        guard let session, session.working != nil, session.region?.range != nil,
              session.versions.indices.contains(target) else {
            self.session?.rests()
            return refused()
        }
        let from = session.shownVersion
        deliverVersion(target, kind: kind, onRefused: { [weak self] in
            self?.logger("the engine refused a replace of a review step; the step is taken back")
            self?.rollBack(to: from, from: target, kind: kind) { [weak self] in
                self?.session?.rests()
                refused()
            }
        }) { [weak self] in
            guard let self, let session = self.session else { return }
            session.shownVersion = target
            if let context = session.working { self.keepShownVersionTrue(session, context: context) }
            session.rests()
        }
    }

    /// Puts the region back to `versions[version]` after a refused review step. Should the
    /// engine refuse that too, the text stays as it is (the original plus delivered edits),
    /// and the version shown becomes what the text shows (or show original and back, undo
    /// and redo would start from a version the text does not hold): `version`, or the
    /// refused step's `target` when `version` is the original, which cannot change.
    private func rollBack(to version: Int, from target: Int, kind: ChangeKind, then: @escaping () -> Void) {
        guard let session, session.working != nil, session.region?.range != nil,
              session.versions.indices.contains(version) else { return then() }
        let refusedAgain: () -> Void = { [weak self] in
            if let self, let session = self.session, let context = session.working {
                session.shownVersion = version == 0 ? target : version
                self.keepShownVersionTrue(session, context: context)
            }
            then()
        }
        deliverVersion(version, kind: kind, onRefused: refusedAgain) { [weak self] in
            guard let self, let session = self.session else { return then() }
            session.shownVersion = version
            if let context = session.working { self.keepShownVersionTrue(session, context: context) }
            then()
        }
    }

    public var canUndo: Bool { !(session?.undoStack.isEmpty ?? true) && session?.isReviewable == true }
    public var canRedo: Bool { !(session?.redoStack.isEmpty ?? true) && session?.isReviewable == true }

    public func undo() throws(EmendError) {
        try checkThread()
        let session = try restingSession()
        guard let step = session.undoStack.popLast() else { throw EmendError(.state, "nothing to undo") }
        session.redoStack.append(step)
        perform(step, reversed: true) { [weak session] in
            // Refused: the step was not undone; it stays to undo.
            guard let session, session.redoStack.last == step else { return }
            session.redoStack.removeLast()
            session.undoStack.append(step)
        }
    }

    public func redo() throws(EmendError) {
        try checkThread()
        let session = try restingSession()
        guard let step = session.redoStack.popLast() else { throw EmendError(.state, "nothing to redo") }
        session.undoStack.append(step)
        perform(step, reversed: false) { [weak session] in
            // Refused: the step was not redone; it stays to redo.
            guard let session, session.undoStack.last == step else { return }
            session.undoStack.removeLast()
            session.redoStack.append(step)
        }
    }

    /// Undoes (`reversed`) or redoes `step`; `refused` runs when the engine refused its
    /// replace (the step did not happen).
    private func perform(_ step: Session.UndoStep, reversed: Bool, refused: @escaping () -> Void) {
        guard let session else { return }
        let kind: ChangeKind = reversed ? .undo : .redo
        switch step {
        case .version(let from, let to):
            session.deliveryBegins()
            reviewTransition(to: reversed ? from : to, kind: kind, refused: refused)
        case .accept(let index):
            session.suggestions[index].state = reversed ? .pending : .accepted
            noteSuggestionChanged(index)
        case .reject(let index):
            let suggestion = session.suggestions[index]
            setSuggestion(suggestion, applied: reversed, kind: kind, refused: refused) {}
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
        return session.suggestions[index].underlineRects ?? []
    }
}
