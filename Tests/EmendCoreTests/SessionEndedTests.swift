import XCTest
import EmendCore
import EmendText

/// An engine driven by dispatch alone (its event loop) learns how each session ended through
/// sessionEnded: once per session, during dispatch, after the state became inactive; OK for
/// accept, revert and stop, the failure's status and message otherwise. The same outcome
/// stays readable as lastSessionOutcome.
final class SessionEndedTests: XCTestCase {
    /// Dispatches (as an event loop does) until the coordinator is idle.
    private func drive(_ engine: TestEngine, _ coordinator: Coordinator) throws {
        XCTAssertTrue(try engine.pump(coordinator) { coordinator.isIdle && coordinator.state != .interactiveStreaming })
    }

    func testAcceptEndsWithOK() throws {
        let engine = TestEngine("See you tomorow.")
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.proofread)
        try drive(engine, coordinator)
        XCTAssertTrue(engine.endings.isEmpty, "the session is still on")
        XCTAssertNil(coordinator.lastSessionOutcome)
        try coordinator.accept()
        try drive(engine, coordinator)
        XCTAssertEqual(engine.endings.map(\.status), [.ok])
        XCTAssertEqual(engine.endings.first?.message, "")
        XCTAssertEqual(engine.endings.first?.state, .inactive, "told after the state became inactive")
        XCTAssertEqual(coordinator.lastSessionOutcome, .finished)
        XCTAssertEqual(engine.callbacksOutsideDispatch, [])
    }

    func testRevertAndStopEndWithOK() throws {
        let engine = TestEngine("I do not think it is ready.")
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.rewriteFriendly)
        try drive(engine, coordinator)
        try coordinator.revert()
        try drive(engine, coordinator)
        try coordinator.start(.rewriteFriendly)
        try coordinator.stop()
        try drive(engine, coordinator)
        XCTAssertEqual(engine.endings.map(\.status), [.ok, .ok])
        XCTAssertEqual(engine.text, "I do not think it is ready.")
        XCTAssertEqual(engine.callbacksOutsideDispatch, [])
    }

    func testARefusedReplaceIsToldThroughDispatchOnce() throws {
        let original = "I do not think it is ready. We are waiting."
        let engine = TestEngine(original)
        engine.refuseResultsAfter = 1
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.rewriteFriendly)
        // dispatch() returns normally: only the notification says the session failed.
        try drive(engine, coordinator)
        XCTAssertEqual(coordinator.state, .inactive)
        XCTAssertEqual(engine.endings.count, 1)
        XCTAssertEqual(engine.endings.first?.status, .refused)
        XCTAssertTrue(engine.endings.first?.message.contains("refused") ?? false, "\(engine.endings)")
        XCTAssertEqual(coordinator.lastSessionOutcome?.status, .refused)
        XCTAssertEqual(engine.text, original)
    }

    func testAnUnansweredCallbackIsToldAsTimeout() throws {
        let engine = TestEngine("See you tomorow.")
        engine.contextsAnswering = .never
        let coordinator = try makeCoordinator(engine, options: options(completionTimeout: 100))
        try coordinator.start(.proofread)
        XCTAssertTrue(try engine.pump(coordinator) { !engine.endings.isEmpty })
        XCTAssertEqual(engine.endings.map(\.status), [.timeout])
        XCTAssertEqual(coordinator.lastSessionOutcome?.status, .timeout)
    }

    /// runUntilIdle clears lastFailure when it starts; the outcome of a session that failed
    /// during an earlier dispatch is not lost with it.
    func testRunUntilIdleAfterTheFailureStillReportsIt() throws {
        let engine = TestEngine("I do not think it is ready. We are waiting.")
        engine.refuseResultsAfter = 0
        engine.stateAnswering = .later
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.rewriteFriendly)
        // Dispatch until the session failed and waits for its change to inactive.
        XCTAssertTrue(try engine.pump(coordinator) {
            if engine.states.last != .inactive { engine.releaseHeldStates(coordinator) }
            return engine.states.last == .inactive
        })
        XCTAssertTrue(engine.endings.isEmpty, "not ended before the engine heard of the change")
        engine.stateAnswering = .atOnce
        engine.releaseHeldStates(coordinator)
        try? engine.run(coordinator)
        XCTAssertEqual(engine.endings.map(\.status), [.refused])
        XCTAssertEqual(coordinator.lastSessionOutcome?.status, .refused)
    }

    func testAnEngineWithoutTheCapabilityIsNotTold() throws {
        let engine = TestEngine("See you tomorow.")
        engine.capabilities = DelegateCapabilities.all.subtracting(.sessionEnded)
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.proofread)
        try engine.run(coordinator)
        try coordinator.accept()
        try engine.run(coordinator)
        XCTAssertTrue(engine.endings.isEmpty)
        XCTAssertEqual(coordinator.lastSessionOutcome, .finished, "the getter still knows")
    }
}
