import EmendText

/// Turning a provider's output into suggestions, a new version, or a presented result.
extension Coordinator {
    func handleResult() {
        guard let session else { return }
        guard let context = session.working, let region = session.region?.range else {
            return fail(EmendError(.internal, "the session lost its working region"))
        }
        if session.cancelRequested { return finishStop() }
        if session.tool == .proofread {
            session.suggestions = makeSuggestions(session, context: context, region: region)
        } else {
            // What the provider read: finished sentences may have streamed into the region since.
            let original = session.run.requestRegionText
            let result = composedResult(richResult(session, original: original), session: session)
            session.run.resultExplanation = ResultQuality.problem(tool: session.tool, source: original.string, result: result.string)
            if session.run.resultExplanation == nil, session.run.providers.first?.needsFactCheck ?? true,
               let report = FactGuard.check(tool: session.tool, source: original.string, result: result.string, prompt: session.prompt) {
                logger("the result changes facts: \(report.changes.joined(separator: ", "))")
                if askAgain(session, report: report) { return }
                session.run.resultExplanation = report.explanation
            }
            session.versions.append(versionHunks(of: result, session: session, context: context))
        }
        session.hasResult = true
        if let explanation = session.run.resultExplanation {
            logger("a poor result is presented, not applied: \(explanation)")
            guard delegate.capabilities.contains(.presentResult) else { return fail(EmendError(.poorResult, explanation)) }
            // What streamed in goes back first: a poor result is shown, never left in the text.
            session.enter(.delivering)
            return transitionRestoring(to: 0, kind: .revert) { [weak self] in self?.present() }
        }
        if session.presents { return present() }
        session.enter(.delivering)
        if session.tool == .proofread {
            deliverSuggestions(session.suggestions) { [weak self] in self?.afterDelivery() }
        } else {
            let target = session.versions.count - 1
            transition(to: target, kind: .result) { [weak self] in
                guard let self, let session = self.session else { return }
                session.undoStack.append(.version(from: target - 1, to: target))
                session.redoStack.removeAll()
                session.followUpBase = nil
                self.afterDelivery()
            }
        }
    }

    /// Asks the provider once more, naming the facts its answer changed, when it can be asked
    /// again and this was its first answer; what streamed in goes back first. Returns whether
    /// it asked.
    private func askAgain(_ session: Session, report: FactGuard.Report) -> Bool {
        let run = session.run
        guard run.guidance == nil, let provider = run.providers.first, provider.canRetry, !session.cancelRequested else { return false }
        var guidance = "Your last answer changed facts of the text (\(report.changes.joined(separator: "; "))). Write it again and keep every name, number, date and negation exactly as the text states them"
        if !report.factsToKeep.isEmpty {
            guidance += ", in particular: " + report.factsToKeep.map { "‘\($0)’" }.joined(separator: ", ")
        }
        guidance += "."
        session.enter(.delivering)
        transitionRestoring(to: session.shownVersion, kind: .cancel) { [weak self] in
            guard let self, let session = self.session, session.run === run else { return }
            self.runProviders([provider], previousResult: run.previousResult, guidance: guidance) { [weak self] in self?.handleResult() }
        }
        return true
    }

    /// A result as a change of the base the provider read, rebased through whatever the
    /// engine edited since: its edits are kept, the result's changes beside them apply.
    private func versionHunks(of result: AttributedText, session: Session, context: SessionContext) -> [LedgerHunk] {
        let run = session.run
        let start = run.requestBaseStart
        let hunks = VersionEdits.edits(from: run.requestBase, to: result, styled: true).map { edit in
            LedgerHunk(base: (edit.range.lowerBound + start)..<(edit.range.upperBound + start),
                       baseText: run.requestBase.slice(edit.range), text: edit.replacement)
        }
        return context.ledger.rebase(hunks, since: run.baseLogMark)
    }

    /// Compose at a caret writes between words as a writer would: a space (or the paragraph
    /// break the text uses) where the new text would otherwise touch the text around it.
    private func composedResult(_ result: AttributedText, session: Session) -> AttributedText {
        guard session.tool == .compose, !result.string.isEmpty, let context = session.working,
              let region = session.region?.range, session.run.requestRegionText.string.isEmpty else { return result }
        let whole = context.text.string   // compose only, once
        let text = whole.utf8
        let before = region.lowerBound > 0 ? text[text.index(text.startIndex, offsetBy: region.lowerBound - 1)] : nil
        let after = region.upperBound < text.count ? text[text.index(text.startIndex, offsetBy: region.upperBound)] : nil
        let isSpace = { (byte: UInt8?) in byte.map { $0 == 0x20 || $0 == 0x0A || $0 == 0x09 || $0 == 0x0D } ?? true }
        let first = result.string.utf8.first, last = result.string.utf8.last
        // At the start of a paragraph the new text is a paragraph of its own: the break that
        // precedes it follows it too. Inside a line, a space.
        let prefix = whole.utf8.prefix(region.lowerBound)
        let breakAfter: String
        if prefix.isEmpty {
            // The start of the text starts a paragraph: the break the text itself uses.
            breakAfter = whole.contains("\n\n") ? "\n\n" : whole.contains("\n") ? "\n" : " "
        } else {
            breakAfter = prefix.suffix(2).elementsEqual("\n\n".utf8) ? "\n\n" : prefix.last == 0x0A ? "\n" : " "
        }
        var composed = result
        if !isSpace(before) && !isSpace(first) { composed = AttributedText(" ").appending(composed) }
        if !isSpace(after) && !isSpace(last) { composed = composed.appending(AttributedText(breakAfter)) }
        return composed
    }

    /// Valid, non-overlapping edits inside the region (full corrected text is aligned). The
    /// provider read the base as it was then: its edits are rebased through the engine's
    /// edits since, and those the engine edited over are dropped.
    private func makeSuggestions(_ session: Session, context: SessionContext, region: Range<Int>) -> [Suggestion] {
        let run = session.run
        // Request-relative bytes -> base bytes when the provider read the text -> base bytes now
        // -> current bytes.
        var edits: [ProviderEdit] = run.resultEdits.compactMap { edit in
            let read = (edit.range.lowerBound + run.requestOffset)..<(edit.range.upperBound + run.requestOffset)
            guard let base = context.ledger.rebase(read, since: run.baseLogMark),
                  let now = context.ledger.currentRange(ofBase: base) else {
                logger("dropped a suggestion at \(edit.range): the engine edited its text meanwhile")
                return nil
            }
            var moved = edit
            moved.range = now
            return moved
        }
        if edits.isEmpty && !run.resultText.isEmpty && !run.regionEdited {
            edits = TextAlignment.edits(from: context.text.substring(region), to: run.resultText).map {
                ProviderEdit(range: ($0.range.lowerBound + region.lowerBound)..<($0.range.upperBound + region.lowerBound),
                             replacement: $0.replacement, category: "proofread", ruleID: "ALIGNED")
            }
        }
        var accepted: [ProviderEdit] = []
        for edit in edits.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
            let valid = edit.range.lowerBound >= region.lowerBound && edit.range.upperBound <= region.upperBound
                && !context.text.touchesProtectedText(edit.range)
                && (accepted.last.map { $0.range.upperBound <= edit.range.lowerBound && !($0.range.isEmpty && $0.range.lowerBound == edit.range.lowerBound) } ?? true)
                && context.text.substring(edit.range) != edit.replacement
                && isCharacterBoundary(edit.range, in: context.text)
            if valid { accepted.append(edit) } else { logger("dropped an invalid edit at \(edit.range)") }
        }
        let shift = region.lowerBound - session.regionOriginalStart
        return accepted.map { edit in
            Suggestion(contextID: context.id, anchor: context.anchor(edit.range), original: context.text.substring(edit.range), edit: edit,
                       originalRange: (edit.range.lowerBound - shift)..<(edit.range.upperBound - shift), rank: run.firstBatchRank)
        }
    }

    /// Whether both ends of `range` fall between characters (reads two bytes of the rope).
    private func isCharacterBoundary(_ range: Range<Int>, in text: DocumentText) -> Bool {
        (try? RopePositions(text.rope).utf8Range(location: range.lowerBound, length: range.count, from: .utf8)) != nil
    }

    /// After the result is in the text: select it, ask for marks, rest.
    func afterDelivery() {
        guard let session else { return }
        if session.cancelRequested { return finishStop() }
        if session.tool == .proofread {
            // Other providers' suggestions stream in before the session rests.
            return deliverLateBatches { [weak self] in self?.finishDelivery() }
        }
        finishDelivery()
    }

    private func finishDelivery() {
        guard let session, let context = session.working else { return }
        if session.cancelRequested { return finishStop() }
        let id = context.id, engineContext = context.engineContext
        let select: (@escaping () -> Void) -> Void = { next in
            guard session.tool != .proofread, let range = session.region?.range else { return next() }
            self.call(.selectRanges, .done, invoke: { [unowned self] in self.delegate.selectRanges(self, contextID: id, engineContext: engineContext, ranges: [range], request: $0) }) { _ in next() }
        }
        select { [weak self] in
            self?.requestUnderlines(session.suggestions.filter { $0.state == .pending }[...]) { [weak self] in
                guard let self, let session = self.session else { return }
                if session.cancelRequested { return self.finishStop() }
                self.changeState(to: .interactiveResting) { session.enter(.resting) }
            }
        }
    }

    /// Asks for the underline rectangles of `suggestions`, one after another.
    func requestUnderlines(_ suggestions: ArraySlice<Suggestion>, then: @escaping () -> Void) {
        guard delegate.capabilities.contains(.underlineRects), let first = suggestions.first else { return then() }
        guard let range = first.anchor.range, let context = try? context(first.contextID) else {
            return requestUnderlines(suggestions.dropFirst(), then: then)
        }
        call(.underlineRects, .rects, invoke: { [unowned self] in self.delegate.requestsUnderlineRects(self, contextID: context.id, engineContext: context.engineContext, range: range, request: $0) }) { [weak self] answer in
            if case .rects(let rects) = answer { first.underlineRects = rects }
            self?.requestUnderlines(suggestions.dropFirst(), then: then)
        }
    }

    /// Limited behavior, summary, key points: hand the result to the engine.
    private func present() {
        guard let session else { return }
        if session.cancelRequested { return finishStop() }
        guard let context = session.working, let region = session.region?.range,
              let text = session.version(session.versions.count - 1) else {
            return fail(EmendError(.internal, "the session lost its working region"))
        }
        session.enter(.presenting)
        let result = PresentedResult(contextID: context.id, engineContext: context.engineContext, tool: session.tool, range: region,
                                     text: text.string, attributeRuns: text.attributeRuns, blockIntents: text.blockIntents,
                                     styled: resolvedResultOptions.carriesStyling, explanation: session.run.resultExplanation)
        call(.presentResult, .presented, invoke: { [unowned self] in self.delegate.presentResult(self, result, request: $0) }) { [weak self] answer in
            guard let self, let session = self.session else { return }
            switch answer {
            case .unsupported where session.run.resultExplanation != nil:
                self.fail(EmendError(.poorResult, session.run.resultExplanation ?? ""))
            case .presented(.apply), .unsupported:
                session.enter(.delivering)
                self.transition(to: session.versions.count - 1, kind: .result, reason: .noninteractive) { [weak self] in
                    self?.endSession()
                }
            case .failed(let error): self.fail(error)
            default: self.endSession()
            }
        }
    }
}
