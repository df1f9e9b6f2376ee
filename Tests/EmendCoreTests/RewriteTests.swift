import XCTest
import EmendCore
import EmendText

/// Rewrites: the result replaces the working region inline, is selected, and can be reverted,
/// shown as the original and back, or accepted.
final class RewriteTests: XCTestCase {
    static let original = "I do not think it is ready. We are waiting for the tests."
    static let friendly = "I don't think it's ready. We're waiting for the tests!"

    private func rewrite(_ text: String = original, selection: Range<Int> = 0..<0,
                         tool: WritingTool = .rewriteFriendly, prompt: String? = nil) throws -> (TestEngine, Coordinator) {
        let engine = TestEngine(text, selection: selection)
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(tool, prompt: prompt)
        try engine.run(coordinator)
        return (engine, coordinator)
    }

    func testRewriteReplacesTheRegionAndSelectsIt() throws {
        let (engine, coordinator) = try rewrite()
        XCTAssertEqual(engine.text, Self.friendly)
        XCTAssertEqual(coordinator.resultText, Self.friendly)
        XCTAssertEqual(coordinator.state, .interactiveResting)
        XCTAssertGreaterThan(engine.replaces.count, 1, "each distinct change is its own replace")
        XCTAssertTrue(engine.replaces.allSatisfy { $0.kind == .result && $0.reason == .interactive && $0.engineContext == 0xE1 })
        XCTAssertEqual(engine.selections, [[0..<Self.friendly.utf8.count]])
        XCTAssertEqual(engine.preparedAnimations, [.anticipate])
        XCTAssertEqual(engine.finishedAnimations, [.anticipate])
        XCTAssertTrue(coordinator.suggestions.isEmpty)
    }

    func testRevertRestoresTheOriginalByteForByte() throws {
        let (engine, coordinator) = try rewrite()
        let delivered = engine.replaces.count
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(Array(engine.text.utf8), Array(Self.original.utf8))
        XCTAssertEqual(coordinator.state, .inactive)
        XCTAssertTrue(engine.replaces.dropFirst(delivered).allSatisfy { $0.kind == .revert })
        XCTAssertNil(coordinator.resultText)
    }

    func testAcceptKeepsTheResult() throws {
        let (engine, coordinator) = try rewrite()
        let delivered = engine.replaces.count
        try coordinator.accept()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, Self.friendly)
        XCTAssertEqual(engine.replaces.count, delivered)
        XCTAssertEqual(coordinator.state, .inactive)
    }

    func testShowOriginalAndShowRewritten() throws {
        let (engine, coordinator) = try rewrite()
        try coordinator.showOriginal(true)
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, Self.original)
        XCTAssertEqual(engine.replaces.last?.kind, .showOriginal)
        XCTAssertEqual(coordinator.state, .interactiveResting)
        try coordinator.showOriginal(false)
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, Self.friendly)
        XCTAssertEqual(engine.replaces.last?.kind, .showRewritten)
        // Revert while the original is shown, then the text is still the original.
        try coordinator.showOriginal(true)
        try engine.run(coordinator)
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, Self.original)
        XCTAssertEqual(coordinator.state, .inactive)
    }

    func testOnlyTheSelectedSentenceIsRewritten() throws {
        let text = "It is late. I do not know. We are here."
        let inside = try XCTUnwrap(byteRange(of: "do not", in: text))
        let (engine, coordinator) = try rewrite(text, selection: inside)
        // The region is the whole sentence with its trailing space; the others stay as they are.
        XCTAssertEqual(engine.text, "It is late. I don't know. We are here.")
        let region = try XCTUnwrap(byteRange(of: "I don't know. ", in: engine.text))
        XCTAssertEqual(engine.selections.last, [region])
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, text)
    }

    func testDescribedRewriteFollowsThePrompt() throws {
        let (engine, _) = try rewrite("Please call me back.", tool: .rewriteDescribed, prompt: "make it uppercase")
        XCTAssertEqual(engine.text, "PLEASE CALL ME BACK.")
    }

    func testConciseAndProfessionalRewrites() throws {
        let (concise, _) = try rewrite("We really need to go in order to win.", tool: .rewriteConcise)
        XCTAssertEqual(concise.text, "We need to go to win.")
        let (professional, _) = try rewrite("I don't think it's ready, thanks.", tool: .rewriteProfessional)
        XCTAssertEqual(professional.text, "I do not think it is ready, thank you.")
    }

    func testComposeInsideALineIsSeparatedBySpaces() throws {
        let text = "Hi Al.Best, Ann"
        let caret = "Hi Al.".utf8.count
        let (engine, _) = try rewrite(text, selection: caret..<caret, tool: .compose, prompt: "thank you for the flowers")
        XCTAssertEqual(engine.text, "Hi Al. Thank you for the flowers. Best, Ann")
    }

    func testComposeInsertsAtTheCaret() throws {
        let text = "Dear team,\n\nBest, Ann"
        let caret = "Dear team,\n\n".utf8.count
        let (engine, coordinator) = try rewrite(text, selection: caret..<caret, tool: .compose, prompt: "the release moves to friday")
        // The new paragraph stands apart from the text after it, as a writer would put it.
        XCTAssertEqual(engine.text, "Dear team,\n\nThe release moves to friday.\n\nBest, Ann")
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, text)
    }
}
