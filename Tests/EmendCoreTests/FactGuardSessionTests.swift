import XCTest
import EmendCore
import EmendText

/// The fact guard in a session: a result that changes a fact is asked for once more with the
/// facts named, then presented as poor with the reason, never applied inline by itself.
final class FactGuardSessionTests: XCTestCase {
    static let note = "The launch got pushed to next week because legal still hasnt signed off. Please dont tell customers a date yet."

    func testAChangedFactIsAskedAgainWithTheFactsNamedAndTheGoodAnswerApplied() throws {
        let engine = TestEngine(Self.note)
        let provider = ScriptedProvider(markdown: false) { request in
            request.guidance == nil
                ? ["I'm glad the launch was delayed. Please let customers know about it."]
                : ["The launch moved to next week since legal still hasn't signed off. Please don't tell customers a date yet."]
        }
        let coordinator = try Coordinator(delegate: engine, options: CoordinatorOptions(), providers: [provider])
        try coordinator.start(.rewriteFriendly)
        try engine.run(coordinator)
        XCTAssertEqual(provider.requests.count, 2, "asked once more")
        let guidance = try XCTUnwrap(provider.requests.last?.guidance)
        XCTAssertTrue(guidance.contains("‘next week’"), guidance)
        XCTAssertEqual(engine.text, "The launch moved to next week since legal still hasn't signed off. Please don't tell customers a date yet.")
        XCTAssertTrue(engine.presented.isEmpty)
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, Self.note)
    }

    func testAResultThatStillChangesAFactIsPresentedWithTheReasonNeverApplied() throws {
        let engine = TestEngine(Self.note)
        engine.presentedAction = .dismiss
        let provider = ScriptedProvider(markdown: false, pauseMicroseconds: 2_000) { _ in
            ["I'm glad to hear the launch has been delayed. ", "Please let customers know about this situation."]
        }
        var options = CoordinatorOptions()
        options.streaming = .sentences(minimumNewBytes: 1)
        let coordinator = try Coordinator(delegate: engine, options: options, providers: [provider])
        try coordinator.start(.rewriteFriendly)
        try engine.run(coordinator)
        XCTAssertEqual(provider.requests.count, 2)
        let presented = try XCTUnwrap(engine.presented.last)
        let explanation = try XCTUnwrap(presented.explanation)
        XCTAssertTrue(explanation.contains("drops ‘next week’"), explanation)
        XCTAssertTrue(explanation.contains("negation of ‘tell customers a date"), explanation)
        XCTAssertEqual(engine.text, Self.note, "what streamed in went back; nothing applied")
    }

    func testAnEngineThatCannotPresentGetsPoorResult() throws {
        let engine = TestEngine(Self.note)
        engine.capabilities = DelegateCapabilities.all.subtracting(.presentResult)
        let provider = ScriptedProvider(markdown: false) { _ in ["The launch is tomorrow. Tell customers the date."] }
        let coordinator = try Coordinator(delegate: engine, options: CoordinatorOptions(), providers: [provider])
        try coordinator.start(.rewriteProfessional)
        let error = XCTAssertThrowsEmend(.poorResult) { try engine.run(coordinator) }
        XCTAssertTrue(error?.message.contains("The result changes facts of the text") ?? false, error?.message ?? "")
        XCTAssertEqual(engine.text, Self.note)
    }

    func testASummaryMayLeaveFactsOutButNotAddThem() throws {
        let engine = TestEngine(Self.note)
        engine.presentedAction = .dismiss
        let good = ScriptedProvider(markdown: false) { _ in ["Launch delayed to next week."] }
        let coordinator = try Coordinator(delegate: engine, options: CoordinatorOptions(), providers: [good])
        try coordinator.start(.summary)
        try engine.run(coordinator)
        XCTAssertNil(engine.presented.last?.explanation, "a summary that keeps to the text is a good one")

        let inventive = ScriptedProvider(markdown: false) { _ in ["Launch delayed to Monday; Acme Corp will sign."] }
        let second = TestEngine(Self.note)
        second.presentedAction = .dismiss
        let other = try Coordinator(delegate: second, options: CoordinatorOptions(), providers: [inventive])
        try other.start(.summary)
        try second.run(other)
        let explanation = try XCTUnwrap(second.presented.last?.explanation)
        XCTAssertTrue(explanation.contains("adds ‘Monday’") && explanation.contains("adds ‘Acme Corp’"), explanation)
    }

    func testAProviderThatCannotRetryIsNotAskedAgain() throws {
        struct Stubborn: WritingProvider {
            let id = "org.emend.tests.stubborn"
            let tools: Set<WritingTool> = Set(WritingTool.allCases)
            var canRetry: Bool { false }
            func run(_ request: ProviderRequest, sink: ProviderSink) -> ProviderOutcome {
                sink.emitText("Ship on Friday.")
                return .finished
            }
        }
        let engine = TestEngine("Ship on Monday.")
        engine.presentedAction = .dismiss
        let coordinator = try Coordinator(delegate: engine, options: CoordinatorOptions(), providers: [Stubborn()])
        try coordinator.start(.rewriteConcise)
        try engine.run(coordinator)
        XCTAssertEqual(engine.presented.last?.explanation, "The result changes facts of the text: changes ‘Monday’ to ‘Friday’.")
        XCTAssertEqual(engine.text, "Ship on Monday.")
    }
}
