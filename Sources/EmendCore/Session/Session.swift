import EmendText

/// One run of a Writing Tool and everything until it is accepted, reverted or stopped.
final class Session {
    /// One undoable Writing Tools change.
    enum UndoStep: Equatable {
        case version(from: Int, to: Int)
        case reject(Int)
        case accept(Int)

        /// The suggestion the step changes, if any.
        var suggestion: Int? {
            switch self {
            case .version: return nil
            case .reject(let index), .accept(let index): return index
            }
        }
    }

    /// A text animation the engine prepared and has not been told to finish yet.
    struct OpenAnimation {
        let animation: TextAnimation
        let contextID: UInt64
        let engineContext: UInt
        let range: Range<Int>
    }

    let generation: UInt64
    var tool: WritingTool
    var prompt: String?
    let presents: Bool
    /// Where the session is (see SessionState: each event moves it and says what to do).
    var state: SessionState = .starting(followUpBase: nil)
    /// Moves the state machine refused (empty unless the runtime has a bug).
    private(set) var refusedMoves: [String] = []
    var contexts: [SessionContext] = []
    /// The part of the working context the tool changes (sentences around the selection).
    var region: Anchor?
    /// Where the region began when the session began (suggestions' `originalRange` counts
    /// from there).
    var regionOriginalStart = 0
    /// The versions of the region as changes of its base (original plus the engine's edits):
    /// [] is the original, then each result (rewrite and follow-ups). Rebased on every engine
    /// edit, so showing any of them keeps what the engine typed.
    var versions: [[LedgerHunk]] = [[]]
    /// Which of `versions` the text shows now.
    var shownVersion = 0
    /// What is known of the version shown while its changes are reviewed (see
    /// `Coordinator.keepReviewedVersionTrue`).
    var shownVersionTrack = ShownVersionTrack.unknown
    /// How many times the version shown was made over the whole region and compared with it
    /// (what tests count: a version delivered as its plan said needs none, `ShownVersionPlan`).
    var regionComparisons = 0
    /// Whether a step's edits are being planned on a runtime thread (`VersionAlignment`).
    var alignment = VersionAlignment.none
    /// A result arrived (the region may show it, or the original on request).
    var hasResult = false
    var suggestions: [Suggestion] = [] {
        // A new set of suggestions: every one has its place, and no rectangle is known yet.
        didSet {
            if let places = placesMade, places.count == suggestions.count {
                placedSuggestions = places
            } else {
                placedSuggestions = Array(suggestions.indices)
            }
            placesMade = nil
            pointIndex = nil
        }
    }
    /// The places of suggestions made a slice at a time, written as each was made, that
    /// `setSuggestions` hands to `placedSuggestions`. Why: filling the places of a million
    /// suggestions at once (8 MB, its pages faulted in) took 3–4 ms of the dispatch that set them.
    private var placesMade: [Int]?

    /// Sets `made` as the suggestions, with `places` (`0..<made.count`, built as they were made).
    func setSuggestions(_ made: [Suggestion], places: [Int]) {
        placesMade = places
        suggestions = made
    }
    /// What a suggestion still pending reads as: pending while the result is reviewed,
    /// accepted once accept() kept the result. Why not a mark on each: accept() marked a
    /// million suggestions one by one in the engine's call (35 ms); this decides for all of
    /// them at once, and `state(of:)` reads it.
    private(set) var pendingSuggestionsRead = SuggestionState.pending

    /// Every suggestion still pending is accepted (the session is being accepted).
    func acceptPendingSuggestions() { pendingSuggestionsRead = .accepted }

    /// The state of `suggestion` as the engine reads it (see `pendingSuggestionsRead`).
    func state(of suggestion: Suggestion) -> SuggestionState {
        suggestion.state == .pending ? pendingSuggestionsRead : suggestion.state
    }

    /// The indices of the suggestions that still have a place in the text (all but the
    /// INVALID ones), ascending, so in text order: what emend_session_suggestion_at_offset
    /// searches by halving (INVALID ones have no range, and their last places may overlap).
    var placedSuggestions: [Int] = []
    /// The suggestions' bounding rectangles by height, once the engine gave them for this
    /// layout (what emend_session_suggestion_at_point searches); nil until then and after a reflow.
    var pointIndex: SuggestionPointIndex?
    /// Which layout of the engine's the suggestions' rectangles are of: a reflow begins a new
    /// one, and every rectangle known before is forgotten at once. Why: they were set to nil
    /// suggestion by suggestion in the engine's call (a million suggestions: a look at each).
    var layout = 0
    var undoStack: [UndoStep] = []
    var redoStack: [UndoStep] = []
    /// The current provider run; replaced whole for each run.
    var run = RunState()
    /// The preview handle the engine gave for the running animation.
    var preview: UInt = 0
    var openAnimation: OpenAnimation?
    /// The delegate call of this session awaiting its answer, if any.
    var awaited: (request: RequestID, kind: PendingRequests.Kind)?

    var awaitingAnswer: Bool { awaited != nil }

    /// A result rests in the text and no stop is on its way: the user may review it (accept,
    /// revert, undo, a follow-up). Between stop() and the restore it posts, the state is
    /// `stopRequested(during: .resting)`; a step begun then would run beside the restore (a
    /// follow-up's preview outliving the session, say), so it is refused instead.
    var isReviewable: Bool { state == .resting }

    // The session's moves (see SessionState): a move the machine refuses is recorded (the
    // state stays), so a continuation arriving late (after a stop, after the end) can never
    // revive the session. Each returns whether it moved.
    @discardableResult func providerStarts() -> Bool { recording("running") { $0.providerStarts() } }
    @discardableResult func deliveryBegins() -> Bool { recording("delivering") { $0.deliveryBegins() } }
    @discardableResult func presentationBegins() -> Bool { recording("presenting") { $0.presentationBegins() } }
    /// Comes to rest (`SessionState.comesToRest`); a refusal is recorded.
    func comesToRest() -> SessionState.RestAction {
        let from = state
        let action = state.comesToRest()
        if action == .refused { refusedMoves.append("\(from) → resting") }
        return action
    }

    /// Comes to rest, the caller having just made the version shown true (a check due is moot).
    @discardableResult func rests() -> Bool { comesToRest() != .refused }

    private func recording(_ target: String, _ event: (inout SessionState) -> Bool) -> Bool {
        let from = state
        guard event(&state) else {
            refusedMoves.append("\(from) → \(target)")
            return false
        }
        return true
    }

    /// A result is ready (`SessionState.resultReady`); a refusal is recorded.
    func resultReady(_ result: SessionState.ReadyResult) -> SessionState.ResultAction {
        let from = state
        let action = state.resultReady(result)
        if action == .refused { refusedMoves.append("\(from) → result") }
        return action
    }

    /// Emend's changes start going back (`SessionState.restoreBegins`); a refusal is recorded.
    @discardableResult
    func beginRestoring(then after: SessionState.AfterRestore) -> Bool {
        // The restore takes over from a step whose edits are being planned: the plan goes nowhere.
        guard recording("restoring", { $0.restoreBegins(then: after) }) else { return false }
        alignment.cancel()
        return true
    }

    init(generation: UInt64, tool: WritingTool, prompt: String?, presents: Bool) {
        self.generation = generation
        self.tool = tool
        self.prompt = prompt
        self.presents = presents
    }

    deinit { run.dispose() }

    var working: SessionContext? { contexts.first }

    var hasRunningProviders: Bool { run.hasRunningProviders }

    /// Cancels every provider still working.
    func cancelProviders() { run.cancelProviders() }

    /// The text of the region as it stands.
    var regionText: String? {
        guard let context = working, let range = region?.range else { return nil }
        return context.text.substring(range)
    }

    /// The region as `versions[index]` shows it over today's base, with its styling.
    func version(_ index: Int) -> AttributedText? {
        guard let context = working, let range = region?.range, versions.indices.contains(index) else { return nil }
        let base = context.baseSlice(range)
        let baseRange = context.ledger.baseRange(ofCurrent: range)
        return EditLedger.applying(versions[index], to: base, at: baseRange)
    }

    /// The suggestions, which the session lets go of (an ended session hands them to
    /// `SlicedRelease`: freeing a million at once held the engine's thread).
    func takeSuggestions() -> [Suggestion] {
        // Their places (8 MB for a million) go on a thread of their own, as `SlicedRelease`
        // frees large buffers; the assignment below then frees an empty array.
        var places: [Int] = []
        swap(&places, &placedSuggestions)
        if places.capacity >= 1 << 17 { SlicedRelease.freeElsewhere(consume places) }
        var taken: [Suggestion] = []
        swap(&taken, &suggestions)
        return taken
    }

    /// Forgets undo steps of a suggestion that can no longer change (the engine edited it).
    func dropSteps(ofSuggestion index: Int) {
        undoStack.removeAll { $0.suggestion == index }
        redoStack.removeAll { $0.suggestion == index }
    }
}

/// Whether the version shown is the changes the ledger holds in the region, as a review step
/// that changes one of them can keep it true where it changed.
enum ShownVersionTrack: Equatable {
    /// Not known: a step checks it over the whole region.
    case unknown
    /// `versions[version]` was the ledger's changes in the region when the ledger had seen
    /// `baseEdits` engine edits (an engine edit since may have rebased the two apart).
    case ledgersChanges(version: Int, baseEdits: Int)
    /// `versions[version]` showed what the region shows (as text) when the ledger was at
    /// `generation` and had seen `baseEdits` engine edits: after one engine edit more, the
    /// two are compared where the edit is, not over the whole region (see
    /// `Coordinator.versionShowsRegion(afterEngineEdit:...)`).
    case showsRegion(version: Int, generation: Int, baseEdits: Int)
    /// `versions[version]` was delivered into the region as its plan said, which makes the
    /// region show it (`ShownVersionPlan`), when the ledger was at `generation` and had seen
    /// `baseEdits` engine edits: at that generation no comparison is needed.
    case delivered(version: Int, generation: Int, baseEdits: Int)
}
