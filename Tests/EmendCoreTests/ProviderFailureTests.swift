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
}
