import XCTest
import Glibc
@testable import EmendCore

/// A dispatch gives the engine's thread back once its budget is spent: a large batch of
/// deliveries goes over several dispatches, and the poll descriptor says more work waits.
final class DispatchBudgetTests: XCTestCase {
    private func readable(_ coordinator: Coordinator) -> Bool {
        var pfd = pollfd(fd: coordinator.pollDescriptor, events: Int16(POLLIN), revents: 0)
        return poll(&pfd, 1, 0) == 1
    }

    func testALargeProofreadIsSpreadOverDispatches() throws {
        let text = String(repeating: "We will meet tomorow to go over teh draft. ", count: 200)
        let engine = TestEngine(text)
        var options = CoordinatorOptions()
        options.dispatchBudget = .items(40)
        let coordinator = try makeCoordinator(engine, options: options)
        try coordinator.start(.proofread)
        var dispatches = 0, busiest = 0
        try engine.pump(coordinator) {
            dispatches += 1
            return coordinator.isIdle
        }
        XCTAssertEqual(engine.text, String(repeating: "We will meet tomorrow to go over the draft. ", count: 200))
        XCTAssertGreaterThan(dispatches, 400 / 40, "400 replaces, 40 items per dispatch")
        try coordinator.revert()
        while !coordinator.isIdle {
            let ran = try engine.dispatching { try coordinator.dispatch() }
            busiest = max(busiest, ran)
            if !coordinator.isIdle && ran >= 40 { XCTAssertTrue(readable(coordinator), "work is left: the descriptor says so") }
            if ran == 0 { _ = poll(nil, 0, 1) }
        }
        // An answer's continuation runs before dispatch returns (the engine changed its text
        // when it answered): one item past the budget at most.
        XCTAssertLessThanOrEqual(busiest, 41)
        XCTAssertEqual(engine.text, text)
    }

    /// Revert plans its restoring replaces a slice at a time, each when the one after it was
    /// delivered (planning them all at once, an anchor each, held one dispatch for hundreds of
    /// milliseconds at a million): while it goes, at most a slice of anchors more than the
    /// suggestions' own is alive. The original comes back byte for byte.
    func testRevertPlansItsReplacesInSlices() throws {
        let count = Coordinator.suggestionSlice * 4
        let text = String(repeating: "Teh draft. ", count: count)
        let engine = TestEngine(text)
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.proofread)
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, String(repeating: "The draft. ", count: count))
        let context = try XCTUnwrap(coordinator.session?.working)
        let before = context.liveAnchorCount
        try coordinator.revert()
        var most = context.liveAnchorCount - before
        _ = try engine.pump(coordinator) {
            most = max(most, context.liveAnchorCount - before)
            return coordinator.isIdle
        }
        XCTAssertLessThanOrEqual(most, Coordinator.suggestionSlice + 4, "\(count) restoring replaces planned at once")
        XCTAssertEqual(engine.text, text)
    }

    /// The provider's edits become suggestions a slice per queue item (109,000 of them took
    /// 255 ms in one dispatch), and the engine may edit between slices: the suggestions made
    /// before move with the edit, those made after are rebased through it.
    func testSuggestionsAreMadeInSlicesAndAnEngineEditBetweenThemIsRebased() throws {
        let count = Coordinator.suggestionSlice * 3 + 10
        let engine = TestEngine(String(repeating: "Teh draft. ", count: count))
        var options = CoordinatorOptions()
        options.dispatchBudget = .items(1)
        let coordinator = try makeCoordinator(engine, options: options)
        try coordinator.start(.proofread)
        var dispatchesBeforeDelivery = 0
        var edited = false
        XCTAssertTrue(try engine.pump(coordinator) {
            guard engine.replaces.isEmpty else { return true }
            guard coordinator.session?.run.resultEdits.isEmpty == false else { return false }
            dispatchesBeforeDelivery += 1
            if !edited && dispatchesBeforeDelivery == 3 {
                // Between the slices: the engine writes before every misspelling.
                engine.edit(0..<0, "Intro. ")
                do {
                    try coordinator.updateRange(contextID: coordinator.contextIDs[0], range: 0..<0, text: "Intro. ", reason: .typing)
                } catch {
                    XCTFail("updateRange: \(error)")
                }
                edited = true
            }
            return false
        })
        XCTAssertTrue(edited)
        XCTAssertGreaterThanOrEqual(dispatchesBeforeDelivery, 4, "four slices, one item per dispatch")
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "Intro. " + String(repeating: "The draft. ", count: count))
        XCTAssertEqual(coordinator.suggestions.count, count)
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "Intro. " + String(repeating: "Teh draft. ", count: count))
    }

    /// Work that reads a large text (a long streamed part, a whole result) starts a dispatch
    /// of its own under a time budget, so it never lands at the end of a spent one; without
    /// a time budget it runs where it is.
    func testFreshWorkStartsADispatchOfItsOwn() throws {
        let coordinator = try makeCoordinator(TestEngine("Text."))
        var ran: [String] = []
        for name in ["a", "b"] { coordinator.queue.post { ran.append(name) } }
        coordinator.queue.postFresh { ran.append("fresh") }
        coordinator.queue.post { ran.append("c") }
        XCTAssertEqual(try coordinator.dispatch(), 2)
        XCTAssertEqual(ran, ["a", "b"])
        XCTAssertTrue(coordinator.queue.hasPendingWork, "the rest waits, and the descriptor says so")
        XCTAssertEqual(try coordinator.dispatch(), 2)
        XCTAssertEqual(ran, ["a", "b", "fresh", "c"])

        var options = CoordinatorOptions()
        options.dispatchBudget = .unlimited
        let unlimited = try makeCoordinator(TestEngine("Text."), options: options)
        var order: [String] = []
        unlimited.queue.post { order.append("a") }
        unlimited.queue.postFresh { order.append("fresh") }
        XCTAssertEqual(try unlimited.dispatch(), 2)
        XCTAssertEqual(order, ["a", "fresh"])
    }

    func testAnUnlimitedBudgetRunsEverythingInOneDispatch() throws {
        let engine = TestEngine(String(repeating: "Teh draft. ", count: 50))
        var options = CoordinatorOptions()
        options.dispatchBudget = .unlimited
        let coordinator = try makeCoordinator(engine, options: options)
        try coordinator.start(.proofread)
        try engine.run(coordinator)
        try coordinator.revert()
        let ran = try engine.dispatching { try coordinator.dispatch() }
        XCTAssertGreaterThan(ran, 50)
        XCTAssertTrue(coordinator.isIdle)
    }

    func testTheMeterAlwaysLetsOneItemRun() {
        XCTAssertFalse(DispatchBudget.Meter(.items(0)).isSpent(after: 0))
        XCTAssertFalse(DispatchBudget.Meter(.time(microseconds: 0)).isSpent(after: 0))
        XCTAssertTrue(DispatchBudget.Meter(.items(2)).isSpent(after: 2))
        XCTAssertFalse(DispatchBudget.Meter(.unlimited).isSpent(after: 1_000_000))
    }
}
