import EmendText

/// Everything one provider run of a session owns: replaced as a whole when the next run
/// starts (a follow-up), so nothing of an earlier run — a refused streamed replace, a stored
/// continuation, a half-streamed result — leaks into the next.
final class RunState {
    /// Whether finished sentences of the result go into the text while the provider writes.
    enum Streaming: Equatable {
        /// Streaming; this many bytes of `resultText` are in the text already, and those
        /// before `checked` were found there as streamed (the engine may answer a replace with
        /// other text; each part is read back once, before the next goes in, so checking costs
        /// a part's length, not the result's).
        case streaming(delivered: Int, checked: Int)
        /// The rest arrives with the whole result (markup, protected text moved, the engine
        /// edited the region, a refused replace, or the run was not streamed at all).
        case off
    }

    /// Output of the provider: text (as the pieces it came in: see `ResultPieces`), or edits
    /// (proofreading).
    var resultText = ResultPieces()
    var resultEdits = ArrivedEdits()
    /// The provider's run while it works.
    var providerRun: ProviderRun?
    /// Offset of the provider request's text in the context.
    var requestOffset = 0
    var streaming: Streaming = .streaming(delivered: 0, checked: 0)
    /// The result's sentences found so far, while streaming (each piece examined once).
    var sentences = StreamedSentences()
    /// The bytes no streamed part may write, read from the region at the first part (see
    /// `Coordinator.protectedCopies`); nil before it and once streaming stopped.
    var streamingProtectedCopies: [[UInt8]]?
    /// What waits for the streamed part in flight: the provider ended meanwhile.
    enum AfterStream {
        /// It finished well: its result is handled.
        case providerFinished
        /// The run failed (the provider did, or ran too long): the session fails with this.
        case fail(EmendError)
    }

    /// A streamed part on its way to the engine, and what waits for it to be delivered.
    enum StreamedPart {
        case none
        case inFlight(then: AfterStream?)
    }

    private(set) var streamedPart: StreamedPart = .none

    /// A streamed part is being delivered.
    var streamInFlight: Bool { if case .inFlight = streamedPart { true } else { false } }

    /// A streamed part goes to the engine.
    func partSent() { streamedPart = .inFlight(then: nil) }

    /// The engine refused the streamed part: nothing of the run waits any longer.
    func partRefused() { streamedPart = .none }

    /// The streamed part in flight went in: returns what waited for it (nothing is in
    /// flight now).
    func partDelivered() -> AfterStream? {
        defer { streamedPart = .none }
        if case .inFlight(let then) = streamedPart { return then }
        return nil
    }

    /// The provider ended (`next` follows): returns `next` to do now, or nil when it waits
    /// for the streamed part in flight (`partDelivered` hands it back).
    func providerEnded(_ next: AfterStream) -> AfterStream? {
        switch streamedPart {
        case .none: return next
        case .inFlight:
            streamedPart = .inFlight(then: next)
            return nil
        }
    }
    /// What the provider writes: Markdown (read back into styled text) or plain text.
    var writesMarkdown = false
    /// The region's text as the provider read it (before anything streamed in).
    var requestRegionText = AttributedText("")
    /// The base (original plus the engine's edits) of the region when the provider read it,
    /// where it began in base bytes, and how many engine edits the ledger held then: the
    /// result is a change of that base, rebased through the engine's edits since.
    var requestBase = AttributedText("")
    var requestBaseStart = 0
    var baseLogMark = 0
    /// The protected text behind each placeholder token of the Markdown the provider read.
    var placeholders: [String: PlaceholderText] = [:]
    /// What separates paragraphs in the region ("\n\n" or "\n").
    var paragraphSeparator = "\n\n"
    /// Why the result is poor (the same as the original, a summary longer than its text, a
    /// list repeating itself); nil for a good one.
    var resultExplanation: String?
    /// The engine edited the region while this run worked.
    var regionEdited = false
    /// The provider and the earlier result this run was asked with (asked again as they
    /// were when the fact guard finds a changed fact).
    var provider: WritingProvider?
    var previousResult: String?
    /// What this run was told to keep: set on the second request of a result the fact guard
    /// refused; nil on a first request.
    var guidance: String?
    /// What the provider was asked (a retry asks the same, with guidance).
    var request: ProviderRequest?

    /// Takes what `earlier` read: a retry asks about the same text, and its result is a
    /// change of the same base, rebased through every engine edit since that first read —
    /// so what the engine typed in the region meanwhile is kept, as in a result still
    /// being written (emend.h, update_range).
    func repeatRead(of earlier: RunState) {
        requestOffset = earlier.requestOffset
        writesMarkdown = earlier.writesMarkdown
        requestRegionText = earlier.requestRegionText
        requestBase = earlier.requestBase
        requestBaseStart = earlier.requestBaseStart
        baseLogMark = earlier.baseLogMark
        placeholders = earlier.placeholders
        paragraphSeparator = earlier.paragraphSeparator
        regionEdited = earlier.regionEdited
    }

    /// The provider's edits, which the run lets go of (as batches: see `SlicedRelease`).
    func takeEdits() -> [[ProviderEdit]] {
        var taken = ArrivedEdits()
        swap(&taken, &resultEdits)
        return taken.takeBatches()
    }

    /// The long texts the run holds (the result as it came, the region and the base as the
    /// provider read them, the earlier result, the request), which the run lets go of. Why:
    /// a rewrite of a million words holds several of them of megabytes each, and giving their
    /// pages back to the kernel when the ended session went took milliseconds of the dispatch
    /// that let go of it (`Session.releaseInSlices` frees them elsewhere when they are long).
    func takeTexts() -> RunTexts {
        var texts = RunTexts()
        swap(&texts.result, &resultText)
        swap(&texts.region, &requestRegionText)
        swap(&texts.base, &requestBase)
        swap(&texts.previousResult, &previousResult)
        swap(&texts.request, &request)
        return texts
    }

    var hasRunningProviders: Bool { providerRun != nil }

    /// Lets go of everything the run holds: providers are cancelled, and what waited for a
    /// streamed part is dropped.
    func dispose() {
        if streamInFlight { streamedPart = .inFlight(then: nil) }
        cancelProviders()
    }

    /// Cancels the provider if it still works.
    func cancelProviders() {
        providerRun?.cancel()
        providerRun = nil
    }
}

/// The long texts of an ended run (see `RunState.takeTexts`).
struct RunTexts: Sendable {
    var result = ResultPieces()
    var region = AttributedText("")
    var base = AttributedText("")
    var previousResult: String?
    /// What the provider was asked: the region's text again, and its Markdown.
    var request: ProviderRequest?

    /// Whether freeing them may cost more than a fraction of a millisecond.
    var areLong: Bool {
        let requestCount = (request?.text.utf8.count ?? 0) + (request?.markdown?.utf8.count ?? 0)
        return result.utf8Count + region.utf8Count + base.utf8Count + (previousResult?.utf8.count ?? 0) + requestCount >= 1 << 20
    }
}
