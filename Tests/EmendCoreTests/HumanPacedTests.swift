import XCTest
import EmendCore

/// A person's pace never counts as a machine's delay (issue 29, G2): a presented result waits
/// for the person's Replace / Copy / Dismiss however long they read it, while the engine's
/// own answers still time out after completion_timeout_ms.
final class HumanPacedTests: XCTestCase {
    func testAPresentedResultOutlivesTheCompletionTimeout() throws {
        let original = "I do not think it is ready."
        let engine = TestEngine(original)
        engine.presentAnswering = .later
        let coordinator = try makeCoordinator(engine, options: options(completionTimeout: 40, behavior: .limited))
        try coordinator.start(.rewriteFriendly)
        XCTAssertTrue(try engine.pump(coordinator) { !engine.heldPresents.isEmpty })
        let request = try XCTUnwrap(engine.heldPresents.first)
        // The person reads the result for many times the completion timeout; the engine's
        // loop keeps dispatching meanwhile (deadlines are checked on every dispatch).
        try engine.pump(coordinator, timeoutMilliseconds: 400) { false }
        XCTAssertTrue(coordinator.isAwaitingAnswer(request), "the presented result still awaits the person")
        XCTAssertEqual(engine.endings.count, 0, "no timeout ended the session: \(engine.endings)")
        XCTAssertEqual(coordinator.state, .noninteractive)
        // The late click is taken, and applies the result.
        try coordinator.answer(request, .presented(.apply))
        try engine.run(coordinator)
        XCTAssertEqual(engine.endings.map(\.status), [.ok])
        XCTAssertEqual(coordinator.state, .inactive)
        XCTAssertNotEqual(engine.text, original, "the result was applied")
        XCTAssertEqual(engine.answerErrors.map(\.message), [])
    }

    func testTheEnginesOwnAnswersStillTimeOut() throws {
        // The same short timeout for a callback the engine's code answers (a replace): machine
        // work is still limited.
        let engine = TestEngine("I do not think it is ready.")
        engine.replaceAnswering = .never
        let coordinator = try makeCoordinator(engine, options: options(completionTimeout: 40))
        try coordinator.start(.rewriteFriendly)
        XCTAssertThrowsEmend(.timeout) { try engine.run(coordinator) }
        XCTAssertEqual(engine.text, "I do not think it is ready.")
    }
}
