/// Where a Writing Tools session is, with what that place needs to know, and what each event
/// does there.
///
/// Why one type: the session's work is a chain of continuations (an engine's answer, a
/// provider's end, a queued slice), and each of them must know whether it may still go on —
/// after a stop, a failure, the end. Here each event is one method with an exhaustive switch
/// over the states: it moves the state and returns what the coordinator does (an action);
/// the coordinator only performs actions. What a stop does in each state is decided in one
/// place (`stop(_:)`), and a stop asked for is a state (`stopRequested`), not a flag beside one.
/// The type is pure (no delegate calls, no queue): `SessionStateTests` drives it directly.
///
/// The shape follows swift-nio's typed upgrader state machine: an enum whose cases carry
/// their data, events that return actions, impossible moves refused and recorded.
enum SessionState: Equatable, CustomStringConvertible {
    /// What the session does while no stop is asked for.
    enum Activity: Equatable, CustomStringConvertible {
        /// Asking for contexts or telling the engine the state changes.
        case starting
        /// Providers work on the region (a run's state is `Session.run`).
        case running
        /// Changes go to the engine: a result, a review step, a follow-up's way back.
        case delivering
        /// A result is with the engine to present (limited behavior, summaries, poor results).
        case presenting
        /// A result is in the text; the user reviews it.
        case resting

        var description: String {
            switch self {
            case .starting: "starting"
            case .running: "running"
            case .delivering: "delivering"
            case .presenting: "presenting"
            case .resting: "resting"
            }
        }
    }

    /// Why a session ends by taking Emend's changes back.
    enum Ending: Equatable {
        /// stop(), or an engine edit over all the text the tool works on.
        case stopped
        /// revert().
        case reverted
        /// A failure (a provider's, the engine's, a timeout).
        case failed
    }

    /// What follows once Emend's changes are back out of the text.
    enum AfterRestore: Equatable {
        /// The session ends.
        case end(Ending)
        /// The session goes on delivering (a poor result is presented next, a refused fact is
        /// asked again, a failed follow-up shows the version it refined); `followUpBase` and
        /// `regionEdited` as before the restore.
        case resume(followUpBase: Int?, regionEdited: Bool = false)
        /// As `resume`, but a stop came meanwhile: the next step of the work finishes the stop.
        case stopOnResuming
    }

    /// Asking for contexts, or for the engine's state change; `followUpBase` (in these first
    /// four states): while a follow-up runs, the version it refines, which a failure goes back to.
    /// `regionEdited`: the engine edited the region since the session last rested, so the
    /// version shown may have parted from the text; the next rest checks it (`comesToRest`)
    /// — only then, as the check reads the whole region.
    case starting(followUpBase: Int?, regionEdited: Bool = false)
    case running(followUpBase: Int?, regionEdited: Bool = false)
    case delivering(followUpBase: Int?, regionEdited: Bool = false)
    case presenting(followUpBase: Int?, regionEdited: Bool = false)
    /// A result is in the text and no stop is on its way: the user may review it.
    case resting
    /// stop() came while `during` went on. Nothing new is begun: the next step of that work
    /// (the engine's answer it waits for, or the queued restore) takes Emend's changes back.
    case stopRequested(during: Activity)
    /// Emend's changes are being taken back (every one, byte for byte); `then` follows.
    case restoring(then: AfterRestore)
    /// Over: nothing more reaches the engine but the ending's own calls.
    case ended

    // MARK: Reading the state

    /// The activity going on (stopped or not); nil while restoring and after the end.
    var activity: Activity? {
        switch self {
        case .starting: .starting
        case .running: .running
        case .delivering: .delivering
        case .presenting: .presenting
        case .resting: .resting
        case .stopRequested(let during): during
        case .restoring, .ended: nil
        }
    }

    /// Whether a stop was asked for (and the session has not ended): it is on its way, or
    /// Emend's changes are going back because of it.
    var isStopRequested: Bool {
        switch self {
        case .stopRequested, .restoring(then: .end(.stopped)), .restoring(then: .stopOnResuming): true
        case .starting, .running, .delivering, .presenting, .resting, .restoring, .ended: false
        }
    }

    var isRestoring: Bool { if case .restoring = self { true } else { false } }

    var isEnded: Bool { self == .ended }

    /// While a follow-up runs (and no stop is asked for): the version it refines.
    var followUpBase: Int? {
        switch self {
        case .starting(let base, _), .running(let base, _), .delivering(let base, _), .presenting(let base, _): base
        case .resting, .stopRequested, .restoring, .ended: nil
        }
    }

    /// Whether the engine edited the region since the session last rested (a check of the
    /// version shown is due at the next rest).
    var regionEdited: Bool {
        switch self {
        case .starting(_, let edited), .running(_, let edited), .delivering(_, let edited), .presenting(_, let edited),
             .restoring(then: .resume(_, let edited)): edited
        case .resting, .stopRequested, .restoring, .ended: false
        }
    }

    var description: String {
        switch self {
        case .starting, .running, .delivering, .presenting, .resting: activity?.description ?? ""
        case .stopRequested(let during): "\(during) (stop requested)"
        case .restoring(then: .end): "stopping"
        case .restoring: "restoring"
        case .ended: "ended"
        }
    }

    // MARK: Events

    /// What a step of the session's work (a provider's end, the analysis, a queued slice, a
    /// result put in) does when it is due.
    enum Step: Equatable {
        /// Go on.
        case proceed
        /// A stop is asked for: take Emend's changes back and end (`finishStop`) instead.
        case finishStop
        /// A stop is being carried out already: do nothing.
        case halt
    }

    /// A step of the session's own work is due. After the end nothing goes on (an analysis
    /// or a slice queued before a stop finished must not revive the session), nor while a
    /// restore that ends the session runs (stopped, reverted or failed: the work it would go
    /// on with is being taken back); a restore that keeps the session lets its work go on.
    func workResumes() -> Step {
        switch self {
        case .stopRequested: .finishStop
        case .restoring(then: .end), .restoring(then: .stopOnResuming), .ended: .halt
        case .starting, .running, .delivering, .presenting, .resting, .restoring(then: .resume): .proceed
        }
    }

    /// `event` is to be handled: whether its step goes on here. A step of the session's own
    /// work that follows a result (it is in the text, presented, underlined) goes as
    /// `workResumes` says; an engine's answer whose step does not see to a stop itself (the
    /// contexts, a prepared animation, the region selected, rectangles, the presented result)
    /// as `answerArrives` says — a stop asked for while the call was out finishes instead;
    /// every other event decides in its step (a state change, a preview and a replace must be
    /// read whatever happens next; an animation's finish belongs to the stop).
    func on(_ event: SessionEvent) -> Step {
        switch event {
        case .suggestionsDelivered, .versionDelivered, .presentationAnnounced, .underlinesKnown, .contextsBuilt:
            return workResumes()
        case .contextsAnswered, .animationPrepared, .regionSelected, .rectsAnswered, .presentAnswered:
            return answerArrives(handlesStop: false)
        case .started, .followUpStarted, .stateChangeAnswered, .previewAnswered,
             .anticipated, .streamedPartDelivered, .streamedPartRefused, .providerAnimationFinished, .factsWithdrawn,
             .poorResultWithdrawn, .presentedResultApplied, .rests, .replaceAnswered,
             .suggestionSliceDelivered, .restoringSliceDelivered, .suggestionSet, .reviewVersionShown,
             .reviewStepRefused, .reviewStepTakenBack, .failedFollowUpAnimationFinished, .followUpWithdrawn,
             .restoreAnimationFinished, .suggestionsUnapplied, .restoreDelivered, .restoreRefused, .versionRestored,
             .endingAnimationFinished, .inactiveAnnounced:
            return .proceed
        }
    }

    /// The engine answered a call of this session (or a delivery goes on to its next
    /// replace). `handlesStop`: the caller goes on after a stop itself (a replace's answer
    /// must be read whatever happens next; an animation's finish belongs to the stop).
    func answerArrives(handlesStop: Bool) -> Step {
        switch self {
        case .stopRequested: handlesStop ? .proceed : .finishStop
        case .starting, .running, .delivering, .presenting, .resting, .restoring, .ended: .proceed
        }
    }

    /// What a delivery does when the engine refused one of its replaces.
    enum RefusalAction: Equatable {
        /// A stop asked for while the replace was out takes over: finish it (`finishStop`).
        case finishStop
        /// Handle the delivery's own way back (a review step taken back, a streamed part's run
        /// failing, a restore ending as it is).
        case recover
        /// The session fails (EMEND_E_REFUSED; `fail` decides what that does here).
        case fail
    }

    /// The engine refused a replace of a delivery; `recoverable`: the delivery has its own
    /// way back. A stop takes over from a way back (which would otherwise rest the session
    /// with the stop still pending and nothing left to finish it), never from a failure.
    func replaceRefused(recoverable: Bool) -> RefusalAction {
        guard recoverable else { return .fail }
        switch self {
        case .stopRequested: return .finishStop
        case .starting, .running, .delivering, .presenting, .resting, .restoring, .ended: return .recover
        }
    }

    /// Whether the result can take a review step (accept, revert, a reject, undo, redo, show
    /// original or rewritten, review changes) now.
    enum ReviewGate: Equatable {
        /// Resting, no stop on its way: go on.
        case open
        /// A result or a review step is on its way to the engine: the step is in flight, not
        /// missing (EMEND_E_AGAIN: the same call works after the next dispatch).
        case stepInFlight
        /// A stop is on its way or its restore runs (EMEND_E_STATE).
        case stopping
        /// No finished result rests (EMEND_E_STATE).
        case noResult
    }

    /// The engine asks for a review step; `hasResult`: a result arrived in this session.
    func reviewStepAsked(hasResult: Bool) -> ReviewGate {
        switch self {
        case .resting: .open
        case .delivering where hasResult: .stepInFlight
        case .stopRequested, .restoring(then: .end(.stopped)), .restoring(then: .stopOnResuming): .stopping
        case .starting, .running, .delivering, .presenting, .restoring, .ended: .noResult
        }
    }

    // MARK: A result, a follow-up

    /// A result that is ready (suggestions made, or a new version analysed), as the
    /// coordinator knows it.
    struct ReadyResult: Equatable {
        /// The result is poor (it changes facts, or answers something else): it is shown,
        /// never applied.
        var isPoor = false
        /// The engine can present a result (it has the presentResult callback).
        var enginePresents = false
        /// The session presents its result (limited behavior, summary, key points).
        var sessionPresents = false
        /// Proofreading: the result is suggestions, not a version.
        var isSuggestions = false
    }

    /// What the coordinator does with a result that is ready.
    enum ResultAction: Equatable {
        /// A stop was asked for: finish it instead (`finishStop`).
        case finishStop
        /// A stop or a restore that ends the session is under way, or it ended: nothing.
        case halt
        /// No result is awaited here (a restore that keeps the session runs): nothing; the
        /// session records the refusal.
        case refused
        /// A poor result the engine cannot present: the session fails with its explanation.
        case failPoorResult
        /// A poor result: what streamed in goes back first (it is shown, never left in the
        /// text), the state leaves streaming, then it is presented.
        case restoreThenPresent
        /// Hand the result to the engine to present.
        case present
        /// Put the suggestions into the text.
        case deliverSuggestions
        /// Put the new version into the text.
        case deliverVersion
    }

    /// A result is ready. Decides, in one place, whether it is presented or delivered; the
    /// deliveries (and the restore before a poor result is presented) move to delivering.
    mutating func resultReady(_ result: ReadyResult) -> ResultAction {
        let base: Int?, edited: Bool
        switch self {
        case .stopRequested: return .finishStop
        case .restoring(then: .end), .restoring(then: .stopOnResuming), .ended: return .halt
        case .restoring(then: .resume): return .refused
        case .starting(let followUpBase, let regionEdited), .running(let followUpBase, let regionEdited),
             .delivering(let followUpBase, let regionEdited), .presenting(let followUpBase, let regionEdited):
            base = followUpBase
            edited = regionEdited
        case .resting:
            base = nil
            edited = false
        }
        let action: ResultAction
        if result.isPoor {
            guard result.enginePresents else { return .failPoorResult }
            action = .restoreThenPresent
        } else if result.sessionPresents {
            // The move to presenting comes when the result goes to the engine (`presentationBegins`).
            return .present
        } else {
            action = result.isSuggestions ? .deliverSuggestions : .deliverVersion
        }
        self = .delivering(followUpBase: base, regionEdited: edited)
        return action
    }

    /// Whether a follow-up may start now.
    enum FollowUpGate: Equatable {
        /// A finished rewrite rests: go on (the move is `followUpStarts(refining:)`, once
        /// the version it refines is known).
        case open
        /// No finished rewrite rests (a stop on its way, a step in flight, no result, a
        /// result that is not a rewrite): EMEND_E_STATE.
        case noFinishedRewrite
    }

    /// The engine asks for a follow-up; `refinesResult`: the session's result is one a
    /// follow-up can refine (a rewrite's or a composition's).
    func followUpAsked(refinesResult: Bool) -> FollowUpGate {
        switch self {
        case .resting: refinesResult ? .open : .noFinishedRewrite
        case .starting, .running, .delivering, .presenting, .stopRequested, .restoring, .ended: .noFinishedRewrite
        }
    }

    /// Who asks a session to stop.
    enum StopCause: Equatable {
        /// The engine called stop().
        case engine
        /// The engine replaced all the text the tool works on while it started or ran: what
        /// the providers would say is about text that is gone.
        case regionReplaced
    }

    /// What the coordinator does for a stop.
    enum StopAction: Equatable {
        /// Nothing: no session to stop, a stop is on its way already, or (an edit over the
        /// region) the session is past the point where its providers matter.
        case ignore
        /// Cancel the providers; withdraw the question the engine may hold open (contexts, a
        /// presented result, rectangles, a preview) when `withdrawsQuestion`; then, unless an
        /// answer is still awaited (whose continuation finishes the stop), post `finishStop`.
        case interrupt(withdrawsQuestion: Bool)
    }

    /// A stop is asked for. The one place that decides what a stop does in every state.
    mutating func stop(_ cause: StopCause) -> StopAction {
        switch (self, cause) {
        case (.ended, _), (.stopRequested, _), (.restoring(then: .end(.stopped)), _), (.restoring(then: .stopOnResuming), _):
            return .ignore
        case (.starting, .engine), (.running, .engine), (.delivering, .engine), (.presenting, .engine), (.resting, .engine):
            // A follow-up's base is moot: a stop ends the session with the original.
            self = .stopRequested(during: activity ?? .resting)
            return .interrupt(withdrawsQuestion: true)
        case (.restoring(then: .end), .engine):
            // Reverting or failing already: the original comes back anyway; the stop is noted
            // (the session "is stopping").
            self = .restoring(then: .end(.stopped))
            return .interrupt(withdrawsQuestion: true)
        case (.restoring(then: .resume), .engine):
            self = .restoring(then: .stopOnResuming)
            return .interrupt(withdrawsQuestion: true)
        case (.starting, .regionReplaced), (.running, .regionReplaced):
            self = .stopRequested(during: activity ?? .running)
            return .interrupt(withdrawsQuestion: false)
        case (.delivering, .regionReplaced), (.presenting, .regionReplaced), (.resting, .regionReplaced), (.restoring, .regionReplaced):
            return .ignore
        }
    }

    /// What the coordinator does when the session fails.
    enum FailAction: Equatable {
        /// The session ended already: nothing.
        case ignore
        /// Failing while taking changes back: keep the text as it is (the original plus
        /// delivered edits) and end.
        case endNow
        /// A failed follow-up: show `version` (the one it refined) again and rest; the session stays.
        case backTo(version: Int)
        /// Take Emend's changes back and end.
        case restoreAndEnd
    }

    /// The session fails (a provider, the engine, a timeout, a refused replace).
    mutating func fail() -> FailAction {
        switch self {
        case .ended: return .ignore
        case .restoring: return .endNow
        case .starting(followUpBase: let base?, let edited), .running(followUpBase: let base?, let edited),
             .delivering(followUpBase: let base?, let edited), .presenting(followUpBase: let base?, let edited):
            self = .delivering(followUpBase: nil, regionEdited: edited)
            return .backTo(version: base)
        case .starting, .running, .delivering, .presenting, .resting, .stopRequested:
            return .restoreAndEnd
        }
    }

    /// Emend's changes start going back; `then` follows. A stop asked for before makes a
    /// restore that ends the session end it as stopped, and one that resumes stop on resuming.
    /// Returns false (refused) after the end.
    mutating func restoreBegins(then: AfterRestore) -> Bool {
        switch self {
        case .ended:
            return false
        case .restoring:
            // Another pass of the same restore (the engine edited text a restoring replace
            // was planned for).
            return true
        case .stopRequested:
            switch then {
            case .end: self = .restoring(then: .end(.stopped))
            case .resume, .stopOnResuming: self = .restoring(then: .stopOnResuming)
            }
            return true
        case .starting, .running, .delivering, .presenting, .resting:
            // A check of the version shown that is due stays due after a restore that resumes.
            if case .resume(let base, let edited) = then {
                self = .restoring(then: .resume(followUpBase: base, regionEdited: edited || regionEdited))
            } else {
                self = .restoring(then: then)
            }
            return true
        }
    }

    /// What follows a restore.
    enum RestoreAction: Equatable {
        /// End the session.
        case end
        /// Go on with the work that waited for the restore.
        case resume
        /// Nothing (the session ended meanwhile).
        case halt
    }

    /// Emend's changes are back out of the text.
    mutating func restoreFinished() -> RestoreAction {
        switch self {
        case .restoring(then: .end): return .end
        case .restoring(then: .resume(let base, let edited)):
            self = .delivering(followUpBase: base, regionEdited: edited)
            return .resume
        case .restoring(then: .stopOnResuming):
            self = .stopRequested(during: .delivering)
            return .resume
        case .ended: return .halt
        case .starting, .running, .delivering, .presenting, .resting, .stopRequested:
            // Not restoring (a restore that found nothing to take back): the work goes on.
            return .resume
        }
    }

    // Moves between activities: one event each. A stop asked for stays asked for (the
    // activity under it moves); false when the session does not make that move from here
    // (refused: the state stays).

    /// A provider run starts: the first, a follow-up's (from starting), a retry's (from
    /// delivering, once what streamed in went back).
    mutating func providerStarts() -> Bool {
        switch self {
        case .starting(let base, let edited), .running(let base, let edited), .delivering(let base, let edited):
            self = .running(followUpBase: base, regionEdited: edited)
            return true
        case .stopRequested(during: .starting), .stopRequested(during: .running), .stopRequested(during: .delivering):
            self = .stopRequested(during: .running)
            return true
        case .presenting, .resting, .stopRequested, .restoring, .ended:
            return false
        }
    }

    /// Changes start going to the engine: a result, a review step, a poor result going back
    /// before it is presented, a presented result applied, a follow-up failing (even before
    /// its provider ran) on its way back.
    mutating func deliveryBegins() -> Bool {
        switch self {
        case .starting(let base, let edited), .running(let base, let edited), .delivering(let base, let edited),
             .presenting(let base, let edited):
            self = .delivering(followUpBase: base, regionEdited: edited)
            return true
        case .resting:
            self = .delivering(followUpBase: nil)
            return true
        case .stopRequested:
            self = .stopRequested(during: .delivering)
            return true
        case .restoring, .ended:
            return false
        }
    }

    /// A result goes to the engine to present, from a run or after what streamed in went back.
    mutating func presentationBegins() -> Bool {
        switch self {
        case .running(let base, let edited), .delivering(let base, let edited), .presenting(let base, let edited):
            self = .presenting(followUpBase: base, regionEdited: edited)
            return true
        case .stopRequested(during: .running), .stopRequested(during: .delivering), .stopRequested(during: .presenting):
            self = .stopRequested(during: .presenting)
            return true
        case .starting, .resting, .stopRequested, .restoring, .ended:
            return false
        }
    }

    /// What the coordinator does when the session comes to rest.
    enum RestAction: Equatable {
        /// The session does not rest from here (refused: the state stays).
        case refused
        /// It rests.
        case rest
        /// It rests; the engine edited the region while it did not (after the last replace of
        /// a step, say): the version shown is made true first, before undo, redo or show
        /// original can read it.
        case restCheckingShownVersion
    }

    /// What was being delivered is in the text: the result rests for review.
    mutating func comesToRest() -> RestAction {
        switch self {
        case .delivering(_, let edited):
            self = .resting
            return edited ? .restCheckingShownVersion : .rest
        case .resting:
            return .rest
        case .stopRequested(during: .delivering), .stopRequested(during: .resting):
            // The stop takes Emend's changes back next: the version shown is moot.
            self = .stopRequested(during: .resting)
            return .rest
        case .starting, .running, .presenting, .stopRequested, .restoring, .ended:
            return .refused
        }
    }

    /// `comesToRest`, for a caller that checks the version shown itself: whether it rested.
    mutating func rests() -> Bool { comesToRest() != .refused }

    /// What the coordinator does when the engine edited the session's region.
    enum RegionEditAction: Equatable {
        /// Resting: the version shown is made true now.
        case checkShownVersion
        /// A step or a result is on its way: the check waits for the next rest (noted in the state).
        case checkAtRest
        /// A stop, a restore that ends the session, or the end: the version shown is moot.
        case none
    }

    /// The engine edited the session's region.
    mutating func engineEditedRegion() -> RegionEditAction {
        switch self {
        case .resting: return .checkShownVersion
        case .starting(let base, _): self = .starting(followUpBase: base, regionEdited: true)
        case .running(let base, _): self = .running(followUpBase: base, regionEdited: true)
        case .delivering(let base, _): self = .delivering(followUpBase: base, regionEdited: true)
        case .presenting(let base, _): self = .presenting(followUpBase: base, regionEdited: true)
        case .restoring(then: .resume(let base, _)): self = .restoring(then: .resume(followUpBase: base, regionEdited: true))
        case .stopRequested, .restoring, .ended: return .none
        }
        return .checkAtRest
    }

    /// A follow-up starts from the resting result, refining version `base`.
    @discardableResult
    mutating func followUpStarts(refining base: Int) -> Bool {
        guard self == .resting else { return false }
        self = .starting(followUpBase: base)
        return true
    }

    /// The result of a run is in the text: a follow-up has nothing to go back to any more.
    mutating func resultDelivered() {
        switch self {
        case .starting(_, let edited): self = .starting(followUpBase: nil, regionEdited: edited)
        case .running(_, let edited): self = .running(followUpBase: nil, regionEdited: edited)
        case .delivering(_, let edited): self = .delivering(followUpBase: nil, regionEdited: edited)
        case .presenting(_, let edited): self = .presenting(followUpBase: nil, regionEdited: edited)
        case .resting, .stopRequested, .restoring, .ended: break
        }
    }

    /// The session is over (from any state).
    mutating func end() { self = .ended }
}
