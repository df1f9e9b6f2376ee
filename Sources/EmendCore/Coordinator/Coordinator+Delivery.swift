import EmendText

/// Delivering changes to the engine, one replace at a time.
extension Coordinator {
    /// One change to deliver: what the text at `anchor` becomes.
    struct PlannedEdit {
        let anchor: Anchor
        let replacement: String
        /// The replacement's whole styling, for engines that take rich results; nil: plain text.
        var styling: AttributedText? = nil
        /// Whether delivery releases the anchor when done (false for anchors others keep; those
        /// are set to the replaced text's new range).
        var releasesAnchor = true
        /// It puts back base text over Emend's own changes: protected text inside them (that
        /// came in with a replace) may go.
        var restores = false
        /// The text at `anchor` when the edit was planned, if it must still be there: an edit
        /// planned before the engine edited that text (a restore of a change the engine's
        /// edit made its own) is withdrawn, not sent.
        var expected: String? = nil
        /// Runs when the engine applied it (with the text it really inserted).
        var applied: (String) -> Void = { _ in }
    }

    /// Delivers `edits` in order; stops early on a refusal (the rest are not sent) and
    /// fails the session on an engine failure. `then` runs when all were delivered.
    func deliver(_ edits: [PlannedEdit], kind: ChangeKind, reason: ReplaceReason = .interactive,
                 onRefused: (() -> Void)? = nil, then: @escaping () -> Void) {
        guard let session, let context = session.working else { return then() }
        var remaining = edits[...]
        // The steps hold the coordinator weakly: a replace left unanswered must not keep it alive.
        weak let owner = self
        func next() {
            guard let owner else { return }
            guard owner.answerMayProceed(session) else { return }
            guard let edit = remaining.popFirst() else { return then() }
            defer { if edit.releasesAnchor { context.release(edit.anchor) } }
            guard let range = edit.anchor.range else { return next() }
            if let expected = edit.expected, !context.text.holds(expected, at: range) {
                owner.logger("a planned replace was withdrawn: the engine edited its text first")
                return next()
            }
            if context.text.touchesProtectedText(range) && !(edit.restores && context.ledger.isDelivered(range)) {
                // A change around protected text that keeps it goes as the changes beside it.
                if let parts = owner.partsAroundProtectedText(edit, range: range, in: context) {
                    remaining = ArraySlice(parts + remaining)
                    return next()
                }
                owner.logger("skipped a change that would touch protected text at \(range)")
                return next()
            }
            // Compared in place, never copied when the edit says what it expects there (taking
            // back a 16 MB streamed change copied it out three times in one dispatch).
            let planned = edit.expected ?? context.text.substring(range)
            if edit.styling == nil, planned == edit.replacement { return next() }
            let proposal = ReplaceProposal(contextID: context.id, engineContext: context.engineContext, range: range,
                                           text: edit.replacement, reason: reason, kind: kind,
                                           animationDuration: reason == .interactive ? owner.options.animationDuration : 0,
                                           styled: edit.styling != nil, attributeRuns: edit.styling?.attributeRuns ?? [],
                                           blockIntents: edit.styling?.blockIntents ?? [])
            // Where the replace is while the engine answers. A suggestion's own anchor (kept after
            // delivery) is that already: no second anchor, two marks fewer per suggestion.
            let inFlight = edit.releasesAnchor ? context.anchor(range) : edit.anchor
            owner.call(.replace, .replace, handlesStop: true, invoke: { [unowned owner] request in
                // The engine may have edited the text since the replace was planned: send where that
                // text is now, or give up on the replace (as refused) when the edit touched it.
                guard let now = inFlight.range, context.text.holds(planned, at: now) else {
                    return _ = try? owner.answer(request, .refused)
                }
                var current = proposal
                current.range = now
                owner.delegate.replace(owner, current, request: request)
            }) { [weak owner] answer in
                guard let self = owner else { return }
                defer { if edit.releasesAnchor { context.release(inFlight) } }
                switch answer {
                case .replaced(let inserted):
                    guard let where_ = inFlight.range else {
                        return self.endSession(EmendError(.state, "the text changed under a pending replace"))
                    }
                    let text = inserted ?? edit.replacement
                    let now: Range<Int>
                    if inserted == nil, let styling = edit.styling {
                        now = context.applyDelivered(where_, styling, styled: true)
                    } else {
                        now = context.applyDelivered(where_, AttributedText(text), styled: false)
                    }
                    if !edit.releasesAnchor { edit.anchor.range = now }
                    edit.applied(text)
                    next()
                case .refused where inFlight.range.map({ !context.text.holds(planned, at: $0) }) ?? true:
                    // Not the engine's refusal: the engine edited that text before the replace was
                    // sent, and the runtime withdrew it. The rest goes on; what it would have
                    // changed is the engine's now.
                    self.logger("a replace was withdrawn: the engine edited its text first")
                    next()
                case .refused, .unsupported:
                    if let onRefused {
                        // A stop asked for while the replace was out takes over (a review
                        // step's taking back would otherwise rest the session with the stop
                        // still pending and nothing left to finish it).
                        guard let session = self.session, self.answerMayProceed(session) else { return }
                        return onRefused()
                    }
                    let sent = inFlight.range ?? range
                    self.fail(EmendError(.refused, located: "the engine refused a replace at \(range: sent, in: context.text.string)"))
                case .failed(let error):
                    self.fail(error)
                default:
                    self.fail(EmendError(.internal, "unexpected answer to a replace"))
                }
            }
        }
        next()
    }

    /// When `edit`'s replacement holds the protected text of `range` unchanged and in order,
    /// the edits of the text between those pieces (which leave the pieces alone); else nil.
    private func partsAroundProtectedText(_ edit: PlannedEdit, range: Range<Int>, in context: SessionContext) -> [PlannedEdit]? {
        let replacement = Array(edit.replacement.utf8)
        return ProtectedParts.split(range, of: context.text, replacement: replacement)?.map { part in
            PlannedEdit(anchor: context.anchor(part.old), replacement: String(decoding: replacement[part.new], as: UTF8.self),
                        styling: edit.styling?.slice(part.new))
        }
    }

    /// Puts every suggestion's replacement into the text, `suggestionSlice` planned at a time.
    /// Why in slices: planning 185,000 replaces at once took 15 ms of one dispatch; a slice is
    /// planned when the one before it was delivered.
    func deliverSuggestions(_ suggestions: [Suggestion], then: @escaping () -> Void) {
        deliverSuggestions(suggestions[...], then: then)
    }

    private func deliverSuggestions(_ rest: ArraySlice<Suggestion>, then: @escaping () -> Void) {
        let slice = rest.prefix(Self.suggestionSlice)
        let edits = slice.map { suggestion in
            // The suggestion keeps its anchor after delivery: it marks where its text is.
            PlannedEdit(anchor: suggestion.anchor, replacement: suggestion.replacement, releasesAnchor: false) { [weak self] _ in
                suggestion.isApplied = true
                self?.noteSuggestionChanged(suggestion.index)
            }
        }
        let remaining = rest.dropFirst(slice.count)
        deliver(edits, kind: .result) { [weak self] in
            guard let self else { return }
            if remaining.isEmpty { return then() }
            self.deliverSuggestions(remaining, then: then)
        }
    }

    /// The edits that turn the region into `versions[target]`, styled for engines that take
    /// rich results; protected text the version moved stays where it is.
    /// The original (`target` 0) comes back exactly: each of Emend's net changes undone.
    func plannedEdits(to target: Int, in context: SessionContext, region: Range<Int>) -> [PlannedEdit] {
        guard let session else { return [] }
        let styled = resolvedResultOptions.carriesStyling
        if target == 0 { return restoringEdits(in: context, styled: styled) }
        guard let version = session.version(target) else { return [] }
        let edits = VersionEdits.edits(from: context.text.slice(region), to: version, styled: styled)
        return ProtectedParts.keeping(edits, of: context.text, region: region, target: version, styled: styled).map { edit in
            let range = (edit.range.lowerBound + region.lowerBound)..<(edit.range.upperBound + region.lowerBound)
            return PlannedEdit(anchor: context.anchor(range), replacement: edit.replacement.string, styling: styled ? edit.replacement : nil,
                               expected: context.text.substring(range))
        }
    }

    /// The edits that undo each of Emend's net changes in `context` (those of `hunks`, all
    /// by default), last first.
    func restoringEdits(in context: SessionContext, styled: Bool, hunks: Range<Int>? = nil) -> [PlannedEdit] {
        let ledger = context.ledger
        return (hunks ?? ledger.hunks.indices).reversed().map { index in
            let hunk = ledger.hunks[index]
            return PlannedEdit(anchor: context.anchor(ledger.currentSpan(index)), replacement: hunk.baseText.string,
                               styling: styled ? hunk.baseText : nil, restores: true, expected: hunk.text.string)
        }
    }

    /// Undoes each of Emend's net changes in `context`, last first, `suggestionSlice` planned
    /// at a time; `then` runs when all were delivered. Why in slices: planning a million
    /// restoring replaces at once (an anchor each) held one dispatch for hundreds of
    /// milliseconds; a slice is planned when the one after it was delivered (restoring from
    /// the end leaves the indices of the changes before it as they were).
    func deliverRestoring(in context: SessionContext, styled: Bool, kind: ChangeKind, reason: ReplaceReason = .interactive,
                          onRefused: (() -> Void)? = nil, then: @escaping () -> Void) {
        deliverRestoring(below: context.ledger.hunks.count, in: context, styled: styled, kind: kind, reason: reason,
                         onRefused: onRefused, then: then)
    }

    private func deliverRestoring(below end: Int, in context: SessionContext, styled: Bool, kind: ChangeKind,
                                  reason: ReplaceReason, onRefused: (() -> Void)?, then: @escaping () -> Void) {
        // The engine's edits may have made changes its own meanwhile: fewer are left.
        let end = min(end, context.ledger.hunks.count)
        guard end > 0 else { return then() }
        let start = max(0, end - Self.suggestionSlice)
        deliver(restoringEdits(in: context, styled: styled, hunks: start..<end), kind: kind, reason: reason,
                onRefused: onRefused) { [weak self] in
            guard let self else { return }
            self.deliverRestoring(below: start, in: context, styled: styled, kind: kind, reason: reason,
                                  onRefused: onRefused, then: then)
        }
    }

    /// Changes the region's text to `versions[target]` through minimal edits.
    func transition(to target: Int, kind: ChangeKind, reason: ReplaceReason = .interactive, then: @escaping () -> Void) {
        guard let session, let context = session.working, session.region?.range != nil,
              session.versions.indices.contains(target) else { return then() }
        let delivered: () -> Void = { [weak self] in
            guard let self, let session = self.session else { return then() }
            session.shownVersion = target
            if let context = session.working { self.keepShownVersionTrue(session, context: context) }
            then()
        }
        if target == 0 {
            deliverRestoring(in: context, styled: resolvedResultOptions.carriesStyling, kind: kind, reason: reason, then: delivered)
        } else {
            deliverVersion(target, kind: kind, reason: reason, then: delivered)
        }
    }
}
