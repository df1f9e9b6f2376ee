import XCTest
@testable import EmendCore
import EmendText

/// A rewrite's step plans its edits on a runtime thread (`VersionPlan`) while the session says
/// so (`Session.alignment`). The engine's thread goes on meanwhile: the engine edits, stops,
/// reverts. Each test acts while the plan is out — the plan's answer waits for a dispatch, so
/// the engine's call right after the step is made lands before it, whenever the thread ends —
/// and checks that nothing is lost: the text is the version with the engine's edit, as if the
/// edit had come before the step, and revert gives the original with the edit byte for byte.
final class VersionAlignmentTests: XCTestCase {
    static let original = "I do not think it is ready. We are waiting for the tests."
    static let friendly = "I don't think it's ready. We're waiting for the tests!"

    /// A friendly rewrite resting in the text, then shown as the original.
    private func showingOriginal() throws -> (TestEngine, Coordinator, UInt64) {
        let engine = TestEngine(Self.original)
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.rewriteFriendly)
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, Self.friendly)
        try coordinator.showOriginal(true)
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, Self.original)
        return (engine, coordinator, try XCTUnwrap(coordinator.contextIDs.first))
    }

    /// Whether a plan is out for the session.
    private func planIsOut(_ coordinator: Coordinator) -> Bool {
        coordinator.session?.alignment.isInFlight ?? false
    }

    /// The engine replaces `needle` of its text with `text` and tells the coordinator.
    private func engineEdits(_ engine: TestEngine, _ coordinator: Coordinator, _ id: UInt64, _ needle: String, _ text: String) throws {
        // "": an insertion at the start.
        let range = needle.isEmpty ? 0..<0 : try XCTUnwrap(byteRange(of: needle, in: engine.text))
        engine.edit(range, text)
        try coordinator.updateRange(contextID: id, range: range, text: text, reason: .typing)
    }

    /// What show rewritten gives when the engine's edit comes before the step (no plan out):
    /// what the same edit during the plan must give too.
    private func showRewrittenAfter(_ needle: String, _ text: String) throws -> String {
        let (engine, coordinator, id) = try showingOriginal()
        try engineEdits(engine, coordinator, id, needle, text)
        try engine.run(coordinator)
        try coordinator.showOriginal(false)
        try engine.run(coordinator)
        return engine.text
    }

    func testShowRewrittenIsPlannedOffTheEnginesThreadAndGivesTheVersion() throws {
        let (engine, coordinator, _) = try showingOriginal()
        try coordinator.showOriginal(false)
        XCTAssertTrue(planIsOut(coordinator), "the step's edits are planned on a runtime thread")
        XCTAssertTrue(engine.replaces.last?.kind == .showOriginal, "nothing of the step went out before its plan came back")
        XCTAssertThrowsEmend(.again) { try coordinator.showOriginal(true) }
        try engine.run(coordinator)
        XCTAssertFalse(planIsOut(coordinator))
        XCTAssertEqual(engine.text, Self.friendly)
        XCTAssertEqual(engine.replaces.last?.kind, .showRewritten)
        XCTAssertEqual(coordinator.state, .interactiveResting)
    }

    func testAnEngineEditBesideThePlannedChangesIsKept() throws {
        let expected = "I don't think it's ready. We're hoping for the tests!"
        XCTAssertEqual(try showRewrittenAfter("waiting", "hoping"), expected)
        let (engine, coordinator, id) = try showingOriginal()
        try coordinator.showOriginal(false)
        XCTAssertTrue(planIsOut(coordinator))
        try engineEdits(engine, coordinator, id, "waiting", "hoping")
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, expected, "the plan's edits moved past the engine's edit")
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(Array(engine.text.utf8), Array("I do not think it is ready. We are hoping for the tests.".utf8))
        XCTAssertEqual(coordinator.lastSessionOutcome, .finished)
    }

    func testAnEngineEditBeforeThePlannedChangesMovesThem() throws {
        let expected = "Well, I don't think it's ready. We're waiting for the tests!"
        XCTAssertEqual(try showRewrittenAfter("", "Well, "), expected)
        let (engine, coordinator, id) = try showingOriginal()
        try coordinator.showOriginal(false)
        XCTAssertTrue(planIsOut(coordinator))
        try engineEdits(engine, coordinator, id, "", "Well, ")
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, expected)
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(Array(engine.text.utf8), Array("Well, I do not think it is ready. We are waiting for the tests.".utf8))
    }

    func testAnEngineEditOfTextAPlannedChangeReplacesIsTheEnginesAndWins() throws {
        let (engine, coordinator, id) = try showingOriginal()
        try coordinator.showOriginal(false)
        XCTAssertTrue(planIsOut(coordinator))
        try engineEdits(engine, coordinator, id, "do not", "really do not")
        try engine.run(coordinator)
        XCTAssertTrue(engine.text.contains("I really do not think"), "the engine's edit stays: \(engine.text)")
        XCTAssertTrue(engine.text.hasSuffix("We're waiting for the tests!"), "the rest of the version came: \(engine.text)")
        XCTAssertEqual(engine.text, try showRewrittenAfter("do not", "really do not"), "as if the edit had come before the step")
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(Array(engine.text.utf8), Array("I really do not think it is ready. We are waiting for the tests.".utf8))
    }

    func testStopWhileThePlanIsOutPutsTheOriginalBackAndDropsThePlan() throws {
        let (engine, coordinator, id) = try showingOriginal()
        // Show rewritten, then take the original back out by undo: a plan for the version.
        try coordinator.showOriginal(false)
        XCTAssertTrue(planIsOut(coordinator))
        let before = engine.replaces.count
        try engineEdits(engine, coordinator, id, "tests", "checks")
        try coordinator.stop()
        try engine.run(coordinator)
        XCTAssertEqual(coordinator.state, .inactive)
        XCTAssertEqual(Array(engine.text.utf8), Array("I do not think it is ready. We are waiting for the checks.".utf8))
        XCTAssertFalse(engine.replaces.dropFirst(before).contains { $0.kind == .showRewritten }, "the dropped plan sent nothing")
        XCTAssertEqual(coordinator.lastSessionOutcome, .finished)
    }

    func testRevertWhileThePlanIsOutNeedNotWait() throws {
        let (engine, coordinator, _) = try showingOriginal()
        try coordinator.showOriginal(false)
        XCTAssertTrue(planIsOut(coordinator))
        try coordinator.revert()
        XCTAssertFalse(planIsOut(coordinator), "the revert dropped the plan")
        try engine.run(coordinator)
        XCTAssertEqual(coordinator.state, .inactive)
        XCTAssertEqual(Array(engine.text.utf8), Array(Self.original.utf8))
        XCTAssertEqual(engine.replaces.last?.kind, .showOriginal, "nothing of the dropped step went out")
    }

    /// The result itself is planned off the engine's thread; the engine types in the region
    /// while it is: the result comes with the engine's text, and revert keeps that text.
    func testAnEngineEditWhileTheResultIsPlannedIsKept() throws {
        let engine = TestEngine(Self.original)
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.rewriteFriendly)
        XCTAssertTrue(try engine.pump(coordinator) { self.planIsOut(coordinator) }, "the result's edits are planned on a runtime thread")
        let id = try XCTUnwrap(coordinator.contextIDs.first)
        // (The first sentence may have streamed in already.)
        XCTAssertTrue(engine.text.hasSuffix("We are waiting for the tests."), engine.text)
        try engineEdits(engine, coordinator, id, "waiting", "hoping")
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "I don't think it's ready. We're hoping for the tests!")
        XCTAssertEqual(coordinator.state, .interactiveResting)
        try coordinator.showOriginal(true)
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "I do not think it is ready. We are hoping for the tests.")
        try coordinator.showOriginal(false)
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "I don't think it's ready. We're hoping for the tests!")
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(Array(engine.text.utf8), Array("I do not think it is ready. We are hoping for the tests.".utf8))
    }

    /// A plan of more edits than one queue item anchors (`suggestionSlice`): the engine edits
    /// between the slices, after the part anchored already. The edits anchored follow it,
    /// those not yet anchored move through it, and the text ends as if the edit had come
    /// before the step.
    func testAnEngineEditBetweenTheAnchoredSlicesOfAPlanIsKept() throws {
        let sentences = 600
        let original = (0..<sentences).map { "I do not know \($0). " }.joined()
        let rewritten = (0..<sentences).map { "I don't know \($0). " }.joined()
        func showingOriginal() throws -> (TestEngine, Coordinator, UInt64) {
            let engine = TestEngine(original)
            var opts = options()
            opts.dispatchBudget = .items(1)
            let coordinator = try makeCoordinator(engine, options: opts)
            try coordinator.start(.rewriteFriendly)
            try engine.run(coordinator, timeoutMilliseconds: 120_000)
            XCTAssertTrue(engine.text == rewritten)
            try coordinator.showOriginal(true)
            try engine.run(coordinator, timeoutMilliseconds: 120_000)
            XCTAssertTrue(engine.text == original)
            return (engine, coordinator, try XCTUnwrap(coordinator.contextIDs.first))
        }
        let last = original.utf8.count - "I do not know \(sentences - 1). ".utf8.count
        let expected = (0..<(sentences - 1)).map { "I don't know \($0). " }.joined() + "We don't know \(sentences - 1). "
        // The edit before the step.
        do {
            let (engine, coordinator, id) = try showingOriginal()
            engine.edit(last..<(last + 1), "We")
            try coordinator.updateRange(contextID: id, range: last..<(last + 1), text: "We", reason: .typing)
            try engine.run(coordinator, timeoutMilliseconds: 120_000)
            try coordinator.showOriginal(false)
            try engine.run(coordinator, timeoutMilliseconds: 120_000)
            XCTAssertTrue(engine.text == expected)
        }
        let (engine, coordinator, id) = try showingOriginal()
        let context = try XCTUnwrap(coordinator.session?.working)
        let anchors = context.liveAnchorCount
        try coordinator.showOriginal(false)
        var between = false
        for _ in 0..<1_000 where !between {
            try engine.dispatching { _ = try coordinator.dispatch() }
            between = planIsOut(coordinator) && context.liveAnchorCount > anchors
            if !between, !planIsOut(coordinator) { break }
            if !between { usleep(1_000) }
        }
        XCTAssertTrue(between, "the plan's edits are anchored over several queue items")
        XCTAssertTrue(engine.text == original, "nothing went out before the last slice was anchored")
        engine.edit(last..<(last + 1), "We")
        try coordinator.updateRange(contextID: id, range: last..<(last + 1), text: "We", reason: .typing)
        try engine.run(coordinator, timeoutMilliseconds: 120_000)
        XCTAssertTrue(engine.text == expected)
        try coordinator.revert()
        try engine.run(coordinator, timeoutMilliseconds: 120_000)
        XCTAssertTrue(Array(engine.text.utf8) == Array(((0..<(sentences - 1)).map { "I do not know \($0). " }.joined() + "We do not know \(sentences - 1). ").utf8))
    }

    /// The place of a planned edit after the engine's edits: moved past them, withdrawn when
    /// one replaced part of it, as an anchor made when the region was copied would be.
    func testPlacesFollowTheEnginesEditsAsAnchorsWould() {
        var alignment = VersionAlignment.inFlight(VersionAlignment.Flight(target: 1, regionStart: 10))
        alignment.engineEdited(0..<2, length: 5)     // before the region: everything moves by 3
        alignment.engineEdited(40..<40, length: 4)   // an insertion after the first edit's place
        guard case .inFlight(let flight) = alignment else { return XCTFail("no plan out") }
        XCTAssertEqual(VersionAlignment.place(0..<4, of: flight), 13..<17)
        XCTAssertEqual(VersionAlignment.place(30..<35, of: flight), 47..<52, "moved by both edits")
        XCTAssertEqual(VersionAlignment.place(26..<35, of: flight), 39..<52, "an insertion inside grows it")
        XCTAssertEqual(VersionAlignment.place(27..<30, of: flight), 44..<47, "an insertion at its start goes before it")
        alignment.engineEdited(14..<17, length: 0)
        guard case .inFlight(let edited) = alignment else { return XCTFail("no plan out") }
        XCTAssertNil(VersionAlignment.place(2..<3, of: edited), "the engine deleted it with the text around it")
        XCTAssertNil(alignment.land(VersionAlignment.Ticket()), "another plan's answer goes nowhere")
        XCTAssertTrue(alignment.isInFlight)
        XCTAssertNotNil(alignment.land(edited.ticket))
        XCTAssertFalse(alignment.isInFlight)
    }
}
