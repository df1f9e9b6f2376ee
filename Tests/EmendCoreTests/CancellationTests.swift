import XCTest
import EmendCore
import EmendText

/// stop(): the provider is cancelled and whatever was delivered is put back.
final class CancellationTests: XCTestCase {
    static let long = "I do not think it is ready. " + String(repeating: "We are waiting and it is late. ", count: 12)

    func testStopWhileTheProviderStreamsLeavesTheDocumentUnchanged() throws {
        let engine = TestEngine(Self.long)
        // 50 ms per word: the run would take seconds; it is stopped long before.
        let coordinator = try makeCoordinator(engine, provider: FixtureProvider(chunkDelayMicroseconds: 50_000))
        try coordinator.start(.rewriteFriendly)
        XCTAssertTrue(try engine.pump(coordinator) { engine.preparedAnimations.count == 1 })
        XCTAssertEqual(coordinator.state, .interactiveStreaming)
        try coordinator.stop()
        try engine.run(coordinator)
        XCTAssertEqual(coordinator.state, .inactive)
        XCTAssertEqual(engine.states, [.interactiveStreaming, .inactive])
        XCTAssertTrue(engine.replaces.isEmpty, "no result arrives after stop")
        XCTAssertEqual(engine.text, Self.long)
        XCTAssertNil(coordinator.resultText)
        XCTAssertTrue(coordinator.isIdle)
        // A new session can start at once.
        try coordinator.start(.proofread)
        try engine.run(coordinator)
        XCTAssertEqual(coordinator.state, .interactiveResting)
    }

    func testStopDuringDeliveryPutsBackWhatWasDelivered() throws {
        let original = "I do not think it is ready. We are waiting."
        let engine = TestEngine(original)
        engine.replaceAnswering = .later
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.rewriteFriendly)
        XCTAssertTrue(try engine.pump(coordinator) { !engine.heldReplaces.isEmpty })
        // The first change is applied by the engine and answered; the next one is held.
        engine.releaseHeldReplaces(coordinator)
        XCTAssertTrue(try engine.pump(coordinator) { !engine.heldReplaces.isEmpty })
        XCTAssertNotEqual(engine.text, original)
        try coordinator.stop()
        // The engine still owes an answer: it applies the held replace, then the restore follows.
        engine.releaseHeldReplaces(coordinator)
        XCTAssertTrue(try engine.pump(coordinator) {
            engine.releaseHeldReplaces(coordinator)
            return coordinator.state == .inactive && coordinator.isIdle
        })
        XCTAssertEqual(Array(engine.text.utf8), Array(original.utf8))
        XCTAssertEqual(engine.states.last, .inactive)
        XCTAssertTrue(engine.appliedReplaces.contains { $0.kind == .cancel })
        XCTAssertEqual(engine.answerErrors, [])
    }

    func testStopWhileContextsAreAwaited() throws {
        let engine = TestEngine("See you tomorow.")
        engine.contextsAnswering = .later
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.proofread)
        XCTAssertTrue(try engine.pump(coordinator) { engine.contextRequests.count == 1 })
        try coordinator.stop()
        engine.releaseHeldContexts(coordinator)
        try engine.run(coordinator)
        XCTAssertEqual(coordinator.state, .inactive)
        XCTAssertTrue(engine.replaces.isEmpty)
        XCTAssertEqual(engine.text, "See you tomorow.")
    }

    func testStopAfterProofreadingRestoresTheOriginal() throws {
        let engine = TestEngine("See you tomorow, I could of known.")
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.proofread)
        try engine.run(coordinator)
        try coordinator.rejectSuggestion(0)
        try engine.run(coordinator)
        try coordinator.stop()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "See you tomorow, I could of known.")
        XCTAssertEqual(engine.replaces.last?.kind, .cancel)
        XCTAssertEqual(coordinator.state, .inactive)
    }

    func testStopWithoutASessionIsFine() throws {
        let engine = TestEngine("Text.")
        let coordinator = try makeCoordinator(engine)
        try coordinator.stop()
        try engine.run(coordinator)
        XCTAssertTrue(engine.states.isEmpty)
        XCTAssertEqual(coordinator.state, .inactive)
    }
}
