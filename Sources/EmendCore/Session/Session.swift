import EmendText

/// One run of a Writing Tool and everything until it is accepted, reverted or stopped.
final class Session {
    enum Phase {
        case starting, running, delivering, resting, presenting, stopping, ended
    }

    /// One undoable Writing Tools change.
    enum UndoStep {
        case version(from: Int, to: Int)
        case reject(Int)
        case accept(Int)
    }

    let generation: UInt64
    var tool: WritingTool
    var prompt: String?
    let presents: Bool
    var phase: Phase = .starting
    var contexts: [SessionContext] = []
    /// The part of the working context the tool changes (sentences around the selection).
    var region: Anchor?
    /// Region texts with their styling: the original, then each result (rewrite and follow-ups).
    var versions: [AttributedText] = []
    /// Which of `versions` the text shows now.
    var shownVersion = 0
    var suggestions: [Suggestion] = []
    var undoStack: [UndoStep] = []
    var redoStack: [UndoStep] = []
    /// Output of the running provider.
    var resultText = ""
    var resultEdits: [ProviderEdit] = []
    /// Runs still working (one per provider; several when proofreading combines providers).
    var providerRuns: [ProviderRun] = []
    /// Offset of the provider request's text in the context.
    var requestOffset = 0
    /// Proofreading batches of providers that finished after the first, waiting to be merged.
    var lateBatches: [(rank: Int, edits: [ProviderEdit])] = []
    /// Rank (0 = most preferred) of the provider whose batch became `resultEdits`.
    var firstBatchRank = 0
    /// Continues the session once a late batch arrives while it waits for one.
    var resumeOnBatch: (() -> Void)?
    /// The engine edited text inside the region: late batches no longer fit and are dropped.
    var regionEditedExternally = false
    /// A provider's output became the result (later ones are merged into it).
    var firstBatchArrived = false
    /// Where the region began, and the protected ranges, when the providers read the text.
    var regionOriginalStart = 0
    var originalProtected: [Range<Int>] = []
    var preview: UInt = 0
    /// Bytes of `resultText` already streamed into the text while the provider runs; -1 once
    /// streaming gave up for this run.
    var streamedBytes = 0
    /// A streamed part is being delivered.
    var streamInFlight = false
    /// What to do once the streamed part in flight is delivered (the provider ended meanwhile).
    var afterStream: (() -> Void)?
    /// While a follow-up runs: the version it refines, which a failure goes back to.
    var followUpBase: Int?
    /// What the running provider writes: Markdown (read back into styled text) or plain text.
    var writesMarkdown = false
    /// The region's text as the running provider read it (before anything streamed in).
    var requestRegionText = AttributedText("")
    /// The protected text behind each placeholder token of the Markdown the provider read.
    var placeholders: [String: PlaceholderText] = [:]
    /// What separates paragraphs in the region ("\n\n" or "\n").
    var paragraphSeparator = "\n\n"
    /// Why the latest result is poor (the same as the original, a summary longer than its
    /// text, a list repeating itself); nil for a good one.
    var resultExplanation: String?
    /// Set by stop(): deliver nothing more and put the original back.
    var cancelRequested = false
    /// A delegate call of this session is awaiting its answer.
    var awaitingAnswer = false

    init(generation: UInt64, tool: WritingTool, prompt: String?, presents: Bool) {
        self.generation = generation
        self.tool = tool
        self.prompt = prompt
        self.presents = presents
    }

    var working: SessionContext? { contexts.first }

    var hasRunningProviders: Bool { !providerRuns.isEmpty }

    /// Cancels every provider still working.
    func cancelProviders() {
        for run in providerRuns { run.cancel() }
        providerRuns.removeAll()
    }

    /// The text of the region as it stands.
    var regionText: String? {
        guard let context = working, let range = region?.range else { return nil }
        return context.text.substring(range)
    }
}
