import EmendText

/// Starting a tool: contexts, the working region, the provider run.
extension Coordinator {
    /// Starts `tool` on the contexts the delegate gives for `scope`.
    public func start(_ tool: WritingTool, scope: ContextScope = .userSelection, prompt: String? = nil,
                      providerID: String? = nil) throws(EmendError) {
        try checkThread()
        let behavior = resolvedBehavior
        guard behavior != .none else {
            throw EmendError(.unsupported, "Writing Tools are off for this coordinator (behavior none)")
        }
        if tool.needsPrompt && (prompt ?? "").isEmpty {
            throw EmendError(.invalidArgument, "\(tool.name) needs a prompt")
        }
        let named = providerID ?? chosenProviders[tool]
        // Proofreading goes through the catalog's proofreader whether or not a checker is
        // named, so a chosen checker is filtered, time-limited and language-detected alike.
        let provider = if tool != .proofread {
            try selectProvider(for: tool, id: providerID)
        } else if let named {
            try catalog.proofreader(for: tool, named: named)
        } else {
            try catalog.proofreader(for: tool)
        }
        if tool == .followUp {
            return try startFollowUp(prompt: prompt ?? "", provider: provider)
        }
        guard session == nil, state == .inactive else {
            throw EmendError(.state, "a Writing Tools session is already running; accept, revert or stop it first")
        }
        lastFailure = nil
        let presents = behavior == .limited || (tool.presentsResult && delegate.capabilities.contains(.presentResult))
        let newSession = Session(generation: nextGeneration, tool: tool, prompt: prompt, presents: presents)
        nextGeneration += 1
        session = newSession
        changeState(to: presents ? .noninteractive : .interactiveStreaming, then: .started(scope, provider: provider))
    }

    /// The provider named for this request, else the one chosen for this coordinator, else
    /// the catalog's preferred one.
    func selectProvider(for tool: WritingTool, id: String?) throws(EmendError) -> WritingProvider {
        try catalog.provider(for: tool, named: id ?? chosenProviders[tool])
    }

    /// Chooses the provider for `tool` on this coordinator (nil: back to the preferred one).
    public func chooseProvider(_ id: String?, for tool: WritingTool) throws(EmendError) {
        try checkThread()
        if let id { _ = try catalog.provider(for: tool, named: id) }
        chosenProviders[tool] = id
    }

    func requestContexts(_ scope: ContextScope, provider: WritingProvider) {
        call(nil, .contexts, invoke: { [unowned self] in self.delegate.requestsContexts(self, scope: scope, request: $0) },
             then: { .contextsAnswered($0, provider: provider) })
    }

    func contextsAnswered(_ answer: DelegateAnswer, provider: WritingProvider) {
        guard let session else { return }
        guard case .contexts(let descriptions) = answer, !descriptions.isEmpty else {
            if case .failed(let error) = answer { return fail(error) }
            return fail(EmendError(.invalidArgument, "the engine gave no context"))
        }
        guard workMayProceed(session) else { return }
        let firstID = nextContextID
        nextContextID += UInt64(descriptions.count)
        buildContexts(descriptions, firstID: firstID, for: session, provider: provider)
    }

    /// Every context's text is built (at once, or its rope on a thread of its own: `built`):
    /// the work begins on the region. The region is made on the text as the engine answered it,
    /// then the engine's edits made while the ropes were built are taken, in order, exactly as
    /// if they had come after a build in the answering dispatch.
    func contextsBuilt(_ session: Session, provider: WritingProvider, built: [DocumentText]) {
        guard self.session === session, let working = session.working else { return }
        let edits = zip(session.contexts, built).map { ($0, $0.finishBuilding($1)) }
        makeRegion(session, in: working)
        for (context, edits) in edits { replayEngineEdits(edits, in: context, session: session) }
        // An edit over the whole region ended the session (a stop now under way).
        guard self.session === session, case .proceed = session.state.workResumes(), let region = session.region?.range else { return }
        animate(.anticipate, region: region, then: .anticipated(provider: provider, previousResult: nil))
    }

    /// The working region: the selection widened to whole sentences (the whole text for a
    /// caret), or the caret itself for compose.
    func workingRegion(of context: SessionContext, tool: WritingTool) -> Range<Int> {
        if tool == .compose { return context.selection }
        // All of the text is whole sentences (the widening gives it back as it is): not read
        // again, as the widening would (a whole document is one string and one scan).
        if context.selection.isEmpty || context.selection == 0..<context.text.utf8Count { return 0..<context.text.utf8Count }
        return SentenceSegmenter.expandToSentences(context.selection, length: context.text.utf8Count, read: context.text.rope.bytes)
    }

    private func makeRegion(_ session: Session, in context: SessionContext) {
        let regionRange = workingRegion(of: context, tool: session.tool)
        let region = context.anchor(regionRange, includesEdges: true)
        session.region = region
        session.regionOriginalStart = regionRange.lowerBound
        session.versions = [[]]
    }

    /// Asks for a preview and prepares the animation, then handles `event`. The animation stays
    /// open (`Session.openAnimation`) until the provider's end finishes it (`providerFinished`);
    /// whatever ends the session instead (stop, failure), the animation is finished then, so
    /// every prepare has its finish.
    func animate(_ animation: TextAnimation, region: Range<Int>, then event: SessionEvent) {
        guard let session, let context = session.working, !session.presents else {
            return handle(event)
        }
        let planned = Session.OpenAnimation(animation: animation, contextID: context.id, engineContext: context.engineContext, range: region)
        // Each callback names the region as it is when the callback runs: the engine may have
        // edited the text since the animation was planned.
        call(.preview, .preview, invoke: { [unowned self] in
            self.delegate.requestsPreview(self, animation, contextID: planned.contextID, engineContext: planned.engineContext,
                                          range: self.session?.region?.range ?? region, request: $0)
        }, then: { .previewAnswered($0, planned, then: event) })
    }

    /// The engine answered the preview of the `planned` animation: it is prepared.
    func previewAnswered(_ answer: DelegateAnswer, _ planned: Session.OpenAnimation, then event: SessionEvent) {
        guard let session else { return }
        if case .preview(let handle) = answer, handle != 0 {
            // A handle given must come back through finish, even when prepare is not
            // supported or a stop came meanwhile: the animation counts as open from here.
            session.preview = handle
            session.openAnimation = planned
        }
        let stopped = session.state.answerArrives(handlesStop: false) == .finishStop
        if stopped && session.openAnimation == nil { return finishStop() }
        // With a handle out, prepare comes before its finish even when a stop came
        // meanwhile: the engine sees prepare, then finish with its handle, as always.
        call(.prepareAnimation, .done, invoke: { [unowned self] in
            let now = self.session?.region?.range ?? planned.range
            self.session?.openAnimation = Session.OpenAnimation(animation: planned.animation, contextID: planned.contextID,
                                                                engineContext: planned.engineContext, range: now)
            self.delegate.prepareForTextAnimation(self, planned.animation, contextID: planned.contextID, engineContext: planned.engineContext,
                                                  range: now, request: $0)
        }, then: { _ in .animationPrepared(then: event) })
    }

    /// The animation is prepared: `event` follows (a stop took over in `SessionState.on`).
    func animationPrepared(then event: SessionEvent) {
        handle(event)
    }

    /// Tells the engine the prepared animation is over (with its preview handle), then handles
    /// `event`; at once when no animation is open.
    func finishOpenAnimation(then event: SessionEvent) {
        guard let session, let open = session.openAnimation else { return handle(event) }
        session.openAnimation = nil
        let preview = session.preview
        session.preview = 0
        call(.finishAnimation, .done, invoke: { [unowned self] in
            let range = self.session?.region?.range ?? open.range
            self.delegate.finishTextAnimation(self, open.animation, contextID: open.contextID, engineContext: open.engineContext,
                                             range: range, preview: preview, request: $0)
        }, then: { _ in event })
    }

    /// Runs one provider on the region; when it finished successfully (its output is the
    /// session's result) `providerFinished` handles the result. Proofreading by several checkers comes as one provider too:
    /// the catalog combines them (`ProviderCatalog.proofreader`).
    /// `retrying`: the run whose answer the fact guard refused. The retry asks the same
    /// request (the text as that run read it) with `guidance`, and is never streamed: its
    /// result arrives whole, around whatever the engine typed since, or is presented.
    func runProvider(_ provider: WritingProvider, previousResult: String?, guidance: String? = nil, retrying: RunState? = nil) {
        guard let session else { return }
        guard let context = session.working, let region = session.region?.range else {
            return fail(EmendError(.internal, "the session lost its working region"))
        }
        guard workMayProceed(session) else { return }
        // A fresh state for this run: nothing of an earlier run (a follow-up's) carries over.
        let state = RunState()
        session.run.dispose()
        session.run = state
        if let retrying, var request = retrying.request {
            request.guidance = guidance
            state.repeatRead(of: retrying)
            state.streaming = .off
            return launch(provider, request, state: state, session: session, previousResult: previousResult, guidance: guidance)
        }
        // The paragraphs around the region; a region of the whole text is its own (and the
        // whole document is not turned into one string for it).
        let whole = region == 0..<context.text.utf8Count
        let surrounding = session.tool == .compose || whole ? region : SentenceSegmenter.surroundingContext(region, length: context.text.utf8Count, read: context.text.rope.bytes)
        let offset = surrounding.lowerBound
        let shifted = { (r: Range<Int>) in (r.lowerBound - offset)..<(r.upperBound - offset) }
        // The region as the provider reads it: copied once, here (a copy costs a copy of its
        // bytes); the request's text is that copy when it is all the request reads.
        let regionText = session.tool == .proofread ? nil : context.slice(region)
        // A proofread's text is copied for the request here, or elsewhere when large (RequestText).
        let requestText = regionText.map { .here(surrounding == region ? $0.string : context.text.substring(surrounding)) }
            ?? RequestText(of: context.text, surrounding, copiedHereBelow: options.requestTextCopiedHereBelow)
        // Only the surrounding text is read for attachments (not the whole document); where it
        // is copied, when elsewhere.
        let protected = requestText.protectedRanges(of: context.text, surrounding).filter {
            surrounding.contains($0.lowerBound) && $0.upperBound <= surrounding.upperBound
        }
        var request = ProviderRequest(
            tool: session.tool, text: requestText.here ?? "",
            selection: shifted(region), protectedRanges: protected.map(shifted), resultOptions: resolvedResultOptions,
            prompt: session.prompt, previousResult: previousResult, language: options.language, markdown: nil)
        request.guidance = guidance
        request.timeLimitMilliseconds = options.providerTimeoutMilliseconds
        state.writesMarkdown = provider.writesMarkdown
        state.requestOffset = offset
        if let regionText {
            // What a text result is compared and aligned with (a proofread's edits need neither).
            state.requestRegionText = regionText
            // With none of Emend's changes inside the region its base is the copy just made
            // (a 16 MB region was copied out of the rope twice in one dispatch).
            state.requestBase = context.ledger.hasChanges(inside: region) ? context.baseSlice(region) : regionText
        }
        state.requestBaseStart = context.ledger.baseRange(ofCurrent: region).lowerBound
        state.baseLogMark = context.ledger.baseEdits.count
        state.streaming = options.streaming.streams ? .streaming(delivered: 0, checked: 0) : .off
        guard let regionText else {
            return launch(provider, request, text: requestText, state: state, session: session, previousResult: previousResult, guidance: guidance)
        }
        // The region is written as Markdown on a runtime thread, from the copy: the request
        // is the text as it was copied, as if the provider had started then. The engine's
        // edits meanwhile are kept as those made while a provider runs are (the ledger's
        // edits past `baseLogMark`, `regionEdited`): the result is rebased through them. A
        // stop, failure or follow-up meanwhile (this run is no longer the session's, or it
        // is no longer starting) drops the written request: the provider never starts.
        let styled = resolvedResultOptions.carriesStyling
        let written = { [weak self, request] (input: MarkdownInput) in
            guard let self, self.session === session, session.run === state, self.workMayProceed(session) else { return }
            // Still before its provider: a failure meanwhile (a follow-up going back) moved on.
            guard case .starting = session.state else { return }
            input.keep(in: state)
            var request = request
            request.markdown = input.markdown
            self.launch(provider, request, state: state, session: session, previousResult: previousResult, guidance: guidance)
        }
        // A short region is written here: a thread would cost more than the writing.
        if regionText.utf8Count < options.markdownWrittenHereBelow { return written(MarkdownInput(of: regionText, styled: styled)) }
        runElsewhere("the request's Markdown is written", { MarkdownInput(of: regionText, styled: styled) }, then: written)
    }

    /// Starts `provider` on `request` as the session's run `state`.
    func launch(_ provider: WritingProvider, _ request: ProviderRequest, state: RunState, session: Session,
                        previousResult: String?, guidance: String?) {
        completeness = nil
        // One instant for the provider and the coordinator (see ProviderRequest.deadline).
        var request = request
        let deadline = ProviderTimeout.adding(options.providerTimeoutMilliseconds, to: MonotonicClock.nowMilliseconds())
        request.deadline = deadline
        state.provider = provider
        state.previousResult = previousResult
        state.guidance = guidance
        state.request = request
        session.providerStarts()
        let generation = session.generation
        var edits = ArrivedEdits()
        let run = ProviderRun(queue: queue, logger: logger) { [weak self] event in
            // Events of an earlier run of the same session (a follow-up's predecessor) are moot.
            guard let self, let session = self.session, session.generation == generation, session.run === state,
                  !session.state.isEnded else { return }
            switch event {
            case .text(let chunk):
                state.resultText.append(chunk)
                if case .streaming(let delivered, _) = state.streaming {
                    if state.sentences.count - delivered > Self.longestStreamBacklog {
                        // Streaming fell far behind the provider: the rest arrives whole.
                        self.stopStreaming(state)
                    } else {
                        state.sentences.append(chunk)
                    }
                }
                self.streamPartialResult()
            case .edits(let batch): edits.append(batch)
            case .completeness(let report):
                // One queued before a failure (a time-out) came in: a failed session has none.
                if self.endingFailure == nil { self.completeness = report }
            case .finished(let outcome):
                state.providerRun = nil
                self.providerDeadline = nil
                // A failed text provider's session puts the original back: streaming more of
                // what it wrote would only be undone.
                if let message = outcome.failureReason {
                    self.stopStreaming(state)
                    // Named once: messages that already name the provider (a crashed host's) keep their words.
                    let named = message.contains(provider.id) ? message : "\(provider.id): \(message)"
                    self.logger("\(provider.id) failed: \(message)")
                    return self.afterStreamedPart(.fail(EmendError(.provider, named)))
                }
                state.resultEdits = edits
                self.afterStreamedPart(.providerFinished)
            }
        }
        state.providerRun = run
        do throws(EmendError) {
            try run.start(provider, request)
        } catch {
            state.providerRun = nil
            return fail(error)
        }
        providerDeadline = provider.answersByDeadline ? ProviderTimeout.adding(ProviderTimeout.graceMilliseconds, to: deadline) : deadline
    }

    /// The provider finished well (and no streamed part is in flight): the animation it ran
    /// under is finished, then its result is handled.
    func providerFinished() {
        finishOpenAnimation(then: .providerAnimationFinished)
    }
}
