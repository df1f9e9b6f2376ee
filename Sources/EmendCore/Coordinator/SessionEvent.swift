import EmendText

/// What happens to a session between two of its steps: the engine answered, a step of its
/// own work is done. Each case carries what the next step needs.
///
/// Why: a session's work is a chain of continuations (ask the engine, wait for its answer in
/// a later dispatch, go on). Written as nested closures, the way one session goes was spread
/// over the files that make each call; as events, every continuation comes back to one
/// function, `Coordinator.handle(_:)`, whose switch lists them in the order a session meets
/// them and names the step each one performs. Whether a step may still go on (a stop came,
/// the session ended) is the session's state's to say (`SessionState`), asked by the step.
indirect enum SessionEvent {
    /// A restore under way: its kind of change, what follows it, its pass (the engine may
    /// edit text a restoring replace was planned for: up to three), and the event handled
    /// when it resumes the session.
    struct Restore {
        let kind: ChangeKind
        let after: SessionState.AfterRestore
        var attempt: Int
        let resumed: SessionEvent?
    }

    // MARK: Starting

    /// The engine knows a session starts: ask it for the contexts of `scope`.
    case started(ContextScope, provider: WritingProvider)
    /// The engine answered with the contexts (or failed to).
    case contextsAnswered(DelegateAnswer, provider: WritingProvider)
    /// Every context's text is built (`built`: the ropes built elsewhere, in the order of the
    /// session's contexts, which take them and the engine's edits meanwhile): the work begins.
    case contextsBuilt(Session, provider: WritingProvider, built: [DocumentText])
    /// The engine knows a follow-up of `session` starts: anticipate it on the region.
    case followUpStarted(Session, provider: WritingProvider, previousResult: String?)
    /// The engine answered that the state becomes the given one: `then` follows.
    case stateChangeAnswered(DelegateAnswer, CoordinatorState, then: SessionEvent)
    /// The engine answered the preview of the planned animation: it is prepared.
    case previewAnswered(DelegateAnswer, Session.OpenAnimation, then: SessionEvent)
    /// The animation is prepared: `then` follows (unless a stop takes over).
    case animationPrepared(then: SessionEvent)
    /// The anticipation is prepared (or none is shown): the provider runs.
    case anticipated(provider: WritingProvider, previousResult: String?)

    // MARK: A result

    /// A part of `run`'s streamed result is in the text (or read as the original already):
    /// the next part, or what waited for the stream.
    case streamedPartDelivered(RunState)
    /// The engine refused a streamed part of `run`: the run fails.
    case streamedPartRefused(RunState)
    /// The animation the provider ran under is finished: its output becomes the result.
    case providerAnimationFinished
    /// The fact guard's answer went back out of the text: the provider is asked again.
    case factsWithdrawn(run: RunState, provider: WritingProvider, guidance: String)
    /// A poor result's streamed text went back: the engine is told the session leaves streaming.
    case poorResultWithdrawn
    /// The engine knows the session leaves streaming: the result goes to it to present.
    case presentationAnnounced
    /// The engine answered the presented result (apply, copy, dismiss, or failed).
    case presentAnswered(DelegateAnswer)
    /// A presented result the engine asked to apply is in the text: the session ends.
    case presentedResultApplied
    /// A proofread's suggestions are in the text.
    case suggestionsDelivered
    /// Version `target` is in the text as the result.
    case versionDelivered(target: Int)
    /// The result's region is selected (or needs no selection): its underlines are asked for.
    case regionSelected(Session)
    /// The underlines are known: the engine is told the session rests.
    case underlinesKnown
    /// The engine knows the session rests (or a step's rectangles are known): it rests.
    case rests

    // MARK: Delivering

    /// A delivery of Emend's changes back, a slice at a time (see `deliverRestoring`).
    struct RestoringSlices {
        let context: SessionContext
        let styled: Bool
        let kind: ChangeKind
        let reason: ReplaceReason
        let refused: SessionEvent?
        let delivered: SessionEvent
        /// The lengths of the long change a piece of which went out or in last (see
        /// `RestoringPiece`): when they are the same again, the piece was withdrawn and the
        /// change goes whole.
        var sizesBeforePiece: RestoringPiece.Sizes? = nil
        /// The base text of change `change` cut into the rope's chunks elsewhere, to be put
        /// back whole (nil chunks: asked for, none made); see `Coordinator.deliverRestoring`.
        var prepared: (change: Int, chunks: PreparedReplacement?)? = nil
    }

    /// The engine answered replace `sent` of `delivery`: the next one goes out.
    case replaceAnswered(Coordinator.Delivery, Coordinator.SentReplace, DelegateAnswer)
    /// A slice of the suggestions is in the text: the next slice goes out, then `then`.
    case suggestionSliceDelivered(ArraySlice<Suggestion>, then: SessionEvent)
    /// A slice of the restoring replaces was delivered: the changes below `below` go back next.
    case restoringSliceDelivered(below: Int, RestoringSlices)

    /// The engine answered the rectangles of `suggestions` (one, or a batch) of `request`:
    /// they are kept, and the rest are asked for.
    case rectsAnswered(RectRequest, [Suggestion], DelegateAnswer)

    // MARK: Reviewing

    /// A review step that shows a version, on its way: what a refusal takes back.
    struct ReviewStepBack {
        /// The version shown before the step, and the one it shows.
        let from: Int, target: Int
        let kind: ChangeKind
        let history: ReviewHistory
    }

    /// A suggestion's replacement or original is in the text (or, `refused`, the engine
    /// refused it): the session rests, the step's history is kept.
    case suggestionSet(ReviewHistory, refused: Bool)
    /// A review step's version `target` is in the text: the session rests.
    case reviewVersionShown(target: Int)
    /// The engine refused a replace of a review step: the version before goes back.
    case reviewStepRefused(ReviewStepBack)
    /// A refused review step is taken back (`refusedAgain`: the engine refused that too).
    case reviewStepTakenBack(ReviewStepBack, refusedAgain: Bool)

    // MARK: Ending

    /// A failed follow-up's animation is finished: the version it refined comes back.
    case failedFollowUpAnimationFinished(backTo: Int)
    /// A failed follow-up's version is back in the text: the engine is told the session rests.
    case followUpWithdrawn
    /// The open animation is finished: the delivered suggestions are marked not applied.
    case restoreAnimationFinished(Restore)
    /// `session`'s suggestions are marked: Emend's changes go back out of the text.
    case suggestionsUnapplied(Session, Restore)
    /// A pass of the restoring replaces was delivered: another pass, or what follows it.
    case restoreDelivered(Restore)
    /// The engine refused a replace that takes Emend's changes back: the session ends as it is.
    case restoreRefused
    /// `versions[target]` is back in the text (a restore that keeps the session): `then` follows.
    case versionRestored(Int, then: SessionEvent)
    /// The open animation is finished: the session ends (with `error`, when it failed).
    case endingAnimationFinished(EmendError?)
    /// The engine knows the session is over (inactive): it is let go.
    case inactiveAnnounced(Session)
}
