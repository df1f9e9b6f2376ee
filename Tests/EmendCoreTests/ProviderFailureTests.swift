import XCTest
import EmendCore
import EmendText

/// A provider that fails or never finishes ends the session without changing the document.
final class ProviderFailureTests: XCTestCase {
    func testFailingProviderEndsTheSessionWithAProviderError() throws {
        let original = "Please do not break. [fixture:fail] It is fine."
        let engine = TestEngine(original)
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.rewriteFriendly)
        let error = XCTAssertThrowsEmend(.provider) { try engine.run(coordinator) }
        XCTAssertTrue(error?.message.contains("org.emend.fixture") ?? false, "the message names the provider: \(error?.message ?? "")")
        XCTAssertEqual(engine.text, original)
        XCTAssertTrue(engine.replaces.isEmpty)
        XCTAssertEqual(coordinator.state, .inactive)
        XCTAssertEqual(engine.states, [.interactiveStreaming, .inactive])
        // The failure is reported once; the coordinator is ready for another session.
        try engine.run(coordinator)
        engine.text = "See you tomorow."
        try coordinator.start(.proofread)
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "See you tomorrow.")
    }

    func testFailingProofreadChangesNothing() throws {
        let original = "See you tomorow. [fixture:fail]"
        let engine = TestEngine(original)
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.proofread)
        XCTAssertThrowsEmend(.provider) { try engine.run(coordinator) }
        XCTAssertEqual(engine.text, original)
        XCTAssertTrue(coordinator.suggestions.isEmpty)
    }

    func testUnknownDescribedChangeIsAProviderError() throws {
        let engine = TestEngine("Hello there.")
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.rewriteDescribed, prompt: "make it purple")
        XCTAssertThrowsEmend(.provider) { try engine.run(coordinator) }
        XCTAssertEqual(engine.text, "Hello there.")
    }

    func testHangingProviderTimesOut() throws {
        let original = "This will hang. [fixture:hang]"
        let engine = TestEngine(original)
        let coordinator = try makeCoordinator(engine, options: options(providerTimeout: 150))
        try coordinator.start(.rewriteFriendly)
        let error = XCTAssertThrowsEmend(.timeout) { try engine.run(coordinator, timeoutMilliseconds: 20_000) }
        XCTAssertTrue(error?.message.contains("150") ?? false, "the message gives the limit: \(error?.message ?? "")")
        XCTAssertEqual(engine.text, original)
        XCTAssertTrue(engine.replaces.isEmpty)
        XCTAssertEqual(coordinator.state, .inactive)
    }

    /// A provider's text or an edit's replacement holding a NUL byte (U+0000) refuses the
    /// whole result: a C engine that keeps its text NUL-terminated would lose the rest of its
    /// document, and a result cut at the NUL would look complete. The document stays as it was.
    func testANULByteInAProvidersOutputRefusesTheResult() throws {
        let original = "See you tomorow. It is fine."
        let sessions: [(WritingTool, WritingProvider)] = [
            (.rewriteFriendly, ScriptedProvider(markdown: false, ["See you ", "tomorrow.\u{0} Nothing after this."])),
            (.proofread, NULEditProvider()),
        ]
        for (tool, provider) in sessions {
            let engine = TestEngine(original)
            let coordinator = try Coordinator(delegate: engine, options: CoordinatorOptions(), providers: [provider])
            try coordinator.start(tool)
            let error = XCTAssertThrowsEmend(.provider) { try engine.run(coordinator) }
            XCTAssertTrue(error?.message.contains("NUL byte") ?? false, "\(tool): \(error?.message ?? "")")
            XCTAssertEqual(engine.text, original, "\(tool)")
            XCTAssertFalse(engine.text.utf8.contains(0))
            XCTAssertTrue(coordinator.suggestions.isEmpty)
        }
    }
}

/// Proofreads "tomorow" as "tomorrow" followed by a NUL byte.
private final class NULEditProvider: WritingProvider, @unchecked Sendable {
    let id = "org.emend.tests.nul-edit"
    let tools: Set<WritingTool> = [.proofread]

    func run(_ request: ProviderRequest, sink: ProviderSink) -> ProviderOutcome {
        guard let word = request.text.utf8.firstRange(of: "tomorow".utf8) else { return .failed("no typo") }
        let start = request.text.utf8.distance(from: request.text.utf8.startIndex, to: word.lowerBound)
        sink.emitEdit(ProviderEdit(range: start..<(start + 7), replacement: "tomorrow\u{0}", category: "spelling"))
        return .finished
    }
}
