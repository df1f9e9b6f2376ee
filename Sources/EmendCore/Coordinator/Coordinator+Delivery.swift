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
        /// The rope's `replaceCount` at which `anchor` was known to hold `expected` and no
        /// attachment (a plan read its copy of the text so): while the rope took no replace
        /// since, neither is read again. Why: a 16 MB region rewritten into a sentence was
        /// compared and scanned for attachments on the engine's thread (4 ms of one dispatch).
        var knownAt: Int? = nil
        /// The suggestion whose text this edit puts in: marked once the engine applied it.
        var marks: SuggestionMark? = nil
        /// The replacement cut into the rope's chunks elsewhere (a long one a plan made).
        var prepared: PreparedReplacement? = nil
        /// What the edit changes, without the ends `expected` and the replacement share (a
        /// long one a plan made): the delivery is recorded as its core's replace.
        var core: ChangedCore? = nil
    }

    /// A suggestion marked once the engine applied the edit that puts its text in.
    struct SuggestionMark {
        let suggestion: Suggestion
        /// Its replacement (true) or its original (false) is in the text now.
        let applied: Bool
        /// A review step: its state follows (pending with its replacement in, rejected without).
        var reviewed = false
    }

    /// A delivery under way: the edits left to send, in order, and the events that follow it.
    /// Why a value handed along (`SessionEvent.replaceAnswered`): each replace is answered in
    /// a later dispatch; the delivery goes on from the event, not from a closure chain.
    final class Delivery {
        let session: Session
        let context: SessionContext
        var remaining: ArraySlice<PlannedEdit>
        let kind: ChangeKind
        let reason: ReplaceReason
        /// Handled when the engine refuses a replace (the rest are not sent); nil: the session fails.
        let refused: SessionEvent?
        /// Handled once every edit was delivered.
        let delivered: SessionEvent
        /// What the region shows once every edit went in as planned (a version's plan), or nil.
        let shows: ShownVersionPlan?
        /// Whether every edit so far went in as planned: none withdrawn, skipped or
        /// cut around protected text, none the engine answered with other text.
        var asPlanned = true
        /// How many replaces the ledger recorded.
        var recorded = 0
        /// Where the replace out was found to hold the text it takes out, and the rope's
        /// `replaceCount` then: while that is the same, the answer need not compare it again.
        var checked: (replaces: Int, range: Range<Int>)?

        init(session: Session, context: SessionContext, edits: [PlannedEdit], kind: ChangeKind, reason: ReplaceReason,
             refused: SessionEvent?, delivered: SessionEvent, shows: ShownVersionPlan? = nil) {
            self.session = session
            self.context = context
            self.remaining = edits[...]
            self.kind = kind
            self.reason = reason
            self.refused = refused
            self.delivered = delivered
            self.shows = shows
        }
    }

    /// A replace this long (the bytes it takes out and puts in) starts a dispatch of its own.
    /// Why: the engine's edit and Emend's (the rope, the ledger) cost milliseconds per
    /// megabyte, and both run in the dispatch that sends it; after the small replaces before
    /// it (a revert takes a long change out 64 KB at a time, then puts the original back in
    /// one replace) they made one dispatch of 6-7 ms for a rewrite of a million words.
    static let longReplaceBytes = 1 << 18

    /// A replace of a delivery out with the engine.
    struct SentReplace {
        let edit: PlannedEdit
        /// Where the edit was planned, and the text it planned to replace there.
        let range: Range<Int>
        let planned: String
        /// Where the replace is while the engine answers (the edit's own anchor when it keeps it).
        let inFlight: Anchor
    }

    /// Delivers `edits` in order, then handles `then`; stops early on a refusal (the rest are
    /// not sent: `onRefused` is handled, or without one the session fails) and fails the
    /// session on an engine failure.
    /// `shows`: the version the region shows once every edit went in as planned (see
    /// `ShownVersionPlan`).
    func deliver(_ edits: [PlannedEdit], kind: ChangeKind, reason: ReplaceReason = .interactive,
                 onRefused: SessionEvent? = nil, shows: ShownVersionPlan? = nil, then: SessionEvent) {
        guard let session, let context = session.working else { return handle(then) }
        sendNextReplace(Delivery(session: session, context: context, edits: edits, kind: kind, reason: reason,
                                 refused: onRefused, delivered: then, shows: shows))
    }

    /// Sends the delivery's next replace, passing over those with nothing to do; when none is
    /// left, handles what follows the delivery.
    func sendNextReplace(_ delivery: Delivery) {
        let context = delivery.context
        while true {
            guard answerMayProceed(delivery.session) else { return }
            guard let edit = delivery.remaining.popFirst() else {
                if let shows = delivery.shows, delivery.asPlanned {
                    shows.noteShown(in: delivery.session, context: context, recorded: delivery.recorded)
                }
                return handle(delivery.delivered)
            }
            defer { if edit.releasesAnchor { context.release(edit.anchor) } }
            guard let range = edit.anchor.range else { delivery.asPlanned = false; continue }
            let known = edit.expected != nil && edit.knownAt == context.text.rope.replaceCount
            if let expected = edit.expected, !known, !context.text.holds(expected, at: range) {
                logger("a planned replace was withdrawn: the engine edited its text first")
                delivery.asPlanned = false
                continue
            }
            // Declared protection is looked at always: it is not in the bytes the plan read.
            let touchesProtected = known ? context.text.touchesDeclaredProtection(range) : context.text.touchesProtectedText(range)
            if touchesProtected && !(edit.restores && context.ledger.isDelivered(range)) {
                delivery.asPlanned = false
                // A change around protected text that keeps it goes as the changes beside it.
                if let parts = partsAroundProtectedText(edit, range: range, in: context) {
                    delivery.remaining = ArraySlice(parts + delivery.remaining)
                    continue
                }
                logger("skipped a change that would touch protected text at \(range)")
                continue
            }
            // Compared in place, never copied when the edit says what it expects there (taking
            // back a 16 MB streamed change copied it out three times in one dispatch).
            let planned = edit.expected ?? context.text.substring(range)
            if edit.styling == nil, planned == edit.replacement { continue }
            let proposal = ReplaceProposal(contextID: context.id, engineContext: context.engineContext, range: range,
                                           text: edit.replacement, reason: delivery.reason, kind: delivery.kind,
                                           animationDuration: delivery.reason == .interactive ? options.animationDuration : 0,
                                           styled: edit.styling != nil, attributeRuns: edit.styling?.attributeRuns ?? [],
                                           blockIntents: edit.styling?.blockIntents ?? [])
            // Where the replace is while the engine answers. A suggestion's own anchor (kept after
            // delivery) is that already: no second anchor, two marks fewer per suggestion.
            let inFlight = edit.releasesAnchor ? context.anchor(range) : edit.anchor
            let sent = SentReplace(edit: edit, range: range, planned: planned, inFlight: inFlight)
            let long = range.count + edit.replacement.utf8.count >= Self.longReplaceBytes
            // `planned` is at `range` now: compared just above, or copied out of it.
            let sentAt = (replaces: context.text.rope.replaceCount, range: range)
            call(.replace, .replace, startsDispatch: long, invoke: { [unowned self] request in
                // The engine may have edited the text since the replace was planned: send where that
                // text is now, or give up on the replace (as refused) when the edit touched it.
                // Not compared again while the rope took no replace since (a 16 MB region
                // rewritten into a sentence was compared twice, a dispatch apart).
                guard let now = inFlight.range,
                      sentAt == (context.text.rope.replaceCount, now) || context.text.holds(planned, at: now) else {
                    return _ = try? self.answer(request, .refused)
                }
                delivery.checked = (context.text.rope.replaceCount, now)
                var current = proposal
                current.range = now
                self.delegate.replace(self, current, request: request)
            }, then: { .replaceAnswered(delivery, sent, $0) })
            return
        }
    }

    /// The engine answered a replace of `delivery`: the change is recorded and the next one
    /// goes out, or a refusal goes as `SessionState.replaceRefused` says.
    func replaceAnswered(_ delivery: Delivery, _ sent: SentReplace, _ answer: DelegateAnswer) {
        let context = delivery.context, edit = sent.edit, inFlight = sent.inFlight
        defer { if edit.releasesAnchor { context.release(inFlight) } }
        switch answer {
        case .replaced(let inserted):
            guard let where_ = inFlight.range else {
                return endSession(EmendError(.state, "the text changed under a pending replace"))
            }
            let text = inserted ?? edit.replacement
            // The text taken out, as compared when the replace went to the engine (4 MB for a
            // rewrite of a million words: not compared again while the rope took no replace).
            let checked = delivery.checked.map { $0 == (context.text.rope.replaceCount, where_) } ?? false
            delivery.checked = nil
            // The engine may put in other text than asked (its own quotes, a case it keeps).
            let asAsked = inserted.map { $0 == edit.replacement } ?? true
            if !asAsked { delivery.asPlanned = false }
            let prepared = asAsked ? edit.prepared : nil
            let now: Range<Int>
            if inserted == nil, let styling = edit.styling {
                now = context.applyDelivered(where_, styling, styled: true, replaced: sent.planned, replacedChecked: checked,
                                             prepared: prepared)
            } else {
                // The core was made of the expected text, which `planned` is.
                let core = asAsked && edit.expected != nil ? edit.core : nil
                now = context.applyDelivered(where_, AttributedText(text), styled: false, replaced: sent.planned,
                                             replacedChecked: checked, prepared: prepared, core: core)
            }
            delivery.recorded += 1
            if !edit.releasesAnchor { edit.anchor.range = now }
            if let mark = edit.marks { self.mark(mark) }
            sendNextReplace(delivery)
        case .refused where inFlight.range.map({ !context.text.holds(sent.planned, at: $0) }) ?? true:
            // Not the engine's refusal: the engine edited that text before the replace was
            // sent, and the runtime withdrew it. The rest goes on; what it would have
            // changed is the engine's now.
            logger("a replace was withdrawn: the engine edited its text first")
            delivery.asPlanned = false
            sendNextReplace(delivery)
        case .refused, .unsupported:
            switch delivery.session.state.replaceRefused(recoverable: delivery.refused != nil) {
            case .finishStop:
                // A stop asked for while the replace was out takes over (a review step's
                // taking back would otherwise rest the session with the stop still pending
                // and nothing left to finish it).
                guard session === delivery.session else { return }
                finishStop()
            case .recover:
                if let refused = delivery.refused { handle(refused) }
            case .fail:
                let at = inFlight.range ?? sent.range
                fail(EmendError(.refused, located: "the engine refused a replace at \(range: at, in: context.text.string)"))
            }
        case .failed(let error):
            fail(error)
        default:
            fail(EmendError(.internal, "unexpected answer to a replace"))
        }
    }

    /// Marks a suggestion whose text a delivered edit put in.
    private func mark(_ mark: SuggestionMark) {
        let suggestion = mark.suggestion
        suggestion.isApplied = mark.applied
        if mark.reviewed { suggestion.state = mark.applied ? .pending : .rejected }
        noteSuggestionChanged(suggestion.index)
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

    /// Puts every suggestion's replacement into the text, `suggestionSlice` planned at a time,
    /// then handles `then`.
    /// Why in slices: planning 185,000 replaces at once took 15 ms of one dispatch; a slice is
    /// planned when the one before it was delivered (`.suggestionSliceDelivered`).
    func deliverSuggestions(_ suggestions: [Suggestion], then: SessionEvent) {
        deliverSuggestions(suggestions[...], then: then)
    }

    func deliverSuggestions(_ rest: ArraySlice<Suggestion>, then: SessionEvent) {
        let slice = rest.prefix(Self.suggestionSlice)
        let edits = slice.map { suggestion in
            // The suggestion keeps its anchor after delivery: it marks where its text is.
            PlannedEdit(anchor: suggestion.anchor, replacement: suggestion.replacement, releasesAnchor: false,
                        marks: SuggestionMark(suggestion: suggestion, applied: true))
        }
        let remaining = rest.dropFirst(slice.count)
        deliver(edits, kind: .result, then: remaining.isEmpty ? then : .suggestionSliceDelivered(remaining, then: then))
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
    /// by default), last first. `prepared`: one change's base text cut into the rope's chunks
    /// elsewhere, used when it still is that text.
    func restoringEdits(in context: SessionContext, styled: Bool, hunks: Range<Int>? = nil,
                        prepared: (change: Int, chunks: PreparedReplacement?)? = nil) -> [PlannedEdit] {
        let ledger = context.ledger
        // Read change by change (`hunk(_:)`), never `hunks` whole: that writes every move still
        // pending into every change, a million of them in one slice after an engine edit.
        return (hunks ?? 0..<ledger.count).reversed().map { index in
            let hunk = ledger.hunk(index)
            // The engine's edits meanwhile may have changed the change: compared, not trusted.
            let chunks = prepared.flatMap { $0.change == index ? $0.chunks : nil }.flatMap { $0.isMade(of: hunk.baseText.string) ? $0 : nil }
            return PlannedEdit(anchor: context.anchor(ledger.currentSpan(index)), replacement: hunk.baseText.string,
                               styling: styled ? hunk.baseText : nil, restores: true, expected: hunk.text.string, prepared: chunks)
        }
    }

    /// Undoes each of Emend's net changes in `context`, last first, `suggestionSlice` planned
    /// at a time; `then` is handled when all were delivered. Why in slices: planning a million
    /// restoring replaces at once (an anchor each) held one dispatch for hundreds of
    /// milliseconds; a slice is planned when the one after it was delivered
    /// (`.restoringSliceDelivered`; restoring from the end leaves the indices of the changes
    /// before it as they were).
    func deliverRestoring(in context: SessionContext, styled: Bool, kind: ChangeKind, reason: ReplaceReason = .interactive,
                          onRefused: SessionEvent? = nil, then: SessionEvent) {
        deliverRestoring(below: context.ledger.count,
                         SessionEvent.RestoringSlices(context: context, styled: styled, kind: kind, reason: reason,
                                                      refused: onRefused, delivered: then))
    }

    func deliverRestoring(below end: Int, _ slices: SessionEvent.RestoringSlices) {
        // The engine's edits may have made changes its own meanwhile: fewer are left.
        let context = slices.context, ledger = context.ledger
        let end = min(end, ledger.count)
        guard end > 0 else { return handle(slices.delivered) }
        var slices = slices
        let sizes = RestoringPiece.Sizes(of: end - 1, in: ledger)
        if sizes.isLong, slices.sizesBeforePiece.map({ sizes.isSmaller(than: $0) }) ?? true {
            // A long change (a refused rewrite's 16 MB; a rewrite of 16 MB into a sentence)
            // goes out from its end a piece per replace, then its base comes back from its end
            // a piece per replace (`RestoringPiece`); the ledger knows what is left of it when
            // this comes back for the same change, and its last piece goes as any change does.
            slices.sizesBeforePiece = sizes
            let piece = sizes.text > RestoringPiece.longest ? restoringTail(of: end - 1, in: context, styled: slices.styled)
                : restoringBaseTail(of: end - 1, in: context, styled: slices.styled)
            return deliver([piece], kind: slices.kind, reason: slices.reason, onRefused: slices.refused,
                           then: .restoringSliceDelivered(below: end, slices))
        }
        let base = ledger.hunk(end - 1).baseText
        if base.utf8Count >= VersionPlan.preparedBytes, slices.prepared?.change != end - 1, let session {
            // A long original that does not go back in pieces (a styled one, or one whose
            // piece the engine withdrew) goes back in one replace: its chunks are cut on a
            // runtime thread first, as a version's plan cuts a long replacement's
            // (`PreparedReplacement`), and the slice goes on when they are. `sizesBeforePiece`
            // stays as it is, so that the pieces above decide as they did when this comes back.
            slices.prepared = (end - 1, nil)
            let text = base.string
            let waiting = slices
            return runElsewhere("an original's chunks are cut", { PreparedReplacement(text.utf8) }) { [weak self] chunks in
                guard let self, self.session === session, session.working === context, self.answerMayProceed(session) else { return }
                var slices = waiting
                slices.prepared = (end - 1, chunks)
                self.deliverRestoring(below: end, slices)
            }
        }
        slices.sizesBeforePiece = nil
        var start = max(0, end - Self.suggestionSlice)
        // A long change among them waits for a slice of its own (its pieces, above).
        if let long = (start..<(end - 1)).last(where: {
            RestoringPiece.Sizes(of: $0, in: ledger).isLong
        }) { start = long + 1 }
        let edits = restoringEdits(in: context, styled: slices.styled, hunks: start..<end, prepared: slices.prepared)
        slices.prepared = nil
        deliver(edits, kind: slices.kind, reason: slices.reason, onRefused: slices.refused,
                then: .restoringSliceDelivered(below: start, slices))
    }

    /// The replace that takes the tail of Emend's change `index` out of the text (see
    /// `RestoringPiece`): what is left of it is a prefix of what was delivered.
    private func restoringTail(of index: Int, in context: SessionContext, styled: Bool) -> PlannedEdit {
        let span = context.ledger.currentSpan(index)
        let baseText = context.ledger.hunk(index).baseText.string.utf8
        let rope = context.text.rope
        let tail = RestoringPiece.tail(of: span, baseLast: baseText.last) { rope.byte(at: $0) }
        return PlannedEdit(anchor: context.anchor(tail), replacement: "", styling: styled ? AttributedText("") : nil,
                           restores: true, expected: context.text.substring(tail))
    }

    /// The replace that puts the tail of the base text of Emend's change `index` back, after
    /// the change's text (see `RestoringPiece.baseTail`): the change is then the rest of its
    /// base made its text, and the ledger takes the tail off both where they are.
    private func restoringBaseTail(of index: Int, in context: SessionContext, styled: Bool) -> PlannedEdit {
        let span = context.ledger.currentSpan(index)
        let baseText = context.ledger.hunk(index).baseText
        let bytes = baseText.string.utf8
        let tail = RestoringPiece.baseTail(count: bytes.count, avoiding: span.isEmpty ? bytes.first : nil) {
            bytes[bytes.index(bytes.startIndex, offsetBy: $0)]
        }
        let piece = baseText.slice(tail)
        return PlannedEdit(anchor: context.anchor(span.upperBound..<span.upperBound), replacement: piece.string,
                           styling: styled ? piece : nil, restores: true, expected: "")
    }

    /// Changes the region's text to `versions[target]` through minimal edits (a version's
    /// planned on a runtime thread, `deliverVersion`), then handles `event`
    /// (`.versionRestored`: the version shown is `target`).
    func transition(to target: Int, kind: ChangeKind, reason: ReplaceReason = .interactive, then event: SessionEvent) {
        guard let session, let context = session.working, session.region?.range != nil,
              session.versions.indices.contains(target) else { return handle(event) }
        let delivered = SessionEvent.versionRestored(target, then: event)
        if target == 0 {
            deliverRestoring(in: context, styled: resolvedResultOptions.carriesStyling, kind: kind, reason: reason, then: delivered)
        } else {
            deliverVersion(target, kind: kind, reason: reason, then: delivered)
        }
    }
}
