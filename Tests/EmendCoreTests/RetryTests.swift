import XCTest
import EmendCore
import EmendText

/// A result the fact guard refuses (issue 29, G4, G5): the retry is asked about the text the
/// first attempt read and is never streamed, so it neither flickers in and out of the text
/// nor writes over what the user typed meanwhile; a result still judged poor is presented
/// with the original in the text and the state no longer STREAMING.
final class RetryTests: XCTestCase {
    static let note = "The launch got pushed to next week because legal still hasnt signed off. Please dont tell customers a date yet."
    static let good = "The launch moved to next week since legal still hasn't signed off. Please don't tell customers a date yet."

    private func streamingOptions() -> CoordinatorOptions {
        var options = CoordinatorOptions()
        options.streaming = .sentences(minimumNewBytes: 1)
        return options
    }

    func testAPoorRetryIsPresentedWithoutStreamingAndWithoutStreamingState() throws {
        let engine = TestEngine(Self.note)
        engine.presentedAction = .dismiss
        let provider = ScriptedProvider(markdown: false, pauseMicroseconds: 2_000) { _ in
            ["I'm glad to hear the launch has been delayed. ", "Please let customers know about this situation."]
        }
        let coordinator = try Coordinator(delegate: engine, options: streamingOptions(), providers: [provider])
        try coordinator.start(.rewriteFriendly)
        try engine.run(coordinator)
        XCTAssertEqual(provider.requests.count, 2, "asked once more")
        XCTAssertEqual(engine.presented.count, 1)
        // The first answer streamed and went back (CANCEL); the retry streamed nothing, so
        // nothing needed putting back before the person was asked.
        let kinds = engine.replaces.map(\.kind)
        let firstCancel = try XCTUnwrap(kinds.firstIndex(of: .cancel), "the first answer streamed in: \(kinds)")
        XCTAssertFalse(kinds[firstCancel...].contains(.result), "the retry was streamed: \(kinds)")
        XCTAssertFalse(kinds.contains(.revert), "nothing to withdraw after the retry: \(kinds)")
        // While the person decides: the original in the text, the state not STREAMING.
        XCTAssertEqual(engine.presentContexts.map(\.text), [Self.note])
        XCTAssertEqual(engine.presentContexts.map(\.state), [.noninteractive])
        XCTAssertEqual(engine.states.last(where: { $0 != .inactive }), .noninteractive)
        XCTAssertEqual(engine.text, Self.note)
        XCTAssertEqual(coordinator.state, .inactive)
    }

    func testAPoorFirstResultIsWithdrawnBeforeThePersonIsAsked() throws {
        // The text comes back unchanged (poor: nothing to apply) from a provider that cannot be
        // asked again; it is presented, with the state no longer STREAMING.
        let engine = TestEngine(Self.note)
        engine.presentedAction = .dismiss
        let provider = ScriptedProvider(markdown: false, pauseMicroseconds: 2_000) { _ in
            ["The launch got pushed to next week because legal still hasnt signed off. ", "Please dont tell customers a date yet."]
        }
        let coordinator = try Coordinator(delegate: engine, options: streamingOptions(), providers: [provider])
        try coordinator.start(.rewriteFriendly)
        try engine.run(coordinator)
        XCTAssertEqual(engine.presented.count, 1)
        XCTAssertNotNil(engine.presented.first?.explanation)
        XCTAssertEqual(engine.presentContexts.map(\.state), [.noninteractive])
        XCTAssertEqual(engine.presentContexts.map(\.text), [Self.note])
    }

    func testTheRetryKeepsWhatTheUserTypedDuringTheFirstAttempt() throws {
        let engine = TestEngine(Self.note)
        // The first answer drops a fact ("next week") and streams sentence by sentence, slowly
        // enough for the user to type in the region meanwhile; the second keeps every fact.
        let provider = ScriptedProvider(markdown: false, pauseMicroseconds: 300_000) { request in
            request.guidance == nil
                ? ["The launch got pushed back. ", "Please dont tell customers a date yet."]
                : [Self.good]
        }
        let coordinator = try Coordinator(delegate: engine, options: streamingOptions(), providers: [provider])
        try coordinator.start(.rewriteFriendly)
        XCTAssertTrue(try engine.pump(coordinator) { engine.appliedReplaces.contains { $0.kind == .result } },
                      "the first answer's first sentence streamed in")
        XCTAssertEqual(provider.requests.count, 1)
        // The user types inside the region, in the sentence not streamed yet.
        let please = try XCTUnwrap(byteRange(of: "Please", in: engine.text))
        let typed = please.lowerBound..<please.lowerBound
        engine.edit(typed, "XYZ ")
        let contextID = try XCTUnwrap(coordinator.contextIDs.first)
        try coordinator.updateRange(contextID: contextID, range: typed, text: "XYZ ", reason: .typing)
        try engine.run(coordinator)
        XCTAssertEqual(provider.requests.count, 2, "asked once more")
        XCTAssertEqual(provider.requests[1].text, provider.requests[0].text, "the retry asks about the text the first read")
        XCTAssertTrue(engine.presented.isEmpty)
        XCTAssertEqual(engine.text, "The launch moved to next week since legal still hasn't signed off. XYZ Please don't tell customers a date yet.",
                       "the user's typing is kept, the retry's result arrives around it")
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "The launch got pushed to next week because legal still hasnt signed off. XYZ Please dont tell customers a date yet.")
        XCTAssertEqual(engine.answerErrors.map(\.message), [])
    }
}
