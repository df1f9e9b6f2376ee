import XCTest
import Foundation
import EmendCore
import EmendText

/// A coordinator belongs to the thread that created it; only answers may come from elsewhere.
final class WrongThreadTests: XCTestCase {
    /// Runs `body` on a new thread and waits for it to finish.
    private func onAnotherThread(_ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            body()
            done.signal()
        }
        thread.start()
        XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
    }

    /// The status `body` fails with on another thread (nil when it succeeds).
    private func statusOnAnotherThread(_ body: @escaping @Sendable () throws -> Void) -> EmendStatus? {
        final class Box: @unchecked Sendable { var status: EmendStatus? }
        let box = Box()
        onAnotherThread {
            do { try body() } catch let error as EmendError { box.status = error.status } catch { box.status = .internal }
        }
        return box.status
    }

    func testEngineCallsFromAnotherThreadAreRefused() throws {
        let engine = TestEngine("See you tomorow.")
        let coordinator = try makeCoordinator(engine)
        XCTAssertEqual(statusOnAnotherThread { try coordinator.start(.proofread) }, .wrongThread)
        XCTAssertEqual(statusOnAnotherThread { try coordinator.dispatch() }, .wrongThread)
        XCTAssertEqual(statusOnAnotherThread { try coordinator.runUntilIdle(timeoutMilliseconds: 10) }, .wrongThread)
        XCTAssertEqual(statusOnAnotherThread { try coordinator.setPreferredBehavior(.limited) }, .wrongThread)
        XCTAssertEqual(statusOnAnotherThread { try coordinator.setPreferredResultOptions([.list]) }, .wrongThread)
        XCTAssertEqual(statusOnAnotherThread { try coordinator.stop() }, .wrongThread)
        XCTAssertEqual(statusOnAnotherThread { try coordinator.checkOwnerThread() }, .wrongThread)
        XCTAssertNil(statusOnAnotherThread { }, "the helper itself reports success")
        // Nothing happened.
        try engine.run(coordinator)
        XCTAssertEqual(coordinator.state, .inactive)
        XCTAssertEqual(coordinator.preferredBehavior, .default)
        XCTAssertTrue(engine.states.isEmpty)
        XCTAssertTrue(engine.contextRequests.isEmpty)
    }

    func testSessionCallsFromAnotherThreadAreRefused() throws {
        let engine = TestEngine("See you tomorow, I could of known.")
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.proofread)
        try engine.run(coordinator)
        let id = coordinator.contextIDs[0]
        XCTAssertEqual(statusOnAnotherThread { try coordinator.acceptSuggestion(0) }, .wrongThread)
        XCTAssertEqual(statusOnAnotherThread { try coordinator.rejectSuggestion(0) }, .wrongThread)
        XCTAssertEqual(statusOnAnotherThread { _ = try coordinator.suggestionIndex(contextID: id, offset: 9) }, .wrongThread)
        XCTAssertEqual(statusOnAnotherThread {
            try coordinator.updateRange(contextID: id, range: 0..<0, text: "x", reason: .typing)
        }, .wrongThread)
        XCTAssertEqual(statusOnAnotherThread { try coordinator.updateForReflowedText() }, .wrongThread)
        XCTAssertEqual(statusOnAnotherThread { try coordinator.undo() }, .wrongThread)
        XCTAssertEqual(statusOnAnotherThread { try coordinator.accept() }, .wrongThread)
        XCTAssertEqual(statusOnAnotherThread { try coordinator.revert() }, .wrongThread)
        try engine.run(coordinator)
        XCTAssertTrue(coordinator.suggestions.allSatisfy { $0.state == .pending })
        XCTAssertEqual(coordinator.state, .interactiveResting)
        XCTAssertEqual(engine.text, "See you tomorrow, I could have known.")
    }

    func testAnswersMayComeFromAnotherThread() throws {
        let original = "I do not think it is ready. We are waiting."
        let engine = TestEngine(original)
        engine.replaceAnswering = .later
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.rewriteFriendly)
        while try engine.pump(coordinator, until: { !engine.heldReplaces.isEmpty || coordinator.isIdle }),
              !engine.heldReplaces.isEmpty {
            // The engine answers on its own worker thread while this thread waits.
            onAnotherThread { engine.releaseHeldReplaces(coordinator) }
        }
        XCTAssertEqual(engine.answerErrors, [])
        XCTAssertEqual(engine.text, "I don't think it's ready. We're waiting!")
        XCTAssertEqual(coordinator.state, .interactiveResting)
    }
}
