import Foundation
import XCTest
import Glibc
import EmendCore
import EmendText

/// The provider time limit is one instant (`ProviderRequest.deadline`) for the provider and
/// the coordinator. A provider that answers by it itself (a combination of checkers, which
/// leaves the late ones out) gets a grace past it before the coordinator fails the session,
/// so that its honest partial answer does not lose a race against the coordinator's timer
/// on a loaded machine. Deterministic: the test holds the provider's answer until after it
/// dispatched past the deadline, as a machine too busy to run the provider's thread would.
final class ProviderDeadlineTests: XCTestCase {
    /// Waits for the request's deadline, tells the test, waits to be let go (or cancelled),
    /// then answers as a combination whose member ran out of time: a partial result.
    final class LateCombination: WritingProvider, @unchecked Sendable {
        let id = "org.emend.tests.late-combination"
        let tools: Set<WritingTool> = [.proofread]
        let answersByDeadline: Bool
        private let lock = NSLock()
        private var deadlines: [Int64?] = []
        private var pastDeadline = false
        private var released = false

        init(answersByDeadline: Bool) { self.answersByDeadline = answersByDeadline }

        var seenDeadline: Int64?? { lock.withLock { deadlines.first } }
        var isPastDeadline: Bool { lock.withLock { pastDeadline } }
        func release() { lock.withLock { released = true } }

        func run(_ request: ProviderRequest, sink: ProviderSink) -> ProviderOutcome {
            lock.withLock { deadlines.append(request.deadline) }
            guard let deadline = request.deadline else { return .failed("no deadline") }
            while MonotonicClock.nowMilliseconds() <= deadline { usleep(1_000) }
            lock.withLock { pastDeadline = true }
            while !lock.withLock({ released }) {
                if sink.isCancelled { return .failed("cancelled") }
                usleep(1_000)
            }
            sink.reportCompleteness(Completeness(parts: [
                .init(providerID: "org.emend.tests.slow", part: .timedOut(milliseconds: 300, setting: "the command's time limit")),
                .init(providerID: "org.emend.tests.fast", part: .finished),
            ]))
            sink.emitEdit(ProviderEdit(range: 8..<15, replacement: "tomorrow", category: "spelling"))
            return .finished
        }
    }

    private func start(_ provider: LateCombination, limit: Int64) throws -> (TestEngine, Coordinator) {
        let engine = TestEngine("See you tomorow.")
        var options = CoordinatorOptions()
        options.providerTimeoutMilliseconds = limit
        let coordinator = try Coordinator(delegate: engine, options: options, providers: [provider])
        try coordinator.start(.proofread)
        return (engine, coordinator)
    }

    func testAnAnswerThatComesAfterTheDeadlineWithinTheGraceIsTheResult() throws {
        let provider = LateCombination(answersByDeadline: true)
        let started = MonotonicClock.nowMilliseconds()
        let (engine, coordinator) = try start(provider, limit: 300)
        // The coordinator dispatches past the deadline while the answer is held back.
        XCTAssertTrue(try engine.pump(coordinator) { provider.isPastDeadline })
        let deadline = try XCTUnwrap(provider.seenDeadline ?? nil, "the request carries the deadline")
        XCTAssertGreaterThanOrEqual(deadline, started + 300)
        XCTAssertLessThanOrEqual(deadline, MonotonicClock.nowMilliseconds())
        try engine.dispatching { _ = try coordinator.dispatch() }
        XCTAssertTrue(engine.endings.isEmpty, "not timed out at the deadline: \(engine.endings)")
        provider.release()
        XCTAssertTrue(try engine.pump(coordinator) { coordinator.state == .interactiveResting || !engine.endings.isEmpty })
        XCTAssertEqual(coordinator.state, .interactiveResting, "\(engine.endings)")
        XCTAssertEqual(coordinator.suggestions.map(\.replacement), ["tomorrow"])
        XCTAssertEqual(coordinator.completeness?.isPartial, true, "the honest partial result")
    }

    func testAProviderThatDoesNotAnswerByTheDeadlineItselfIsTimedOutAtIt() throws {
        let provider = LateCombination(answersByDeadline: false)
        let (engine, coordinator) = try start(provider, limit: 300)
        XCTAssertTrue(try engine.pump(coordinator) { !engine.endings.isEmpty })
        XCTAssertEqual(engine.endings.map(\.status), [.timeout])
        provider.release()
    }

    func testAHungCombinationIsStillTimedOutAfterTheGrace() throws {
        let provider = LateCombination(answersByDeadline: true)
        let started = MonotonicClock.nowMilliseconds()
        let (engine, coordinator) = try start(provider, limit: 200)
        XCTAssertTrue(try engine.pump(coordinator, timeoutMilliseconds: 30_000) { !engine.endings.isEmpty })
        XCTAssertEqual(engine.endings.map(\.status), [.timeout])
        XCTAssertTrue(engine.endings.first?.message.contains("did not finish within 200 ms") ?? false, "\(engine.endings)")
        XCTAssertGreaterThanOrEqual(MonotonicClock.nowMilliseconds() - started, 200 + 5_000, "the grace passed first")
        XCTAssertNil(coordinator.completeness)
        provider.release()
    }
}
