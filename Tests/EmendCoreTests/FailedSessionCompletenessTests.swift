import XCTest
import Glibc
import EmendCore
import EmendText

/// A session that fails has no result, so its completeness is unknown (nil), as
/// include/emend.h says: never "partial" beside the failure, however the provider (a
/// combination whose only checker failed, or one left running past the time limit)
/// reported its members' parts before. A session that ends well keeps its report.
final class FailedSessionCompletenessTests: XCTestCase {
    /// A combination as the coordinator sees it: it reports what became of its member, then
    /// finishes, fails, or hangs until it is cancelled.
    struct ReportingProvider: WritingProvider {
        enum Ending { case finish, fail, hang }
        let id = "org.emend.tests.reporting"
        let tools: Set<WritingTool> = [.proofread]
        let part: ProviderPart
        let ending: Ending

        func run(_ request: ProviderRequest, sink: ProviderSink) -> ProviderOutcome {
            sink.reportCompleteness(Completeness(parts: [.init(providerID: "org.emend.tests.member", part: part)]))
            switch ending {
            case .finish:
                return .finished
            case .fail:
                return .failed("org.emend.tests.member: the dictionary is missing")
            case .hang:
                while !sink.isCancelled { usleep(2_000) }
                return .failed("cancelled")
            }
        }
    }

    private func run(_ provider: ReportingProvider, options: CoordinatorOptions = CoordinatorOptions()) throws -> (TestEngine, Coordinator) {
        let engine = TestEngine("See you tomorow.")
        let coordinator = try Coordinator(delegate: engine, options: options, providers: [provider])
        try coordinator.start(.proofread)
        XCTAssertTrue(try engine.pump(coordinator) { !engine.endings.isEmpty || coordinator.state == .interactiveResting })
        return (engine, coordinator)
    }

    func testAFailedCombinedRunIsAFailureWithItsReasonNotAPartialResult() throws {
        let (engine, coordinator) = try run(ReportingProvider(part: .failed("the dictionary is missing"), ending: .fail))
        XCTAssertEqual(engine.endings.map(\.status), [.provider])
        let message = engine.endings.first?.message ?? ""
        XCTAssertTrue(message.contains("the dictionary is missing"), "the failure says why: \(message)")
        XCTAssertFalse(message.contains("partial"), message)
        XCTAssertNil(coordinator.completeness, "a failed session's completeness is unknown")
        // Already when the engine is told the state becomes inactive (an engine reads it then).
        let atInactive = engine.completenessAtStates.last { $0.state == .inactive }
        XCTAssertNotNil(atInactive)
        XCTAssertNil(atInactive?.completeness ?? nil, "unknown before the change to inactive")
    }

    func testARunPastTheProvidersTimeLimitIsATimeOutNotAPartialResult() throws {
        var options = CoordinatorOptions()
        options.providerTimeoutMilliseconds = 200
        let (engine, coordinator) = try run(ReportingProvider(part: .timedOut(milliseconds: 100, setting: "timeout_ms"), ending: .hang),
                                            options: options)
        XCTAssertEqual(engine.endings.map(\.status), [.timeout])
        XCTAssertFalse(engine.endings.first?.message.contains("partial") ?? true, "\(engine.endings)")
        XCTAssertNil(coordinator.completeness)
    }

    func testAPartialResultThatEndsWellKeepsItsReport() throws {
        let (engine, coordinator) = try run(ReportingProvider(part: .timedOut(milliseconds: 300, setting: "timeout_ms"), ending: .finish))
        XCTAssertEqual(coordinator.state, .interactiveResting)
        XCTAssertEqual(coordinator.completeness?.isPartial, true, "while the user reviews it")
        try coordinator.accept()
        XCTAssertTrue(try engine.pump(coordinator) { !engine.endings.isEmpty })
        XCTAssertEqual(engine.endings.map(\.status), [.ok])
        XCTAssertTrue(engine.endings.first?.message.hasPrefix("partial result: org.emend.tests.member did not finish") ?? false,
                      "\(engine.endings)")
        XCTAssertEqual(coordinator.completeness?.isPartial, true, "the last ended session's, which had a result")
    }
}
