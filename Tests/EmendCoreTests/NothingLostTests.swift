import XCTest
import EmendCore
import EmendText

/// Nothing lost: whatever sequence of review calls and engine edits, the text is the original,
/// the original plus delivered edits (the engine's own edits kept), or the accepted result,
/// and revert gives the original back with the engine's edits. Each test is a sequence an
/// outside engine found broken.
final class NothingLostTests: XCTestCase {
    private func type(_ engine: TestEngine, _ coordinator: Coordinator, _ range: Range<Int>, _ text: String) throws {
        engine.edit(range, text)
        try coordinator.updateRange(contextID: coordinator.contextIDs[0], range: range, text: text, reason: .typing)
    }

    private func rewrite(_ text: String) throws -> (TestEngine, Coordinator) {
        let (engine, coordinator) = try runTool(.rewriteFriendly, on: text)
        return (engine, coordinator)
    }

    // Item 1: typing while the original is shown, then show rewritten, redo and revert.
    func testTypingWhileTheOriginalIsShownIsKept() throws {
        let original = "I do not think it is ready."
        let (engine, coordinator) = try rewrite(original)
        try coordinator.showOriginal(true)
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, original)
        try type(engine, coordinator, engine.text.utf8.count..<engine.text.utf8.count, " Sorry.")
        try coordinator.showOriginal(false)
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "I don't think it's ready! Sorry.", "the rewrite shown again around the typed text")
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, original + " Sorry.")
    }

    func testTypingAfterAnUndoSurvivesRedoAndRevert() throws {
        let original = "I do not think it is ready."
        let (engine, coordinator) = try rewrite(original)
        try coordinator.undo()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, original)
        try type(engine, coordinator, 0..<0, "Well, ")
        try coordinator.redo()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "Well, I don't think it's ready!")
        try coordinator.undo()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "Well, " + original)
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "Well, " + original)
    }

    func testDeletedTextNeverComesBack() throws {
        let original = "I do not think it is ready. We are late."
        let engine = TestEngine(original, selection: 0..<5)
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.rewriteFriendly)
        try engine.run(coordinator)
        try coordinator.showOriginal(true)
        try engine.run(coordinator)
        // The user deletes the whole sentence while the original is shown.
        let sentence = try XCTUnwrap(byteRange(of: "I do not think it is ready. ", in: engine.text))
        try type(engine, coordinator, sentence, "")
        try coordinator.showOriginal(false)
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "We are late.")
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "We are late.")
    }

    func testAFollowUpAfterTheRegionWasDeletedEnds() throws {
        let (engine, coordinator) = try rewrite("I do not think it is ready.")
        try type(engine, coordinator, 0..<engine.text.utf8.count, "")
        try coordinator.start(.followUp, prompt: "make it warmer")
        // It must end (a result or a failure), never hang in streaming.
        do { try engine.run(coordinator, timeoutMilliseconds: 5_000) } catch {
            XCTAssertNotEqual(error.status, .busy, error.message)
        }
        XCTAssertNotEqual(coordinator.state, .interactiveStreaming)
        try? coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "", "what the user deleted stays deleted")
    }

    // Item 2: reject of a deletion, undo, redo, revert.
    func testRejectingADeletionUndoesAndRedoesExactly() throws {
        let original = "We go over the the draft."
        let (engine, coordinator) = try runTool(.proofread, on: original)
        XCTAssertEqual(engine.text, "We go over the draft.")
        let index = try XCTUnwrap(coordinator.suggestions.firstIndex { $0.replacement.isEmpty })
        try coordinator.rejectSuggestion(index)
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, original)
        try coordinator.undo()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "We go over the draft.", "undo of the reject deletes the word again")
        try coordinator.redo()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, original, "redo rejects it again, no third word")
        try coordinator.undo()
        try engine.run(coordinator)
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, original)
    }

    // Item 3: the engine inserts an attachment in place of a proposal; revert removes it.
    func testRevertRemovesWhatTheEngineInsertedForAProposal() throws {
        let original = "Teh cat sat."
        let engine = TestEngine(original)
        engine.insertInstead = { proposal in proposal.text == "The" ? "The \u{FFFC}" : nil }
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.proofread)
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "The \u{FFFC} cat sat.")
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, original)
    }

    // Item 4: an accepted suggestion the user then edits cannot be undone back to pending.
    func testUndoNeverRevivesASuggestionTheUserEdited() throws {
        let engine = TestEngine("See you tomorow.")
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.proofread)
        try engine.run(coordinator)
        try coordinator.acceptSuggestion(0)
        let range = try XCTUnwrap(coordinator.suggestions[0].range)
        try type(engine, coordinator, (range.lowerBound + 1)..<(range.lowerBound + 2), "O")
        XCTAssertEqual(coordinator.suggestions[0].state, .invalid)
        XCTAssertFalse(coordinator.canUndo, "the step of an edited suggestion is gone")
        XCTAssertThrowsEmend(.state) { try coordinator.undo() }
        XCTAssertThrowsEmend(.state) { try coordinator.rejectSuggestion(0) }
        XCTAssertEqual(coordinator.suggestions[0].state, .invalid)
    }

    // Item 5: engine edits mid-stream; revert puts the original back around them.
    func testRevertAfterAnEngineEditMidStream() throws {
        let rest = (1...12).map { "It is step \($0)." }.joined(separator: " ")
        let original = "I do not think it is ready. " + rest
        let engine = TestEngine(original)
        var opts = options()
        opts.streaming = .sentences(minimumNewBytes: 16)
        let coordinator = try makeCoordinator(engine, options: opts, provider: FixtureProvider(chunkDelayMicroseconds: 5_000))
        try coordinator.start(.rewriteFriendly)
        XCTAssertTrue(try engine.pump(coordinator) { !engine.appliedReplaces.isEmpty })
        // The user types at the very end while the rest is still being written.
        let end = engine.text.utf8.count
        try type(engine, coordinator, end..<end, " P.S.")
        try engine.run(coordinator)
        XCTAssertEqual(coordinator.state, .interactiveResting)
        XCTAssertTrue(engine.text.hasSuffix(" P.S."), engine.text)
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, original + " P.S.")
    }

    // Item 6: a deletion over the whole region while proofreading runs ends the run.
    func testDeletingTheWholeRegionWhileProofreadingDoesNotHang() throws {
        let engine = TestEngine("See you tomorow. [fixture:hang]")
        let coordinator = try makeCoordinator(engine, options: options(providerTimeout: 60_000))
        try coordinator.start(.proofread)
        XCTAssertTrue(try engine.pump(coordinator) { engine.contextRequests.count == 1 && coordinator.state == .interactiveStreaming })
        try type(engine, coordinator, 0..<engine.text.utf8.count, "Gone.")
        XCTAssertTrue(try engine.pump(coordinator, timeoutMilliseconds: 5_000) { coordinator.state != .interactiveStreaming },
                      "the session must not stay streaming for text that no longer exists")
        try? coordinator.revert()
        try? coordinator.stop()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "Gone.")
    }

    // Item 7: a follow-up after a refused streamed replace, then another follow-up.
    func testAFollowUpAfterARefusedStreamedReplaceDoesNotHang() throws {
        let text = (1...10).map { "It is part \($0) of it." }.joined(separator: " ")
        let engine = TestEngine(text)
        var opts = options()
        opts.streaming = .sentences(minimumNewBytes: 8)
        let coordinator = try makeCoordinator(engine, options: opts, provider: FixtureProvider(chunkDelayMicroseconds: 1_000))
        try coordinator.start(.rewriteFriendly)
        try engine.run(coordinator)
        let rewritten = engine.text
        engine.refuseResultsAfter = engine.appliedReplaces.filter { $0.kind == .result }.count
        try coordinator.start(.followUp, prompt: "uppercase")
        XCTAssertThrowsEmend(.refused) { try engine.run(coordinator) }
        XCTAssertEqual(coordinator.state, .interactiveResting, "a failed follow-up goes back to the result it refined")
        XCTAssertEqual(engine.text, rewritten)
        engine.refuseResultsAfter = nil
        try coordinator.start(.followUp, prompt: "uppercase")
        try engine.run(coordinator, timeoutMilliseconds: 5_000)
        XCTAssertEqual(engine.text, rewritten.uppercased())
    }

    // Item 8: stop while a limited session's result is presented and unanswered.
    func testStopWithdrawsAPresentedResult() throws {
        let engine = TestEngine("I do not think it is ready.")
        engine.presentAnswering = .later
        let coordinator = try makeCoordinator(engine, options: options(completionTimeout: 30_000, behavior: .limited))
        try coordinator.start(.rewriteFriendly)
        XCTAssertTrue(try engine.pump(coordinator) { engine.presented.count == 1 })
        try coordinator.stop()
        XCTAssertTrue(try engine.pump(coordinator, timeoutMilliseconds: 2_000) { coordinator.state == .inactive },
                      "stop does not wait for the engine to dismiss what it shows")
        try coordinator.start(.rewriteFriendly)
        XCTAssertTrue(try engine.pump(coordinator) { engine.presented.count == 2 })
        XCTAssertEqual(engine.text, "I do not think it is ready.")
    }

    // Item 15: every prepare has its finish, with its preview handle, however the session ends.
    func testEveryPreparedAnimationIsFinished() throws {
        for ending in ["stop", "fail", "accept", "revert"] {
            let text = ending == "fail" ? "I do not think it is ready. [fixture:fail]" : "I do not think it is ready. [fixture:hang]"
            let engine = TestEngine(ending == "accept" || ending == "revert" ? "I do not think it is ready." : text)
            let coordinator = try makeCoordinator(engine)
            try coordinator.start(.rewriteFriendly)
            switch ending {
            case "stop":
                XCTAssertTrue(try engine.pump(coordinator) { engine.preparedAnimations.count == 1 })
                try coordinator.stop()
                try engine.run(coordinator)
            case "fail":
                XCTAssertThrowsEmend(.provider) { try engine.run(coordinator) }
            default:
                try engine.run(coordinator)
                if ending == "accept" { try coordinator.accept() } else { try coordinator.revert() }
                try engine.run(coordinator)
            }
            XCTAssertEqual(coordinator.state, .inactive, ending)
            XCTAssertEqual(engine.preparedAnimations.count, 1, ending)
            XCTAssertEqual(engine.finishedAnimations.count, 1, "\(ending): the engine is told to show its text again")
            XCTAssertEqual(engine.previewsFinished, engine.previewsGiven, "\(ending): the handle comes back")
        }
    }

    // Item 17: an engine that can only present refuses APPLY up front.
    func testApplyWithoutAReplaceCallbackIsRefusedUpFront() throws {
        let engine = TestEngine("I do not think it is ready.")
        engine.capabilities = DelegateCapabilities.all.subtracting(.replace)
        engine.presentAnswering = .later
        let coordinator = try makeCoordinator(engine)
        XCTAssertEqual(coordinator.resolvedBehavior, .limited)
        try coordinator.start(.rewriteFriendly)
        XCTAssertTrue(try engine.pump(coordinator) { !engine.heldPresents.isEmpty })
        let request = try XCTUnwrap(engine.heldPresents.first)
        let error = XCTAssertThrowsEmend(.unsupported) { try coordinator.answer(request, .presented(.apply)) }
        XCTAssertTrue(error?.message.contains("replace") ?? false, error?.message ?? "")
        // The request still awaits a fitting answer.
        try coordinator.answer(request, .presented(.copy))
        try engine.run(coordinator)
        XCTAssertEqual(coordinator.state, .inactive)
        XCTAssertEqual(engine.text, "I do not think it is ready.")
    }
}

/// A coordinator whose engine never answers a replace is still freed when its owner lets go.
final class CoordinatorLifetimeTests: XCTestCase {
    func testAnUnansweredReplaceDoesNotKeepTheCoordinatorAlive() throws {
        let engine = TestEngine("I do not think it is ready.")
        engine.replaceAnswering = .later
        weak var weakCoordinator: Coordinator?
        try {
            let coordinator = try makeCoordinator(engine)
            weakCoordinator = coordinator
            try coordinator.start(.rewriteFriendly)
            XCTAssertTrue(try engine.pump(coordinator) { !engine.heldReplaces.isEmpty })
        }()
        XCTAssertNil(weakCoordinator, "nothing the coordinator owns may own it back")
    }
}

/// An engine that fails a will-change-to-state fails the session: nothing is delivered.
final class FailedStateChangeTests: XCTestCase {
    func testFailingTheStartOfASessionFailsItAndChangesNothing() throws {
        for behavior in [Behavior.default, .limited] {
            let engine = TestEngine("They has brought snacks. I could of done it better.")
            engine.failStates = [.noninteractive, .interactiveStreaming]
            let coordinator = try makeCoordinator(engine, options: options(behavior: behavior))
            try coordinator.start(.keyPoints)
            XCTAssertThrowsEmend(.refused) { try engine.run(coordinator) }
            XCTAssertEqual(coordinator.state, .inactive)
            XCTAssertEqual(engine.text, "They has brought snacks. I could of done it better.")
            XCTAssertTrue(engine.presented.isEmpty && engine.replaces.isEmpty, "nothing went on after the failure")
        }
    }
}

/// A preview handle comes back through finish even when the engine cannot prepare.
final class PreviewHandleTests: XCTestCase {
    func testAPreviewHandleComesBackWithoutPrepare() throws {
        let engine = TestEngine("I do not think it is ready.")
        engine.capabilities = DelegateCapabilities.all.subtracting(.prepareAnimation)
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.rewriteFriendly)
        try engine.run(coordinator)
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertFalse(engine.previewsGiven.isEmpty)
        XCTAssertEqual(engine.previewsFinished, engine.previewsGiven)
    }
}

/// Animation callbacks name the region as it is when they run, after any engine edit.
final class AnimationRangeTests: XCTestCase {
    func testPrepareNamesTheRegionAfterAnEngineEdit() throws {
        let engine = TestEngine("I do not think it is ready. We are late.")
        engine.previewAnswering = .later
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.rewriteFriendly)
        XCTAssertTrue(try engine.pump(coordinator) { !engine.heldPreviews.isEmpty })
        // While the preview is owed, the engine deletes the second sentence.
        engine.edit(27..<40, "")
        try coordinator.updateRange(contextID: coordinator.contextIDs[0], range: 27..<40, text: "", reason: .typing)
        engine.releaseHeldPreviews(coordinator)
        try engine.run(coordinator)
        XCTAssertEqual(engine.animationRanges.count, 2)
        for (range, length) in engine.animationRanges {
            XCTAssertLessThanOrEqual(range.upperBound, length, "\(range) named in a text of \(length) bytes")
        }
    }
}

/// A preview handle answered just before a stop still comes back through finish.
final class PreviewThenStopTests: XCTestCase {
    func testAPreviewAnsweredBeforeAStopComesBack() throws {
        let engine = TestEngine("I do not think it is ready.")
        engine.previewAnswering = .later
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.rewriteFriendly)
        XCTAssertTrue(try engine.pump(coordinator) { !engine.heldPreviews.isEmpty })
        engine.releaseHeldPreviews(coordinator)   // answered, not yet dispatched
        try coordinator.stop()
        try engine.run(coordinator)
        XCTAssertEqual(coordinator.state, .inactive)
        XCTAssertEqual(engine.previewsGiven.count, 1)
        XCTAssertEqual(engine.previewsFinished, engine.previewsGiven)
    }
}

/// A follow-up that fails before its provider ran goes back to the result it refined.
final class FollowUpEarlyFailureTests: XCTestCase {
    func testAFollowUpWhoseStateChangeFailsRestsAgain() throws {
        for showOriginalFirst in [false, true] {
            let engine = TestEngine("I do not think it is ready.")
            let coordinator = try makeCoordinator(engine)
            try coordinator.start(.rewriteFriendly)
            try engine.run(coordinator)
            if showOriginalFirst {
                try coordinator.showOriginal(true)
                try engine.run(coordinator)
            }
            let shown = engine.text
            engine.failStates = [.interactiveStreaming]
            try coordinator.start(.followUp, prompt: "uppercase")
            XCTAssertThrowsEmend(.refused) { try engine.run(coordinator, timeoutMilliseconds: 5_000) }
            XCTAssertEqual(coordinator.state, .interactiveResting, "back to the result it refined")
            XCTAssertEqual(engine.text, shown)
            XCTAssertTrue(coordinator.isIdle)
            try coordinator.revert()
            try engine.run(coordinator)
            XCTAssertEqual(engine.text, "I do not think it is ready.")
            XCTAssertEqual(coordinator.refusedMoves, [])
        }
    }
}

/// An engine edit between a revert and its first replace: the replace is planned again, the
/// rest of the original comes back, the engine's edit stays.
final class RevertAfterEngineEditTests: XCTestCase {
    func testAnEditBeforeTheRevertsReplaceIsSentIsKeptAndTheRestRestored() throws {
        let engine = TestEngine("I do not think it is ready. We are here.")
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.rewriteFriendly)
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "I don't think it's ready. We're here!")
        try coordinator.revert()
        // Before the revert's replaces reach it, the user edits "We're" (Emend's text).
        let were = try XCTUnwrap(byteRange(of: "We're", in: engine.text))
        engine.edit(were, "They're")
        try coordinator.updateRange(contextID: coordinator.contextIDs[0], range: were, text: "They're", reason: .typing)
        try engine.run(coordinator)
        XCTAssertEqual(coordinator.state, .inactive)
        XCTAssertEqual(engine.text, "I do not think it is ready. They're here.")
    }
}
