import XCTest
import Glibc
import Foundation
import EmendCore
import EmendText

/// Waits for the test's go, then finishes with an empty result (a rewrite that deletes the
/// region): "finished" is its one and only event, so the test knows when it is queued.
final class GatedProvider: WritingProvider, @unchecked Sendable {
    let id = "test.gated"
    let tools: Set<WritingTool> = Set(WritingTool.allCases)
    let proceed = DispatchSemaphore(value: 0)

    func run(_ request: ProviderRequest, sink: ProviderSink) -> ProviderOutcome {
        proceed.wait()
        return .finished
    }
}

/// A provider's last events may already be queued when the session ends; they must not
/// deliver a result into the ended session.
final class ProviderRaceTests: XCTestCase {
    /// Waits (up to 10 s) until the coordinator has work, without dispatching it.
    private func waitForWork(_ coordinator: Coordinator) -> Bool {
        var pfd = pollfd(fd: coordinator.pollDescriptor, events: Int16(POLLIN), revents: 0)
        return poll(&pfd, 1, 10_000) == 1
    }

    private func finishedButNotDispatched(_ engine: TestEngine) throws -> (Coordinator, GatedProvider) {
        let provider = GatedProvider()
        let coordinator = try Coordinator(delegate: engine, providers: [provider])
        try coordinator.start(.rewriteFriendly)
        // The provider waits at its gate: nothing of it can be dispatched yet.
        XCTAssertTrue(try engine.pump(coordinator) { engine.preparedAnimations.count == 1 })
        provider.proceed.signal()
        XCTAssertTrue(waitForWork(coordinator))      // "finished" is queued, not dispatched
        return (coordinator, provider)
    }

    func testTypingAfterTheProviderFinishedButBeforeDispatchKeepsTheEnginesText() throws {
        let engine = TestEngine("I do not think it is ready.")
        let (coordinator, _) = try finishedButNotDispatched(engine)
        engine.edit(0..<1, "You")
        try coordinator.updateRange(contextID: coordinator.contextIDs[0], range: 0..<1, text: "You", reason: .typing)
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "You do not think it is ready.")
        XCTAssertTrue(engine.replaces.isEmpty, "a result was delivered into an ended session")
        XCTAssertEqual(coordinator.state, .inactive)
        XCTAssertEqual(engine.states.last, .inactive)
    }

    func testTypingThenAnsweringTheStateChangeLateDeliversNothing() throws {
        let engine = TestEngine("I do not think it is ready.")
        let (coordinator, _) = try finishedButNotDispatched(engine)
        engine.stateAnswering = .later
        engine.edit(0..<1, "You")
        try coordinator.updateRange(contextID: coordinator.contextIDs[0], range: 0..<1, text: "You", reason: .typing)
        // The queued "finished" runs while the engine has not yet answered the change to inactive.
        XCTAssertTrue(try engine.pump(coordinator) { !engine.heldStates.isEmpty })
        try engine.pump(coordinator, timeoutMilliseconds: 0) { false }
        engine.stateAnswering = .atOnce
        engine.releaseHeldStates(coordinator)
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "You do not think it is ready.")
        XCTAssertTrue(engine.replaces.isEmpty, "a result was delivered into an ended session")
        XCTAssertEqual(coordinator.state, .inactive)
    }

    func testStopAfterTheProviderFinishedButBeforeDispatchDeliversNothing() throws {
        let engine = TestEngine("I do not think it is ready.")
        let (coordinator, _) = try finishedButNotDispatched(engine)
        try coordinator.stop()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "I do not think it is ready.")
        XCTAssertTrue(engine.replaces.isEmpty)
        XCTAssertEqual(coordinator.state, .inactive)
    }
}
