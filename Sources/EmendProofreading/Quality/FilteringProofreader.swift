import EmendCore

/// A proofreading provider whose suggestions pass `ProofreadingFilter` on their way to the
/// session: the registry wraps every discovered provider that proofreads in one, so the
/// user's dictionary, ignored rules and the technical-prose rules apply to every checker,
/// third-party plugins included. Other tools pass through untouched. The dictionary files
/// are read again for each request, so a word added by the editor or the command counts at
/// the next check without a restart. A class, so that the registry hands out one object per
/// provider (as it does for the unwrapped ones).
public final class FilteringProofreader: WrappingProvider, @unchecked Sendable {
    public let base: WritingProvider
    /// Where `dictionary.txt` and `ignored-rules.txt` are (nil: none).
    public let dictionaryDirectory: String?
    public let preferences: ProofreadingPreferences

    public init(base: WritingProvider, dictionaryDirectory: String?, preferences: ProofreadingPreferences) {
        self.base = base
        self.dictionaryDirectory = dictionaryDirectory
        self.preferences = preferences
    }

    public func run(_ request: ProviderRequest, sink: ProviderSink) -> ProviderOutcome {
        guard request.tool == .proofread else { return base.run(request, sink: sink) }
        let dictionary = PersonalDictionary.load(directory: dictionaryDirectory)
        let preferences = self.preferences
        let filter = FilterInBackground({
            ProofreadingFilter(text: request.text, protectedRanges: request.protectedRanges, dictionary: dictionary,
                               preferences: preferences, systemNames: .installed, lexicon: .installed, language: request.language)
        }, textBytes: request.text.utf8.count)
        return base.run(request, sink: FilteredSink(base: sink, filter: filter))
    }

    private struct FilteredSink: ProviderSink {
        let base: ProviderSink
        let filter: FilterInBackground
        var isCancelled: Bool { base.isCancelled }
        func emitText(_ chunk: String) { base.emitText(chunk) }
        func emitEdit(_ edit: ProviderEdit) {
            let filter = filter.filter
            if case .keep = filter.verdict(for: edit) { base.emitEdit(filter.prepared(edit)) }
        }
        func log(_ message: String) { base.log(message) }
        func beginWorkOutlivingRun() -> @Sendable () -> Void { base.beginWorkOutlivingRun() }
    }
}
