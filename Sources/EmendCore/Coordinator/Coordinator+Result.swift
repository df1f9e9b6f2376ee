import EmendText

/// Turning a provider's output into suggestions, a new version, or a presented result.
extension Coordinator {
    func handleResult() {
        guard let session, let context = session.working, let region = session.region?.range else { return }
        if session.cancelRequested { return finishStop() }
        if session.tool == .proofread {
            session.suggestions = makeSuggestions(session, context: context, region: region)
            session.versions.append(AttributedText(proposedProofreadText(session)))
        } else {
            // What the provider read: finished sentences may have streamed into the region since.
            let original = session.requestRegionText
            let result = richResult(session, original: original)
            session.resultExplanation = ResultQuality.problem(tool: session.tool, source: original.string, result: result.string)
            session.versions.append(result)
        }
        if let explanation = session.resultExplanation {
            logger("a poor result is presented, not applied: \(explanation)")
            guard delegate.capabilities.contains(.presentResult) else { return fail(EmendError(.poorResult, explanation)) }
            // What streamed in goes back first: a poor result is shown, never left in the text.
            session.phase = .delivering
            return transitionRestoring(to: 0, kind: .revert) { [weak self] in self?.present() }
        }
        if session.presents { return present() }
        session.phase = .delivering
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

    /// Valid, non-overlapping edits inside the region (full corrected text is aligned).
    private func makeSuggestions(_ session: Session, context: SessionContext, region: Range<Int>) -> [Suggestion] {
        if session.regionEditedExternally {
            logger("the provider's suggestions were dropped: the text changed while it worked")
            return []
        }
        // Request-relative bytes -> context bytes when the provider read the text -> now (the
        // engine may have typed before the region meanwhile).
        let shift = region.lowerBound - session.regionOriginalStart
        var edits = session.resultEdits.map { edit -> ProviderEdit in
            var moved = edit
            moved.range = (edit.range.lowerBound + session.requestOffset + shift)..<(edit.range.upperBound + session.requestOffset + shift)
            return moved
        }
        if edits.isEmpty && !session.resultText.isEmpty {
            edits = TextAlignment.edits(from: context.text.substring(region), to: session.resultText).map {
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
                && isCharacterBoundary(edit.range, in: context.text.string)
            if valid { accepted.append(edit) } else { logger("dropped an invalid edit at \(edit.range)") }
        }
        return accepted.map { edit in
            Suggestion(contextID: context.id, anchor: context.anchor(edit.range), original: context.text.substring(edit.range), edit: edit,
                       originalRange: (edit.range.lowerBound - shift)..<(edit.range.upperBound - shift), rank: session.firstBatchRank)
        }
    }

    private func isCharacterBoundary(_ range: Range<Int>, in text: String) -> Bool {
        let converter = PositionConverter(text)
        return (try? converter.utf8Range(location: range.lowerBound, length: range.count, from: .utf8)) != nil
    }

    /// The region's text with every suggestion applied.
    private func proposedProofreadText(_ session: Session) -> String {
        guard let context = session.working, let region = session.region?.range else { return "" }
        let edits = session.suggestions.compactMap { suggestion in
            suggestion.anchor.range.map {
                TextEdit(range: ($0.lowerBound - region.lowerBound)..<($0.upperBound - region.lowerBound), replacement: suggestion.replacement)
            }
        }
        return TextEdit.apply(edits, to: context.text.substring(region))
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
                self.changeState(to: .interactiveResting) { session.phase = .resting }
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
        guard let session, let context = session.working, let region = session.region?.range,
              let text = session.versions.last else { return }
        session.phase = .presenting
        let result = PresentedResult(contextID: context.id, engineContext: context.engineContext, tool: session.tool, range: region,
                                     text: text.string, attributeRuns: text.attributeRuns, blockIntents: text.blockIntents,
                                     styled: resolvedResultOptions.carriesStyling, explanation: session.resultExplanation)
        call(.presentResult, .presented, invoke: { [unowned self] in self.delegate.presentResult(self, result, request: $0) }) { [weak self] answer in
            guard let self, let session = self.session else { return }
            switch answer {
            case .unsupported where session.resultExplanation != nil:
                self.fail(EmendError(.poorResult, session.resultExplanation ?? ""))
            case .presented(.apply), .unsupported:
                session.phase = .delivering
                self.transition(to: session.versions.count - 1, kind: .result, reason: .noninteractive) { [weak self] in
                    self?.endSession()
                }
            case .failed(let error): self.fail(error)
            default: self.endSession()
            }
        }
    }
}
