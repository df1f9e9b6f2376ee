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
        let provider = try selectProvider(for: tool, id: providerID)
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
        changeState(to: presents ? .noninteractive : .interactiveStreaming) { [weak self] in
            self?.requestContexts(scope, provider: provider)
        }
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

    private func requestContexts(_ scope: ContextScope, provider: WritingProvider) {
        call(nil, .contexts, invoke: { [unowned self] in self.delegate.requestsContexts(self, scope: scope, request: $0) }) { [weak self] answer in
            guard let self, let session = self.session else { return }
            guard case .contexts(let descriptions) = answer, !descriptions.isEmpty else {
                if case .failed(let error) = answer { return self.fail(error) }
                return self.fail(EmendError(.invalidArgument, "the engine gave no context"))
            }
            if session.cancelRequested { return self.finishStop() }
            session.contexts = descriptions.map { description in
                defer { self.nextContextID += 1 }
                return SessionContext(id: self.nextContextID, description: description)
            }
            self.beginWork(provider: provider)
        }
    }

    /// The working region: the selection widened to whole sentences (the whole text for a
    /// caret), or the caret itself for compose.
    func workingRegion(of context: SessionContext, tool: WritingTool) -> Range<Int> {
        let text = context.text.string
        if tool == .compose { return context.selection }
        if context.selection.isEmpty { return 0..<context.text.utf8Count }
        return SentenceSegmenter.expandToSentences(context.selection, in: text)
    }

    private func beginWork(provider: WritingProvider) {
        guard let session, let context = session.working else { return }
        let regionRange = workingRegion(of: context, tool: session.tool)
        let region = context.anchor(regionRange, includesEdges: true)
        session.region = region
        session.versions = [context.text.substring(regionRange)]
        animate(.anticipate, region: regionRange) { [weak self] finishAnimation in
            self?.runProvider(provider, previousResult: nil) { [weak self] in
                finishAnimation { self?.handleResult() }
            }
        }
    }

    /// Asks for a preview and prepares the animation; `body` gets a closure that finishes it.
    func animate(_ animation: TextAnimation, region: Range<Int>, body: @escaping (_ finish: @escaping (@escaping () -> Void) -> Void) -> Void) {
        guard let session, let context = session.working, !session.presents else {
            return body { done in done() }
        }
        let id = context.id, engineContext = context.engineContext
        call(.preview, .preview, invoke: { [unowned self] in self.delegate.requestsPreview(self, animation, contextID: id, engineContext: engineContext, range: region, request: $0) }) { [weak self] answer in
            guard let self else { return }
            if case .preview(let handle) = answer { self.session?.preview = handle }
            self.call(.prepareAnimation, .done, invoke: { [unowned self] in self.delegate.prepareForTextAnimation(self, animation, contextID: id, engineContext: engineContext, range: region, request: $0) }) { [weak self] _ in
                body { done in
                    guard let self else { return }
                    let range = self.session?.region?.range ?? region
                    let preview = self.session?.preview ?? 0
                    self.call(.finishAnimation, .done, invoke: { [unowned self] in self.delegate.finishTextAnimation(self, animation, contextID: id, engineContext: engineContext, range: range, preview: preview, request: $0) }) { _ in done() }
                }
            }
        }
    }

    /// Runs the provider on the region; `then` runs when it finished successfully.
    func runProvider(_ provider: WritingProvider, previousResult: String?, then: @escaping () -> Void) {
        guard let session, let context = session.working, let region = session.region?.range else { return }
        if session.cancelRequested { return finishStop() }
        let text = context.text.string
        let surrounding = session.tool == .compose ? region : SentenceSegmenter.surroundingContext(region, in: text)
        let offset = surrounding.lowerBound
        let shifted = { (r: Range<Int>) in (r.lowerBound - offset)..<(r.upperBound - offset) }
        let protected = context.text.allProtectedRanges.filter { surrounding.contains($0.lowerBound) && $0.upperBound <= surrounding.upperBound }
        let request = ProviderRequest(
            tool: session.tool, text: context.text.substring(surrounding), selection: shifted(region),
            protectedRanges: protected.map(shifted), resultOptions: resolvedResultOptions,
            prompt: session.prompt, previousResult: previousResult)
        session.requestOffset = offset
        session.resultText = ""
        session.resultEdits = []
        session.streamedBytes = 0
        session.phase = .running
        let generation = session.generation
        let run = ProviderRun(queue: queue, logger: logger) { [weak self] event in
            guard let self, let session = self.session, session.generation == generation, session.phase != .ended else { return }
            switch event {
            case .text(let chunk):
                session.resultText += chunk
                self.streamPartialResult()
            case .edit(let edit): session.resultEdits.append(edit)
            case .finished(let outcome):
                session.providerRun = nil
                self.providerDeadline = nil
                self.afterStreamedPart {
                    switch outcome {
                    case .finished: then()
                    case .failed(let message): self.fail(EmendError(.provider, "\(provider.id): \(message)"))
                    }
                }
            }
        }
        session.providerRun = run
        providerDeadline = MonotonicClock.nowMilliseconds() + options.providerTimeoutMilliseconds
        do {
            try run.start(provider, request)
        } catch {
            session.providerRun = nil
            providerDeadline = nil
            fail(error)
        }
    }
}
