import Glibc
import XCTest
import EmendCore

/// A provider that runs out of time ends the session as a timeout that names its setting,
/// never as a poor result, whatever it wrote before it was stopped.
final class TimeoutReasonTests: XCTestCase {
    /// Writes `first` (a changed fact) at once; asked again, or from the start when `slowFirst`,
    /// it writes half a sentence and keeps going until cancelled, then returns as a plugin
    /// whose run was stopped may: finished, with what it wrote.
    final class SlowModel: WritingProvider, @unchecked Sendable {
        let id = "org.emend.tests.slow-model"
        let tools: Set<WritingTool> = Set(WritingTool.allCases)
        let slowFirst: Bool
        private(set) var runs = 0
        init(slowFirst: Bool) { self.slowFirst = slowFirst }

        func run(_ request: ProviderRequest, sink: ProviderSink) -> ProviderOutcome {
            runs += 1
            if !slowFirst && request.guidance == nil {
                sink.emitText("I'm glad the launch was delayed. Please let customers know.")
                return .finished
            }
            sink.emitText("The launch moved ")
            while !sink.isCancelled { usleep(1000) }
            return .finished
        }
    }

    static let note = "The launch got pushed to next week. Please dont tell customers a date yet."

    private func endedByTimeout(_ provider: SlowModel) throws -> (EmendError?, TestEngine) {
        let engine = TestEngine(Self.note)
        engine.presentedAction = .dismiss
        var options = CoordinatorOptions()
        options.providerTimeoutMilliseconds = 300
        let coordinator = try Coordinator(delegate: engine, options: options, providers: [provider])
        try coordinator.start(.rewriteFriendly)
        let error = XCTAssertThrowsEmend(.timeout) { try engine.run(coordinator, timeoutMilliseconds: 20_000) }
        return (error, engine)
    }

    func testATimeoutSaysSoAndNamesItsSetting() throws {
        let (error, engine) = try endedByTimeout(SlowModel(slowFirst: true))
        let message = error?.message ?? ""
        XCTAssertTrue(message.contains("timed out"), message)
        XCTAssertTrue(message.contains("provider_timeout_ms"), message)
        XCTAssertFalse(message.lowercased().contains("poor"), message)
        XCTAssertTrue(engine.presented.isEmpty, "a half answer is not presented as a result")
        XCTAssertEqual(engine.text, Self.note)
    }

    func testARetryThatTimesOutIsATimeoutNotAPoorResult() throws {
        let provider = SlowModel(slowFirst: false)
        let (error, engine) = try endedByTimeout(provider)
        XCTAssertEqual(provider.runs, 2, "asked again after the changed fact")
        XCTAssertTrue(error?.message.contains("timed out") ?? false, error?.message ?? "")
        XCTAssertTrue(engine.presented.isEmpty)
        XCTAssertEqual(engine.text, Self.note)
    }

    func testTheSettingsNameIsTheFrontEndsOwn() throws {
        let engine = TestEngine(Self.note)
        var options = CoordinatorOptions()
        options.providerTimeoutMilliseconds = 200
        options.providerTimeoutSetting = "--timeout"
        let coordinator = try Coordinator(delegate: engine, options: options, providers: [SlowModel(slowFirst: true)])
        try coordinator.start(.summary)
        let error = XCTAssertThrowsEmend(.timeout) { try engine.run(coordinator, timeoutMilliseconds: 20_000) }
        XCTAssertTrue(error?.message.contains("--timeout") ?? false, error?.message ?? "")
    }
}
