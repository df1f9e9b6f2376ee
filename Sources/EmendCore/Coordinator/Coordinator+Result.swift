import EmendText

/// Turning a provider's output into suggestions, a new version, or a presented result.
extension Coordinator {
    func handleResult() {
        guard let session else { return }
        guard let context = session.working, let region = session.region?.range else {
            return fail(EmendError(.internal, "the session lost its working region"))
        }
        guard workMayProceed(session) else { return }
        if session.tool == .proofread {
            // In slices, one queue item each: a dispatch stays within its budget whatever the
            // number of suggestions (109,000 took 255 ms in one piece).
            return makeSuggestions(session, context: context, region: region) { [weak self] suggestions, places in
                session.setSuggestions(suggestions, places: places)
                self?.resultReady(session)
            }
        }
        // What the provider read: finished sentences may have streamed into the region since.
        let run = session.run
        let input = ResultAnalysis.Input(
            tool: session.tool, prompt: session.prompt, original: run.requestRegionText, requestBase: run.requestBase,
            requestBaseStart: run.requestBaseStart,
            resultText: run.resultText, writesMarkdown: run.writesMarkdown, placeholders: run.writesMarkdown ? run.placeholders : [:],
            options: resolvedResultOptions, paragraphSeparator: run.paragraphSeparator, composition: composition(for: session),
            needsFactCheck: run.provider?.needsFactCheck ?? true)
        analyse(input) { [weak self] analysis in
            guard let self, self.session === session, session.run === run else { return }
            guard self.workMayProceed(session) else { return }
            session.run.resultExplanation = analysis.problem
            if let report = analysis.factReport {
                self.logger("the result changes facts: \(report.changes.joined(separator: ", "))")
                if self.askAgain(session, report: report) { return }
                session.run.resultExplanation = report.explanation
            }
            // The result rebased through whatever the engine edited since: its edits are kept,
            // the result's changes beside them apply (made on the analysis's thread).
            session.versions.append(context.ledger.rebase(analysis.versionChanges, since: run.baseLogMark))
            self.resultReady(session)
        }
    }

    /// Runs the analysis on a thread of its own and hands it to `then` on the engine's
    /// thread (a queue item). The coordinator is not idle meanwhile: the session is not
    /// resting, and the thread counts as activity until its answer is queued.
    private func analyse(_ input: ResultAnalysis.Input, then: @escaping (ResultAnalysis) -> Void) {
        // Delivering a result reads it whole: a dispatch of its own (`.fresh`).
        runElsewhere("the result is analysed", { ResultAnalysis.make(input) }, then: then)
    }

    /// The result is in `session` (suggestions, or a new version): present or deliver it, as
    /// `SessionState.resultReady` decides.
    private func resultReady(_ session: Session) {
        guard self.session === session else { return }
        let explanation = session.run.resultExplanation
        let action = session.resultReady(SessionState.ReadyResult(
            isPoor: explanation != nil, enginePresents: delegate.capabilities.contains(.presentResult),
            sessionPresents: session.presents, isSuggestions: session.tool == .proofread))
        // A result the session acts on counts as arrived (review steps may follow it).
        func arrived() {
            session.hasResult = true
            if let explanation { logger("a poor result is presented, not applied: \(explanation)") }
        }
        switch action {
        case .finishStop:
            finishStop()
        case .halt, .refused:
            return
        case .failPoorResult:
            arrived()
            fail(EmendError(.poorResult, explanation ?? ""))
        case .restoreThenPresent:
            arrived()
            // What streamed in goes back first: a poor result is shown, never left in the text.
            // Then the state leaves STREAMING (nothing is being written any more: the person
            // is asked), as for every presented result.
            transitionRestoring(to: 0, kind: .revert, then: .poorResultWithdrawn)
        case .present:
            arrived()
            present()
        case .deliverSuggestions:
            arrived()
            deliverSuggestions(session.suggestions, then: .suggestionsDelivered)
        case .deliverVersion:
            arrived()
            let target = session.versions.count - 1
            transition(to: target, kind: .result, then: .versionDelivered(target: target))
        }
    }

    /// The result's version `target` is in the text: it is a step to undo, and a follow-up
    /// has nothing to go back to any more.
    func versionDelivered(_ target: Int) {
        guard let session else { return }
        session.undoStack.append(.version(from: target - 1, to: target))
        session.redoStack.removeAll()
        session.state.resultDelivered()
        afterDelivery()
    }

    /// Asks the provider once more, naming the facts its answer changed, when it can be asked
    /// again and this was its first answer; what streamed in goes back first. Returns whether
    /// it asked.
    private func askAgain(_ session: Session, report: FactGuard.Report) -> Bool {
        let run = session.run
        guard run.guidance == nil, let provider = run.provider, provider.canRetry, !session.state.isStopRequested else { return false }
        var guidance = "Your last answer changed facts of the text (\(report.changes.joined(separator: "; "))). Write it again and keep every name, number, date and negation exactly as the text states them"
        if !report.factsToKeep.isEmpty {
            guidance += ", in particular: " + report.factsToKeep.map { "‘\($0)’" }.joined(separator: ", ")
        }
        guidance += "."
        session.deliveryBegins()
        transitionRestoring(to: session.shownVersion, kind: .cancel,
                            then: .factsWithdrawn(run: run, provider: provider, guidance: guidance))
        return true
    }

    /// What streamed in of `run`'s answer went back: the provider is asked again, with `guidance`.
    func askAgain(_ run: RunState, provider: WritingProvider, guidance: String) {
        guard let session, session.run === run else { return }
        runProvider(provider, previousResult: run.previousResult, guidance: guidance, retrying: run)
    }

    /// What compose at a caret writes around its text (see `ResultComposition`): the bytes
    /// beside the caret and the paragraph break the text uses. Nil for every other tool.
    private func composition(for session: Session) -> ResultComposition? {
        guard session.tool == .compose, let context = session.working,
              let region = session.region?.range, session.run.requestRegionText.string.isEmpty else { return nil }
        let rope = context.text.rope
        let count = rope.utf8Count
        let before = region.lowerBound > 0 ? rope.byte(at: region.lowerBound - 1) : nil
        let after = region.upperBound < count ? rope.byte(at: region.upperBound) : nil
        // At the start of a paragraph the new text is a paragraph of its own: the break that
        // precedes it follows it too. Inside a line, a space.
        let breakAfter: String
        if region.lowerBound == 0 {
            // The start of the text starts a paragraph: the break the text itself uses.
            let whole = context.text.string   // compose at the very start only, once
            breakAfter = whole.contains("\n\n") ? "\n\n" : whole.contains("\n") ? "\n" : " "
        } else {
            let last = rope.bytes(max(0, region.lowerBound - 2)..<region.lowerBound)
            breakAfter = last == [0x0A, 0x0A] ? "\n\n" : last.last == 0x0A ? "\n" : " "
        }
        // At the text's end after its final line break(s): the new text ends the text, as they did.
        let tail = after == nil ? rope.bytes(max(0, region.lowerBound - 16)..<region.lowerBound) : []
        let finalBreaks = String(decoding: tail.reversed().prefix { $0 == 0x0A || $0 == 0x0D }.reversed(), as: UTF8.self)
        return ResultComposition(before: before, after: after, breakAfter: breakAfter, finalBreaks: finalBreaks)
    }

    /// How many suggestions one queue item plans for delivery or restoring, and (under a
    /// dispatch budget of items) how many provider edits it turns into suggestions; under a
    /// time budget those are made for about a millisecond per item (`WorkSlice`: each costs
    /// about 10 µs, more where the ledger or the rope is larger).
    static let suggestionSlice = 512

    /// Valid, non-overlapping edits inside the region (full corrected text is aligned), as
    /// suggestions, given to `then` once all are made. The provider read the base as it was
    /// then: its edits are rebased through the engine's edits since, and those the engine
    /// edited over are dropped. The edits are taken in slices (`WorkSlice`: about a
    /// millisecond each), each a queue item of its own, so the engine may edit between slices: each slice rebases
    /// through the ledger as it is then, reads the region where it is then, and checks
    /// overlap against the previous suggestion's anchor (where that text is now).
    private func makeSuggestions(_ session: Session, context: SessionContext, region: Range<Int>,
                                 then: @escaping ([Suggestion], [Int]) -> Void) {
        let run = session.run
        var arrived = run.resultEdits
        var aligned = false
        if arrived.isEmpty && !run.resultText.isEmpty && !run.regionEdited {
            // Already in current bytes of the region: no rebasing.
            aligned = true
            arrived = ArrivedEdits(TextAlignment.edits(from: context.text.substring(region), to: run.resultText.string).map {
                ProviderEdit(range: ($0.range.lowerBound + region.lowerBound)..<($0.range.upperBound + region.lowerBound),
                             replacement: $0.replacement, category: "proofread", ruleID: "ALIGNED")
            })
        }
        // The rebase keeps order (it only shifts or drops), so ordering what the provider read
        // orders what is there now. Edits that came in order (or reversed) are read so; only
        // edits in no order are sorted, off the engine's thread (see ArrivedEdits).
        inOrder(arrived) { [weak self] edits in
            self?.makeSuggestions(session, context: context, from: edits, aligned: aligned, then: then)
        }
    }

    /// Makes the suggestions of `edits` (by start), a slice at a time (see above).
    private func makeSuggestions(_ session: Session, context: SessionContext, from edits: OrderedEdits, aligned: Bool,
                                 then: @escaping ([Suggestion], [Int]) -> Void) {
        let run = session.run
        var edits = edits
        var made: [Suggestion] = []
        // Room for as many as can stand in the region (suggestions do not overlap; at most
        // one insertion at each point), whatever count a broken provider sends.
        let room = min(edits.remaining, (session.region?.range?.count ?? 0) + 1)
        made.reserveCapacity(room)
        // Their places (`Session.placedSuggestions`), written as each is made.
        var places: [Int] = []
        places.reserveCapacity(room)
        context.reserve(forSuggestions: room)
        // Aligned edits are in the region's bytes of now: made in one piece, before the engine
        // can edit (the alignment itself already took one).
        let bound = aligned ? WorkSlice.Bound.elements(max(1, edits.remaining)) : WorkSlice.bound(on: queue, elements: Self.suggestionSlice)
        // The queued slices hold the coordinator weakly, as delivery does.
        weak let owner = self
        func slice() {
            guard let self = owner, self.session === session, session.run === run else { return }
            guard self.workMayProceed(session) else { return }
            guard let region = session.region?.range else {
                return self.fail(EmendError(.internal, "the session lost its working region"))
            }
            let shift = region.lowerBound - session.regionOriginalStart
            var item = WorkSlice(bound)
            while edits.remaining > 0, item.takesAnother() {
                guard let edit = edits.next() else { break }
                var moved = edit
                if !aligned {
                    // Request-relative bytes -> base bytes when the provider read the text -> base
                    // bytes now -> current bytes.
                    let read = (edit.range.lowerBound + run.requestOffset)..<(edit.range.upperBound + run.requestOffset)
                    guard let base = context.ledger.rebase(read, since: run.baseLogMark),
                          let now = context.ledger.currentRange(ofBase: base) else {
                        self.logger("dropped a suggestion at \(edit.range): the engine edited its text meanwhile")
                        continue
                    }
                    moved.range = now
                }
                let previous = made.last?.anchor.range
                let valid = moved.range.lowerBound >= region.lowerBound && moved.range.upperBound <= region.upperBound
                    && !context.text.touchesProtectedText(moved.range)
                    && (previous.map { $0.upperBound <= moved.range.lowerBound && !($0.isEmpty && $0.lowerBound == moved.range.lowerBound) } ?? true)
                    && context.text.substring(moved.range) != moved.replacement
                    && self.isCharacterBoundary(moved.range, in: context.text)
                guard valid else {
                    self.logger("dropped an invalid edit at \(moved.range)")
                    continue
                }
                places.append(made.count)
                made.append(Suggestion(index: made.count, contextID: context.id, anchor: context.anchor(moved.range), original: context.text.substring(moved.range),
                                       edit: moved, originalRange: (moved.range.lowerBound - shift)..<(moved.range.upperBound - shift)))
            }
            if edits.remaining > 0 {
                self.queue.post { slice() }
            } else {
                then(made, places)
            }
        }
        slice()
    }

    /// Whether both ends of `range` fall between characters (reads two bytes of the rope).
    private func isCharacterBoundary(_ range: Range<Int>, in text: DocumentText) -> Bool {
        (try? RopePositions(text.rope).utf8Range(location: range.lowerBound, length: range.count, from: .utf8)) != nil
    }

    /// After the result is in the text: select it, ask for marks, rest.
    /// (A step of the session's own work: `handle` let it go on, see `SessionState.on`.)
    func afterDelivery() {
        guard let session, let context = session.working else { return }
        let id = context.id, engineContext = context.engineContext
        guard session.tool != .proofread, let range = session.region?.range else { return handle(.regionSelected(session)) }
        call(.selectRanges, .done, invoke: { [unowned self] in self.delegate.selectRanges(self, contextID: id, engineContext: engineContext, ranges: [range], request: $0) },
             then: { _ in .regionSelected(session) })
    }

    /// The result's region is selected: the underlines of its suggestions are asked for.
    func requestResultUnderlines(_ session: Session) {
        // Looked through only for an engine that draws underlines (a million suggestions).
        let underlined = asksRectsInBatches || delegate.capabilities.contains(.underlineRects)
        guard underlined else { return requestUnderlines([], then: .underlinesKnown) }
        // Looked through a slice per queue item (see SlicedLoop.filter).
        SlicedLoop.filter(session.suggestions, on: queue, { $0.state == .pending }) { [weak self] pending in
            guard let self, self.session === session, self.workMayProceed(session) else { return }
            self.requestUnderlines(pending[...], then: .underlinesKnown)
        }
    }

    /// The result is in the text with its underlines: the engine is told it rests, then it rests.
    /// (A step of the session's own work: `handle` let it go on.)
    func announceResting() {
        guard session != nil else { return }
        changeState(to: .interactiveResting, then: .rests)
    }

    /// Asks for the underline rectangles of `suggestions`, then handles `then`.
    func requestUnderlines(_ suggestions: ArraySlice<Suggestion>, then: SessionEvent) {
        requestRects(RectRequest(purpose: .underline, rest: suggestions, then: then))
    }

    /// Asks for the rectangles of the request's suggestions: in batches when the engine takes
    /// them, else one after another (`.rectsAnswered` goes on with the rest); when none is
    /// left, handles what follows the request.
    func requestRects(_ request: RectRequest) {
        if asksRectsInBatches { return requestRectBatch(request) }
        if request.purpose == .underline, !delegate.capabilities.contains(.underlineRects) { return handle(request.then) }
        var after = request
        while let first = after.rest.first {
            after.rest = after.rest.dropFirst()
            guard let range = first.anchor.range, let context = try? context(first.contextID) else { continue }
            let id = context.id, engineContext = context.engineContext
            let stamp = LayoutStamp()
            let answered: (DelegateAnswer) -> SessionEvent = { [after] answer in
                var asked = after
                asked.askedIn = stamp.layout
                return .rectsAnswered(asked, [first], answer)
            }
            switch request.purpose {
            case .underline:
                call(.underlineRects, .rects, invoke: { [unowned self] in
                    stamp.layout = self.session?.layout ?? 0
                    self.delegate.requestsUnderlineRects(self, contextID: id, engineContext: engineContext, range: range, request: $0)
                }, then: answered)
            case .bounding:
                call(.boundingRects, .rects, invoke: { [unowned self] in
                    stamp.layout = self.session?.layout ?? 0
                    self.delegate.requestsBoundingRects(self, contextID: id, engineContext: engineContext, range: range, request: $0)
                }, then: answered)
            }
            return
        }
        handle(request.then)
    }

    /// The engine answered the rectangles of `suggestions` (`RectRequest.kept` says what
    /// each keeps): the request goes on with the rest.
    func rectsAnswered(_ request: RectRequest, _ suggestions: [Suggestion], _ answer: DelegateAnswer) {
        if request.purpose == .underline, let session, request.askedIn != session.layout, request.mayAskAgain {
            // The layout changed after the engine worked them out (a reflow then only forgets
            // rectangles: this request was still out): asked again in the layout now.
            var again = request
            again.askedAgain += 1
            again.rest = ArraySlice(suggestions.filter { $0.state == .pending }) + request.rest
            return requestRects(again)
        }
        if let lists = request.kept(answer, count: suggestions.count, batched: asksRectsInBatches) {
            for (suggestion, rects) in zip(suggestions, lists) {
                switch request.purpose {
                case .underline:
                    suggestion.setUnderlineRects(rects, layout: request.askedIn)
                    noteSuggestionChanged(suggestion.index)
                case .bounding:
                    suggestion.setBoundingRects(rects, layout: request.askedIn)
                }
            }
        }
        requestRects(request)
    }

    /// Limited behavior, summary, key points: hand the result to the engine. (A step of the
    /// session's own work: `handle` let it go on, or `resultReady` just decided it.)
    func present() {
        guard let session else { return }
        guard let context = session.working, let region = session.region?.range,
              let text = session.version(session.versions.count - 1) else {
            return fail(EmendError(.internal, "the session lost its working region"))
        }
        session.presentationBegins()
        let result = PresentedResult(contextID: context.id, engineContext: context.engineContext, tool: session.tool, range: region,
                                     text: text.string, attributeRuns: text.attributeRuns, blockIntents: text.blockIntents,
                                     styled: resolvedResultOptions.carriesStyling, explanation: session.run.resultExplanation)
        call(.presentResult, .presented, invoke: { [unowned self] in self.delegate.presentResult(self, result, request: $0) },
             then: { .presentAnswered($0) })
    }

    /// The engine answered the presented result: apply it (or a failure), else the session ends.
    func presentAnswered(_ answer: DelegateAnswer) {
        guard let session else { return }
        switch answer {
        case .unsupported where session.run.resultExplanation != nil:
            fail(EmendError(.poorResult, session.run.resultExplanation ?? ""))
        case .presented(.apply), .unsupported:
            session.deliveryBegins()
            transition(to: session.versions.count - 1, kind: .result, reason: .noninteractive, then: .presentedResultApplied)
        case .failed(let error): fail(error)
        default: endSession()
        }
    }
}
