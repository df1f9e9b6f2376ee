/// Reading suggestions in constant time, and telling the engine which changed.
extension Coordinator {
    /// How many suggestions the session has (any state). Constant time.
    public var suggestionCount: Int { session?.suggestions.count ?? 0 }

    /// Suggestion `index`, or nil past the end. Constant time (plus finding its anchor's
    /// marks in the rope): the session's array is the index, kept as suggestions change, so
    /// reading all n costs n, never n². (`suggestions` builds them all: for tests and tools.)
    public func suggestion(at index: Int) -> SuggestionInfo? {
        guard let session, session.suggestions.indices.contains(index) else { return nil }
        return SuggestionInfo(session.suggestions[index], state: session.state(of: session.suggestions[index]))
    }

    /// Notes that suggestion `index` changed. Outside a dispatch (the engine's own call: an
    /// accept, an edit) the engine's loop is woken, so the next dispatch reports it.
    func noteSuggestionChanged(_ index: Int) {
        noteSuggestionsChanged(index..<(index + 1))
    }

    func noteSuggestionsChanged(_ indices: Range<Int>) {
        let wasEmpty = suggestionChanges.isEmpty
        suggestionChanges.note(indices)
        if wasEmpty && !inDispatch && delegate.capabilities.contains(.suggestionsChanged) { queue.post {} }
    }

    /// Whether a call here may change the coordinator (its thread, no callback running).
    public var isOnOwnerThreadOutsideCallbacks: Bool {
        (try? checkThread()) != nil && !inDispatch
    }

    /// At the end of a dispatch: one notification of what changed during it (and since the
    /// last one), when the engine wants it.
    func reportSuggestionChanges() {
        guard let changed = suggestionChanges.take(total: suggestionCount),
              delegate.capabilities.contains(.suggestionsChanged) else { return }
        delegate.suggestionsChanged(self, changed, total: suggestionCount)
    }
}

extension Coordinator.SuggestionInfo {
    init(_ suggestion: Suggestion, state: SuggestionState) {
        self.init(contextID: suggestion.contextID, range: suggestion.reportedRange, original: suggestion.original,
                  replacement: suggestion.replacement, explanation: suggestion.explanation, category: suggestion.category,
                  ruleID: suggestion.ruleID, state: state)
    }
}
