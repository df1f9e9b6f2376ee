import XCTest
@testable import EmendCore

/// The session's state machine on its own: every event in every state, the action it
/// returns and the state it leaves, and the events it refuses or ignores. (What the
/// coordinator does with the actions is what the session tests check.)
final class SessionStateTests: XCTestCase {
    typealias State = SessionState
    typealias Activity = SessionState.Activity

    static let activities: [Activity] = [.starting, .running, .delivering, .presenting, .resting]

    /// One of each kind of state, with and without a follow-up's base.
    static let states: [State] = [
        .starting(followUpBase: nil), .starting(followUpBase: 1),
        .running(followUpBase: nil), .running(followUpBase: 2),
        .delivering(followUpBase: nil), .delivering(followUpBase: 1),
        .presenting(followUpBase: nil), .presenting(followUpBase: 3),
        .resting,
    ] + activities.map { .stopRequested(during: $0) } + [
        .restoring(then: .end(.stopped)), .restoring(then: .end(.reverted)), .restoring(then: .end(.failed)),
        .restoring(then: .resume(followUpBase: nil)), .restoring(then: .resume(followUpBase: 2)),
        .restoring(then: .stopOnResuming),
        .ended,
    ]

    /// A state of `activity` with `base` (resting has none).
    static func state(_ activity: Activity, base: Int?) -> State {
        switch activity {
        case .starting: .starting(followUpBase: base)
        case .running: .running(followUpBase: base)
        case .delivering: .delivering(followUpBase: base)
        case .presenting: .presenting(followUpBase: base)
        case .resting: .resting
        }
    }

    // MARK: stop

    func testStopInEachState() {
        for start in Self.states {
            var state = start
            let action = state.stop(.engine)
            switch start {
            case .starting, .running, .delivering, .presenting, .resting:
                XCTAssertEqual(action, .interrupt(withdrawsQuestion: true), "\(start)")
                XCTAssertEqual(state, .stopRequested(during: start.activity!), "a follow-up's base is dropped: \(start)")
            case .stopRequested, .restoring(then: .end(.stopped)), .restoring(then: .stopOnResuming), .ended:
                XCTAssertEqual(action, .ignore, "\(start)")
                XCTAssertEqual(state, start, "\(start)")
            case .restoring(then: .end):
                XCTAssertEqual(action, .interrupt(withdrawsQuestion: true), "\(start)")
                XCTAssertEqual(state, .restoring(then: .end(.stopped)), "the original comes back anyway; the stop is noted")
            case .restoring(then: .resume):
                XCTAssertEqual(action, .interrupt(withdrawsQuestion: true), "\(start)")
                XCTAssertEqual(state, .restoring(then: .stopOnResuming), "\(start)")
            }
            XCTAssertEqual(state.isStopRequested, state != .ended, "after a stop, a stop is asked for until the end: \(start)")
        }
    }

    func testASecondStopIsIgnoredEverywhere() {
        for start in Self.states {
            var state = start
            _ = state.stop(.engine)
            let after = state
            XCTAssertEqual(state.stop(.engine), .ignore, "\(start)")
            XCTAssertEqual(state.stop(.regionReplaced), .ignore, "\(start)")
            XCTAssertEqual(state, after, "\(start)")
        }
    }

    func testAnEditOverTheRegionStopsOnlyWhileStartingOrRunning() {
        for start in Self.states {
            var state = start
            let action = state.stop(.regionReplaced)
            switch start {
            case .starting, .running:
                XCTAssertEqual(action, .interrupt(withdrawsQuestion: false), "\(start)")
                XCTAssertEqual(state, .stopRequested(during: start.activity!))
            default:
                XCTAssertEqual(action, .ignore, "\(start)")
                XCTAssertEqual(state, start, "\(start)")
            }
        }
    }

    // MARK: Continuations

    func testWorkStepsFinishAStopOnceAndHaltWhileItRestores() {
        for state in Self.states {
            let expected: State.Step
            switch state {
            case .stopRequested: expected = .finishStop
            // A restore that ends the session (stopped, reverted, failed) halts every step
            // queued before it: the work it would go on with is being taken back.
            case .restoring(then: .end), .restoring(then: .stopOnResuming), .ended: expected = .halt
            default: expected = .proceed
            }
            XCTAssertEqual(state.workResumes(), expected, "\(state)")
        }
    }

    func testWorkQueuedBeforeARevertOrFailureHaltsWhileItsRestoreRuns() {
        for ending in [State.Ending.reverted, .failed] {
            var state = State.resting
            XCTAssertTrue(state.restoreBegins(then: .end(ending)))
            XCTAssertEqual(state.workResumes(), .halt, "\(ending): nothing goes on while the original comes back")
            XCTAssertEqual(state.restoreFinished(), .end)
        }
        var resuming = State.delivering(followUpBase: 1)
        XCTAssertTrue(resuming.restoreBegins(then: .resume(followUpBase: 1)))
        XCTAssertEqual(resuming.workResumes(), .proceed, "a restore that keeps the session lets its work go on")
    }

    func testAnswersFinishAStopUnlessTheCallerHandlesIt() {
        for state in Self.states {
            if case .stopRequested = state {
                XCTAssertEqual(state.answerArrives(handlesStop: false), .finishStop, "\(state)")
            } else {
                XCTAssertEqual(state.answerArrives(handlesStop: false), .proceed, "\(state)")
            }
            XCTAssertEqual(state.answerArrives(handlesStop: true), .proceed, "\(state)")
        }
    }

    // MARK: fail

    func testFailInEachState() {
        for start in Self.states {
            var state = start
            let action = state.fail()
            switch start {
            case .ended:
                XCTAssertEqual(action, .ignore)
                XCTAssertEqual(state, .ended)
            case .restoring:
                XCTAssertEqual(action, .endNow, "\(start)")
                XCTAssertEqual(state, start)
            case .starting(followUpBase: let base?, _), .running(followUpBase: let base?, _), .delivering(followUpBase: let base?, _),
                 .presenting(followUpBase: let base?, _):
                XCTAssertEqual(action, .backTo(version: base), "a failed follow-up goes back to its base: \(start)")
                XCTAssertEqual(state, .delivering(followUpBase: nil), "and cannot go back twice")
            default:
                XCTAssertEqual(action, .restoreAndEnd, "\(start)")
                XCTAssertEqual(state, start)
            }
        }
    }

    // MARK: Restoring

    func testARestoreThatEndsEndsAsStoppedAfterAStop() {
        var state = State.stopRequested(during: .running)
        XCTAssertTrue(state.restoreBegins(then: .end(.failed)))
        XCTAssertEqual(state, .restoring(then: .end(.stopped)))
        XCTAssertTrue(state.isStopRequested)
        XCTAssertEqual(state.restoreFinished(), .end)
    }

    func testARevertRestoresThenEnds() {
        var state = State.resting
        XCTAssertTrue(state.restoreBegins(then: .end(.reverted)))
        XCTAssertEqual(state, .restoring(then: .end(.reverted)))
        XCTAssertFalse(state.isStopRequested)
        XCTAssertTrue(state.restoreBegins(then: .end(.reverted)), "a second pass of the same restore")
        XCTAssertEqual(state, .restoring(then: .end(.reverted)))
        XCTAssertEqual(state.restoreFinished(), .end)
    }

    func testARestoreKeepingTheSessionResumesDeliveringWithItsFollowUp() {
        var state = State.delivering(followUpBase: 2)
        XCTAssertTrue(state.restoreBegins(then: .resume(followUpBase: state.followUpBase)))
        XCTAssertNil(state.activity)
        XCTAssertEqual(state.restoreFinished(), .resume)
        XCTAssertEqual(state, .delivering(followUpBase: 2))
    }

    func testAStopDuringARestoreKeepingTheSessionFinishesOnResuming() {
        var state = State.delivering(followUpBase: nil)
        XCTAssertTrue(state.restoreBegins(then: .resume(followUpBase: nil)))
        XCTAssertEqual(state.stop(.engine), .interrupt(withdrawsQuestion: true))
        XCTAssertEqual(state.workResumes(), .halt, "nothing goes on while the restore runs")
        XCTAssertEqual(state.restoreFinished(), .resume)
        XCTAssertEqual(state, .stopRequested(during: .delivering))
        XCTAssertEqual(state.workResumes(), .finishStop, "the next step finishes the stop")
    }

    func testNoRestoreAfterTheEnd() {
        var state = State.ended
        XCTAssertFalse(state.restoreBegins(then: .end(.stopped)))
        XCTAssertEqual(state.restoreFinished(), .halt)
        XCTAssertEqual(state, .ended)
    }

    // MARK: Moves

    /// The event that moves a session to `activity` (a follow-up's start is its own test).
    static func moveEvent(to activity: Activity) -> ((inout State) -> Bool)? {
        switch activity {
        case .starting: nil
        case .running: { $0.providerStarts() }
        case .delivering: { $0.deliveryBegins() }
        case .presenting: { $0.presentationBegins() }
        case .resting: { $0.rests() }
        }
    }

    func testMovesBetweenActivities() {
        let allowed: Set<String> = [
            "starting→running", "starting→delivering",
            "running→delivering", "running→presenting",
            "delivering→running", "delivering→resting", "delivering→presenting",
            "resting→delivering",
            "presenting→delivering",
        ]
        for from in Self.activities {
            for to in Self.activities {
                guard let event = Self.moveEvent(to: to) else { continue }
                let legal = from == to || allowed.contains("\(from)→\(to)")
                var plain = Self.state(from, base: nil)
                XCTAssertEqual(event(&plain), legal, "\(from) → \(to)")
                XCTAssertEqual(plain, legal ? Self.state(to, base: nil) : Self.state(from, base: nil))
                // A follow-up's base goes along (resting has none to keep).
                if from != .resting {
                    var followUp = Self.state(from, base: 4)
                    XCTAssertEqual(event(&followUp), legal)
                    if legal { XCTAssertEqual(followUp.followUpBase, to == .resting ? nil : 4, "\(from) → \(to)") }
                }
                // A stop asked for stays asked for.
                var stopped = State.stopRequested(during: from)
                XCTAssertEqual(event(&stopped), legal)
                XCTAssertEqual(stopped, .stopRequested(during: legal ? to : from))
            }
        }
    }

    func testNothingMovesWhileRestoringOrAfterTheEnd() {
        for start in Self.states where start.activity == nil {
            for to in Self.activities {
                guard let event = Self.moveEvent(to: to) else { continue }
                var state = start
                XCTAssertFalse(event(&state), "\(start) → \(to)")
                XCTAssertEqual(state, start)
            }
        }
    }

    func testAFollowUpStartsOnlyFromRest() {
        for start in Self.states {
            var state = start
            XCTAssertEqual(state.followUpStarts(refining: 1), start == .resting, "\(start)")
            XCTAssertEqual(state, start == .resting ? .starting(followUpBase: 1) : start)
        }
    }

    func testADeliveredResultLeavesTheFollowUpNothingToGoBackTo() {
        for start in Self.states {
            var state = start
            state.resultDelivered()
            XCTAssertNil(state.followUpBase, "\(start)")
            XCTAssertEqual(state.activity, start.activity, "\(start)")
            XCTAssertEqual(state.isStopRequested, start.isStopRequested, "\(start)")
        }
    }

    func testEndIsReachedFromEveryState() {
        for start in Self.states {
            var state = start
            state.end()
            XCTAssertEqual(state, .ended)
            XCTAssertFalse(state.isStopRequested)
            XCTAssertEqual(state.workResumes(), .halt, "nothing goes on after the end")
        }
    }

    // MARK: Review steps

    func testReviewStepsOnlyWhileResting() {
        for state in Self.states {
            for hasResult in [false, true] {
                let expected: State.ReviewGate
                switch state {
                case .resting: expected = .open
                case .delivering: expected = hasResult ? .stepInFlight : .noResult
                default: expected = state.isStopRequested ? .stopping : .noResult
                }
                XCTAssertEqual(state.reviewStepAsked(hasResult: hasResult), expected, "\(state), result \(hasResult)")
            }
        }
    }

    // MARK: Whole sessions

    func testARewriteStoppedWhileItRests() {
        var state = State.starting(followUpBase: nil)
        XCTAssertTrue(state.providerStarts())
        XCTAssertTrue(state.deliveryBegins())
        XCTAssertTrue(state.rests())
        XCTAssertEqual(state, .resting)
        XCTAssertEqual(state.stop(.engine), .interrupt(withdrawsQuestion: true))
        XCTAssertEqual(state.workResumes(), .finishStop)
        XCTAssertTrue(state.restoreBegins(then: .end(.stopped)))
        XCTAssertEqual(state.restoreFinished(), .end)
        state.end()
        XCTAssertEqual(state.stop(.engine), .ignore)
    }

    func testAFollowUpThatFailsGoesBackAndRests() {
        var state = State.resting
        XCTAssertTrue(state.followUpStarts(refining: 1))
        XCTAssertTrue(state.providerStarts())
        XCTAssertEqual(state.fail(), .backTo(version: 1))
        XCTAssertTrue(state.restoreBegins(then: .resume(followUpBase: state.followUpBase)))
        XCTAssertEqual(state.restoreFinished(), .resume)
        XCTAssertTrue(state.rests())
        XCTAssertEqual(state, .resting)
    }

    // MARK: Events

    func testAWorkStepAfterAResultGoesOnAsWorkResumesInEachState() {
        let work: [SessionEvent] = [.suggestionsDelivered, .versionDelivered(target: 1), .presentationAnnounced, .underlinesKnown]
        let others: [SessionEvent] = [.rests, .restoreRefused, .providerAnimationFinished, .poorResultWithdrawn,
                                      .followUpWithdrawn, .presentedResultApplied, .endingAnimationFinished(nil)]
        for state in Self.states {
            for event in work {
                XCTAssertEqual(state.on(event), state.workResumes(), "\(state) \(event)")
            }
            for event in others {
                XCTAssertEqual(state.on(event), .proceed, "its step decides: \(state) \(event)")
            }
        }
        let answers: [SessionEvent] = [.contextsAnswered(.unsupported, provider: FixtureProvider()), .animationPrepared(then: .rests),
                                       .regionSelected(Session(generation: 1, tool: .proofread, prompt: nil, presents: false)),
                                       .rectsAnswered(RectRequest(purpose: .underline, rest: [], then: .rests), [], .unsupported),
                                       .presentAnswered(.presented(.apply))]
        let readWhateverHappens: [SessionEvent] = [.stateChangeAnswered(.done, .inactive, then: .rests),
                                                   .previewAnswered(.unsupported, Session.OpenAnimation(animation: .anticipate, contextID: 1, engineContext: 0, range: 0..<1), then: .rests)]
        for state in Self.states {
            for event in answers {
                XCTAssertEqual(state.on(event), state.answerArrives(handlesStop: false), "\(state) \(event)")
            }
            for event in readWhateverHappens {
                XCTAssertEqual(state.on(event), .proceed, "\(state) \(event)")
            }
        }
        XCTAssertEqual(State.stopRequested(during: .starting).on(answers[0]), .finishStop, "a stop takes over from the contexts")
        XCTAssertEqual(State.stopRequested(during: .delivering).on(.suggestionsDelivered), .finishStop)
        XCTAssertEqual(State.restoring(then: .end(.reverted)).on(.underlinesKnown), .halt)
        XCTAssertEqual(State.ended.on(.presentationAnnounced), .halt)
    }

    // MARK: Deliveries

    func testARefusedReplaceInEachState() {
        for state in Self.states {
            XCTAssertEqual(state.replaceRefused(recoverable: false), .fail, "no way back: the session fails: \(state)")
            let expected: State.RefusalAction = if case .stopRequested = state { .finishStop } else { .recover }
            XCTAssertEqual(state.replaceRefused(recoverable: true), expected, "\(state)")
        }
    }

    // MARK: Engine edits of the region, and coming to rest

    /// The states that note an engine edit of the region for the next rest.
    static let notingStates: [State] = [
        .starting(followUpBase: nil), .starting(followUpBase: 1), .running(followUpBase: nil), .running(followUpBase: 2),
        .delivering(followUpBase: nil), .delivering(followUpBase: 1), .presenting(followUpBase: nil), .presenting(followUpBase: 3),
        .restoring(then: .resume(followUpBase: nil)), .restoring(then: .resume(followUpBase: 2)),
    ]

    func testAnEngineEditOfTheRegionInEachState() {
        for start in Self.states {
            var state = start
            let action = state.engineEditedRegion()
            switch start {
            case .resting:
                XCTAssertEqual(action, .checkShownVersion, "resting: the version shown is made true at once")
                XCTAssertEqual(state, .resting)
            case .starting, .running, .delivering, .presenting, .restoring(then: .resume):
                XCTAssertEqual(action, .checkAtRest, "\(start)")
                XCTAssertTrue(state.regionEdited, "the check waits in the state: \(start)")
                XCTAssertEqual(state.activity, start.activity, "\(start)")
                XCTAssertEqual(state.followUpBase, start.followUpBase, "\(start)")
                XCTAssertEqual(state.isStopRequested, start.isStopRequested, "\(start)")
            case .stopRequested, .restoring, .ended:
                XCTAssertEqual(action, .none, "the session ends: the version shown is moot: \(start)")
                XCTAssertEqual(state, start)
            }
        }
    }

    func testComingToRestInEachState() {
        for start in Self.states {
            for edited in [false, true] {
                var state = start
                if edited { _ = state.engineEditedRegion() }
                let noted = state.regionEdited
                let action = state.comesToRest()
                switch start {
                case .delivering:
                    XCTAssertEqual(action, noted ? .restCheckingShownVersion : .rest, "\(start) edited \(edited)")
                    XCTAssertEqual(state, .resting)
                    XCTAssertFalse(state.regionEdited, "the check is done once")
                case .resting:
                    XCTAssertEqual(action, .rest)
                    XCTAssertEqual(state, .resting)
                case .stopRequested(during: .delivering), .stopRequested(during: .resting):
                    XCTAssertEqual(action, .rest, "a stop takes the changes back next")
                    XCTAssertEqual(state, .stopRequested(during: .resting))
                case .starting, .running, .presenting, .stopRequested, .restoring, .ended:
                    XCTAssertEqual(action, .refused, "\(start)")
                    XCTAssertFalse(state.rests(), "\(start)")
                }
            }
        }
    }

    /// An edit noted while a result or a step was on its way stays noted through every move
    /// until the session rests: the rest checks it.
    func testANotedEditIsCarriedUntilTheRest() {
        for start in Self.notingStates {
            var state = start
            XCTAssertEqual(state.engineEditedRegion(), .checkAtRest)
            var moved = state
            if moved.providerStarts() { XCTAssertTrue(moved.regionEdited, "running from \(start)") }
            moved = state
            if moved.deliveryBegins() { XCTAssertTrue(moved.regionEdited, "delivering from \(start)") }
            moved = state
            if moved.presentationBegins() { XCTAssertTrue(moved.regionEdited, "presenting from \(start)") }
            moved = state
            moved.resultDelivered()
            XCTAssertEqual(moved.regionEdited, true, "a delivered result: \(start)")
            moved = state
            if case .backTo = moved.fail() { XCTAssertTrue(moved.regionEdited, "a failed follow-up: \(start)") }
            moved = state
            if moved.resultReady(State.ReadyResult()) == .deliverVersion { XCTAssertTrue(moved.regionEdited, "\(start)") }
            moved = state
            if moved.activity != nil, moved.restoreBegins(then: .resume(followUpBase: moved.followUpBase)) {
                XCTAssertTrue(moved.regionEdited, "a restore that resumes: \(start)")
                XCTAssertEqual(moved.restoreFinished(), .resume)
                XCTAssertEqual(moved.comesToRest(), .restCheckingShownVersion, "\(start)")
            }
        }
    }

    func testAnEditBeforeARestoreThatResumesIsCheckedAtTheRest() {
        var state = State.resting
        XCTAssertTrue(state.followUpStarts(refining: 0))
        XCTAssertTrue(state.providerStarts())
        XCTAssertEqual(state.engineEditedRegion(), .checkAtRest)
        XCTAssertEqual(state.fail(), .backTo(version: 0))
        XCTAssertTrue(state.restoreBegins(then: .resume(followUpBase: state.followUpBase)))
        XCTAssertEqual(state.restoreFinished(), .resume)
        XCTAssertEqual(state.comesToRest(), .restCheckingShownVersion)
        XCTAssertEqual(state.comesToRest(), .rest, "checked once")
    }

    // MARK: A result, a follow-up

    /// Every kind of result: poor or not, an engine that presents or not, a session that
    /// presents or not, suggestions or a version.
    static let results: [State.ReadyResult] = [false, true].flatMap { poor in [false, true].flatMap { engine in
        [false, true].flatMap { session in [false, true].map { suggestions in
            State.ReadyResult(isPoor: poor, enginePresents: engine, sessionPresents: session, isSuggestions: suggestions)
        } } } }

    func testAResultIsPresentedOrDeliveredInEachState() {
        for start in Self.states {
            for result in Self.results {
                var state = start
                let action = state.resultReady(result)
                switch start {
                case .stopRequested:
                    XCTAssertEqual(action, .finishStop, "\(start) \(result)")
                    XCTAssertEqual(state, start)
                case .restoring(then: .end), .restoring(then: .stopOnResuming), .ended:
                    XCTAssertEqual(action, .halt, "\(start) \(result)")
                    XCTAssertEqual(state, start)
                case .restoring(then: .resume):
                    XCTAssertEqual(action, .refused, "no result is awaited while a restore that keeps the session runs")
                    XCTAssertEqual(state, start)
                case .starting, .running, .delivering, .presenting, .resting:
                    let expected: State.ResultAction = result.isPoor
                        ? (result.enginePresents ? .restoreThenPresent : .failPoorResult)
                        : result.sessionPresents ? .present : result.isSuggestions ? .deliverSuggestions : .deliverVersion
                    XCTAssertEqual(action, expected, "\(start) \(result)")
                    switch action {
                    case .restoreThenPresent, .deliverSuggestions, .deliverVersion:
                        XCTAssertEqual(state, .delivering(followUpBase: start.followUpBase), "a follow-up keeps its base: \(start)")
                    default:
                        XCTAssertEqual(state, start, "presenting moves when the result goes to the engine; a failure is fail's")
                    }
                }
            }
        }
    }

    func testAPoorResultIsNeverDelivered() {
        for result in Self.results where result.isPoor {
            var state = State.running(followUpBase: nil)
            XCTAssertTrue([.restoreThenPresent, .failPoorResult].contains(state.resultReady(result)), "\(result)")
        }
    }

    func testAFollowUpIsOpenOnlyOnAResultingRewrite() {
        for state in Self.states {
            XCTAssertEqual(state.followUpAsked(refinesResult: true), state == .resting ? .open : .noFinishedRewrite, "\(state)")
            XCTAssertEqual(state.followUpAsked(refinesResult: false), .noFinishedRewrite, "\(state)")
        }
    }
}
