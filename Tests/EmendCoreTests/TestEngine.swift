import XCTest
import Glibc
import EmendCore
import EmendText

/// A text engine for tests: a document String that really applies replaces, and a delegate
/// whose answers can come at once, later (held until the test releases them), never, or as a
/// refusal. It records every callback so tests can check what the coordinator asked.
final class TestEngine: CoordinatorDelegate, @unchecked Sendable {
    enum Answering { case atOnce, later, never, refuse }

    /// The engine's document and what is selected in it (UTF-8 bytes).
    var text: String
    var selection: Range<Int>
    var protectedRanges: [Range<Int>] = []
    var attributeRuns: [AttributeRun] = []
    var blockIntents: [BlockIntent] = []
    var capabilities: DelegateCapabilities = .all

    var contextsAnswering: Answering = .atOnce
    var replaceAnswering: Answering = .atOnce
    /// `.later` holds will-change-to-state requests until `releaseHeldStates`.
    var stateAnswering: Answering = .atOnce
    /// Refuse `.result` replaces once this many were applied (nil: never).
    var refuseResultsAfter: Int?
    /// When set: replaces of any kind are applied while it is above 0 (each takes one off);
    /// the next one is refused, and it is unset (a step refused part way).
    var replacesBeforeRefusing: Int?
    /// With `replacesBeforeRefusing`: every replace after the refused one is refused too (the
    /// engine refuses a step and its taking back).
    var keepsRefusing = false
    /// The kinds of the replaces `replacesBeforeRefusing` refused.
    private(set) var refusedKinds: [ChangeKind] = []
    var presentedAction: PresentedAction = .apply
    /// Answer present_result later (held until `releaseHeldPresents`).
    var presentAnswering: Answering = .atOnce
    /// States whose will-change the engine answers with a failure.
    var failStates: Set<CoordinatorState> = []
    /// Told of every replace the engine applies for Emend (range before, text inserted).
    var onApply: ((Range<Int>, String) -> Void)?
    /// What the engine inserts instead of a proposal (nil: the proposal as it is).
    var insertInstead: ((ReplaceProposal) -> String?)?
    /// Rectangles the engine reports for a byte range (hit testing and underlines).
    var rectsFor: (Range<Int>) -> [Rect] = { range in [Rect(x: Double(range.lowerBound) * 10, y: 0, width: Double(range.count) * 10, height: 10)] }

    /// Set while the test dispatches; callbacks outside it are recorded as contract breaches.
    var isDispatching = false
    private(set) var callbacksOutsideDispatch: [String] = []
    private(set) var states: [CoordinatorState] = []
    /// The coordinator's state when each will-change arrived.
    private(set) var statesBeforeChange: [CoordinatorState] = []
    private(set) var replaces: [ReplaceProposal] = []
    private(set) var appliedReplaces: [ReplaceProposal] = []
    private(set) var presented: [PresentedResult] = []
    /// The document and the coordinator's state when each result was presented.
    private(set) var presentContexts: [(text: String, state: CoordinatorState)] = []
    private(set) var selections: [[Range<Int>]] = []
    private(set) var preparedAnimations: [TextAnimation] = []
    /// The ranges prepare and finish named, with the length of the text when they did.
    private(set) var animationRanges: [(range: Range<Int>, textLength: Int)] = []
    /// `.later` holds preview requests until `releaseHeldPreviews`.
    var previewAnswering: Answering = .atOnce
    private(set) var heldPreviews: [RequestID] = []
    private(set) var finishedAnimations: [TextAnimation] = []
    private(set) var underlineRequests: [Range<Int>] = []
    private(set) var boundsRequests: [Range<Int>] = []
    private(set) var contextRequests: [ContextScope] = []
    /// Replaces awaiting `releaseHeldReplaces` (answering `.later`).
    private(set) var heldReplaces: [(request: RequestID, proposal: ReplaceProposal)] = []
    private(set) var heldContexts: [RequestID] = []
    private(set) var heldStates: [RequestID] = []
    private(set) var heldPresents: [RequestID] = []
    /// Preview handles given out and those finished (every prepare is finished once).
    private(set) var previewsGiven: [UInt] = []
    private(set) var previewsFinished: [UInt] = []
    private var nextPreview: UInt = 0xBEEF
    /// Every sessionEnded notification: its status and message, and the state then.
    private(set) var endings: [(status: EmendStatus, message: String, state: CoordinatorState)] = []
    /// The coordinator's completeness as each state change was asked (what an engine that
    /// reads it on the change to inactive sees).
    private(set) var completenessAtStates: [(state: CoordinatorState, completeness: Completeness?)] = []
    /// Answers the coordinator rejected (should stay empty).
    private(set) var answerErrors: [EmendError] = []

    init(_ text: String, selection: Range<Int> = 0..<0) {
        self.text = text
        self.selection = selection
    }

    // MARK: The engine's own edits

    /// Applies `replacement` to `range` of the document (UTF-8 bytes).
    func edit(_ range: Range<Int>, _ replacement: String) {
        var document = self.document
        document.replace(range, with: replacement)
        self.document = document
    }

    /// The document with its runs and intents (protected ranges kept as they are).
    var document: AttributedText {
        get { AttributedText(text, attributeRuns: attributeRuns, blockIntents: blockIntents) }
        set {
            text = newValue.string
            attributeRuns = newValue.attributeRuns
            blockIntents = newValue.blockIntents
        }
    }

    /// Applies and answers every held replace, in order.
    func releaseHeldReplaces(_ coordinator: Coordinator) {
        let held = heldReplaces
        heldReplaces.removeAll()
        for (request, proposal) in held {
            apply(proposal)
            reply(coordinator, request, .replaced(nil))
        }
    }

    /// Answers the held context request now.
    /// Refuses every held replace (the text stays as it is).
    func refuseHeldReplaces(_ coordinator: Coordinator) {
        let held = heldReplaces
        heldReplaces.removeAll()
        for (request, _) in held { reply(coordinator, request, .refused) }
    }

    func releaseHeldContexts(_ coordinator: Coordinator) {
        let held = heldContexts
        heldContexts.removeAll()
        for request in held { reply(coordinator, request, .contexts([contextDescription()])) }
    }

    /// Answers every held preview request now, each with a new handle.
    func releaseHeldPreviews(_ coordinator: Coordinator) {
        let held = heldPreviews
        heldPreviews.removeAll()
        for request in held {
            nextPreview += 1
            previewsGiven.append(nextPreview)
            reply(coordinator, request, .preview(nextPreview))
        }
    }

    /// Answers every held will-change-to-state now.
    func releaseHeldStates(_ coordinator: Coordinator) {
        let held = heldStates
        heldStates.removeAll()
        for request in held { reply(coordinator, request, .done) }
    }

    func contextDescription() -> ContextDescription {
        ContextDescription(text: AttributedText(text, attributeRuns: attributeRuns, blockIntents: blockIntents, protectedRanges: protectedRanges),
                           selection: selection, engineContext: 0xE1)
    }

    private func apply(_ proposal: ReplaceProposal) {
        onApply?(proposal.range, proposal.text)
        if proposal.styled {
            var document = self.document
            document.replace(proposal.range, withStyled: AttributedText(proposal.text, attributeRuns: proposal.attributeRuns,
                                                                        blockIntents: proposal.blockIntents))
            self.document = document
        } else {
            edit(proposal.range, proposal.text)
        }
        appliedReplaces.append(proposal)
    }

    private func reply(_ coordinator: Coordinator, _ request: RequestID, _ answer: DelegateAnswer) {
        do { try coordinator.answer(request, answer) } catch { answerErrors.append(error) }
    }

    private func note(_ name: String) {
        if !isDispatching { callbacksOutsideDispatch.append(name) }
    }

    // MARK: CoordinatorDelegate

    func requestsContexts(_ coordinator: Coordinator, scope: ContextScope, request: RequestID) {
        note("requestsContexts")
        contextRequests.append(scope)
        switch contextsAnswering {
        case .atOnce: reply(coordinator, request, .contexts([contextDescription()]))
        case .later: heldContexts.append(request)
        case .never: break
        case .refuse: reply(coordinator, request, .failed(EmendError(.refused, "the engine has no text to give")))
        }
    }

    func replace(_ coordinator: Coordinator, _ proposal: ReplaceProposal, request: RequestID) {
        note("replace")
        replaces.append(proposal)
        if proposal.kind == .result, let limit = refuseResultsAfter,
           appliedReplaces.filter({ $0.kind == .result }).count >= limit {
            return reply(coordinator, request, .refused)
        }
        if let left = replacesBeforeRefusing {
            if left == 0 {
                replacesBeforeRefusing = nil
                if keepsRefusing { replaceAnswering = .refuse }
                refusedKinds.append(proposal.kind)
                return reply(coordinator, request, .refused)
            }
            replacesBeforeRefusing = left - 1
        }
        switch replaceAnswering {
        case .atOnce:
            if let instead = insertInstead?(proposal) {
                var changed = proposal
                changed.text = instead
                changed.styled = false
                apply(changed)
                reply(coordinator, request, .replaced(instead))
            } else {
                apply(proposal)
                reply(coordinator, request, .replaced(nil))
            }
        case .later: heldReplaces.append((request, proposal))
        case .never: break
        case .refuse: reply(coordinator, request, .refused)
        }
    }

    func selectRanges(_ coordinator: Coordinator, contextID: UInt64, engineContext: UInt, ranges: [Range<Int>], request: RequestID) {
        note("selectRanges")
        selections.append(ranges)
        reply(coordinator, request, .done)
    }

    func requestsBoundingRects(_ coordinator: Coordinator, contextID: UInt64, engineContext: UInt, range: Range<Int>, request: RequestID) {
        note("requestsBoundingRects")
        boundsRequests.append(range)
        reply(coordinator, request, .rects(rectsFor(range)))
    }

    func requestsUnderlineRects(_ coordinator: Coordinator, contextID: UInt64, engineContext: UInt, range: Range<Int>, request: RequestID) {
        note("requestsUnderlineRects")
        underlineRequests.append(range)
        reply(coordinator, request, .rects(rectsFor(range)))
    }

    func prepareForTextAnimation(_ coordinator: Coordinator, _ animation: TextAnimation, contextID: UInt64, engineContext: UInt, range: Range<Int>, request: RequestID) {
        note("prepareForTextAnimation")
        preparedAnimations.append(animation)
        animationRanges.append((range, text.utf8.count))
        reply(coordinator, request, .done)
    }

    func requestsPreview(_ coordinator: Coordinator, _ animation: TextAnimation, contextID: UInt64, engineContext: UInt, range: Range<Int>, request: RequestID) {
        note("requestsPreview")
        if previewAnswering == .later { return heldPreviews.append(request) }
        nextPreview += 1
        previewsGiven.append(nextPreview)
        reply(coordinator, request, .preview(nextPreview))
    }

    func finishTextAnimation(_ coordinator: Coordinator, _ animation: TextAnimation, contextID: UInt64, engineContext: UInt, range: Range<Int>, preview: UInt, request: RequestID) {
        note("finishTextAnimation")
        finishedAnimations.append(animation)
        animationRanges.append((range, text.utf8.count))
        previewsFinished.append(preview)
        reply(coordinator, request, .done)
    }

    func willChangeToState(_ coordinator: Coordinator, _ state: CoordinatorState, request: RequestID) {
        note("willChangeToState")
        states.append(state)
        statesBeforeChange.append(coordinator.state)
        completenessAtStates.append((state, coordinator.completeness))
        if failStates.contains(state) { return reply(coordinator, request, .failed(EmendError(.refused, "the view is closing"))) }
        if stateAnswering == .later { return heldStates.append(request) }
        reply(coordinator, request, .done)
    }

    func presentResult(_ coordinator: Coordinator, _ result: PresentedResult, request: RequestID) {
        note("presentResult")
        presented.append(result)
        presentContexts.append((text, coordinator.state))
        if presentAnswering == .later { return heldPresents.append(request) }
        reply(coordinator, request, .presented(presentedAction))
    }

    func sessionEnded(_ coordinator: Coordinator, status: EmendStatus, message: String) {
        note("sessionEnded")
        endings.append((status, message, coordinator.state))
    }

    // MARK: Dispatching

    /// Runs the coordinator until it is idle; rethrows the failure of a session.
    func run(_ coordinator: Coordinator, timeoutMilliseconds: Int = 10_000) throws(EmendError) {
        isDispatching = true
        defer { isDispatching = false }
        try coordinator.runUntilIdle(timeoutMilliseconds: timeoutMilliseconds)
    }

    /// Runs `body` (a dispatch) as the engine's loop would: callbacks count as inside dispatch.
    func dispatching<T>(_ body: () throws -> T) rethrows -> T {
        isDispatching = true
        defer { isDispatching = false }
        return try body()
    }

    /// Dispatches (waiting on the poll descriptor in between) until `condition` holds.
    /// Returns false when it did not within `timeoutMilliseconds`.
    @discardableResult
    func pump(_ coordinator: Coordinator, timeoutMilliseconds: Int64 = 10_000, until condition: () -> Bool) throws(EmendError) -> Bool {
        isDispatching = true
        defer { isDispatching = false }
        let deadline = nowMilliseconds() + timeoutMilliseconds
        while true {
            try coordinator.dispatch()
            if condition() { return true }
            let left = deadline - nowMilliseconds()
            if left <= 0 { return false }
            var pfd = pollfd(fd: coordinator.pollDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&pfd, 1, Int32(min(left, 1000)))
        }
    }
}
