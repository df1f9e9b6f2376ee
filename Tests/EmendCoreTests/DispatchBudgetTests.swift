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
