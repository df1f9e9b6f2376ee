import XCTest
import EmendCore
import EmendText

/// A delegate call the engine never answers ends the session after the completion timeout.
final class EngineTimeoutTests: XCTestCase {
    func testUnansweredReplaceTimesOut() throws {
        let original = "I do not think it is ready."
        let engine = TestEngine(original)
        engine.replaceAnswering = .never
        let coordinator = try makeCoordinator(engine, options: options(completionTimeout: 150))
        try coordinator.start(.rewriteFriendly)
        let error = XCTAssertThrowsEmend(.timeout) { try engine.run(coordinator, timeoutMilliseconds: 20_000) }
        XCTAssertTrue(error?.message.contains("replace") ?? false, "the message names the request: \(error?.message ?? "")")
        XCTAssertEqual(engine.text, original, "the unanswered replace was never applied")
        XCTAssertEqual(coordinator.state, .inactive)
        XCTAssertEqual(engine.states.last, .inactive)
    }

    func testUnansweredContextRequestTimesOut() throws {
        let engine = TestEngine("See you tomorow.")
        engine.contextsAnswering = .never
        let coordinator = try makeCoordinator(engine, options: options(completionTimeout: 150))
        try coordinator.start(.proofread)
        XCTAssertThrowsEmend(.timeout) { try engine.run(coordinator, timeoutMilliseconds: 20_000) }
        XCTAssertEqual(coordinator.state, .inactive)
        XCTAssertTrue(engine.replaces.isEmpty)
    }

    func testLateAnswerAfterTheTimeoutIsStale() throws {
        let engine = TestEngine("I do not think it is ready.")
        engine.replaceAnswering = .later
        let coordinator = try makeCoordinator(engine, options: options(completionTimeout: 150))
        try coordinator.start(.rewriteFriendly)
        XCTAssertThrowsEmend(.timeout) { try engine.run(coordinator, timeoutMilliseconds: 20_000) }
        let late = try XCTUnwrap(engine.heldReplaces.first)
        XCTAssertThrowsEmend(.stale) { try coordinator.answer(late.request, .replaced(nil)) }
    }

    func testEngineFailingARequestEndsTheSessionWithItsStatus() throws {
        let engine = TestEngine("See you tomorow.")
        engine.contextsAnswering = .refuse   // answers .failed(.refused)
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.proofread)
        XCTAssertThrowsEmend(.refused) { try engine.run(coordinator) }
        XCTAssertEqual(coordinator.state, .inactive)
    }

    func testAnswersAreCheckedAgainstTheRequest() throws {
        let engine = TestEngine("See you tomorow.")
        engine.contextsAnswering = .later
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.proofread)
        XCTAssertTrue(try engine.pump(coordinator) { engine.contextRequests.count == 1 })
        // A wrong kind of answer is refused and leaves the request open; an unknown id is stale.
        let request = try XCTUnwrap(engine.heldContexts.first)
        XCTAssertThrowsEmend(.invalidArgument) { try coordinator.answer(request, .done) }
        XCTAssertThrowsEmend(.invalidArgument) { try coordinator.answer(request, .replaced(nil)) }
        XCTAssertThrowsEmend(.stale) { try coordinator.answer(999_999, .done) }
        engine.releaseHeldContexts(coordinator)
        XCTAssertEqual(engine.answerErrors, [])
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "See you tomorrow.")
    }
}
