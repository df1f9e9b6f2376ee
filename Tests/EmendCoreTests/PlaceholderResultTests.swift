import XCTest
import EmendCore
import EmendText

/// Protected text and attachments in a Markdown provider's result: each comes back exactly
/// once, whatever the provider did with its placeholder, and the engine's own copy of it is
/// never replaced.
final class PlaceholderResultTests: XCTestCase {
    private func run(_ text: String, answer: String, resultOptions: ResultOptions = [],
                     configure: (TestEngine) -> Void = { _ in }) throws -> (TestEngine, Coordinator, ScriptedProvider) {
        let engine = TestEngine(text, selection: 0..<text.utf8.count)
        configure(engine)
        var options = CoordinatorOptions()
        options.streaming = .wholeResult
        options.preferredResultOptions = resultOptions
        let provider = ScriptedProvider(markdown: true, [answer])
        let coordinator = try Coordinator(delegate: engine, options: options, providers: [provider])
        try coordinator.start(.rewriteFriendly)
        try engine.run(coordinator)
        return (engine, coordinator, provider)
    }

    private func attachments(_ text: String) -> Int { text.unicodeScalars.filter { $0 == "\u{FFFC}" }.count }

    func testAnAttachmentInsideProtectedTextSurvivesAStyledReplaceOfTheWholeRegion() throws {
        let original = "Keep A\u{FFFC}B here. Also \u{FFFC} there."
        let (engine, coordinator, provider) = try run(original, answer: "Now keep ⟦1⟧ here. Also ⟦2⟧ there.",
                                                      resultOptions: [.presentationIntent]) { engine in
            engine.protectedRanges = [byteRange(of: "A\u{FFFC}B", in: original)!]
            engine.blockIntents = [BlockIntent(range: 0..<original.utf8.count, kind: .paragraph)]
        }
        XCTAssertEqual(provider.requests.first?.markdown, "Keep ⟦1⟧ here. Also ⟦2⟧ there.")
        XCTAssertEqual(engine.text, "Now keep A\u{FFFC}B here. Also \u{FFFC} there.")
        XCTAssertFalse(engine.appliedReplaces.contains { attachments($0.text) > 0 }, "the protected bytes are never replaced")
        let context = try coordinator.contextText(coordinator.contextIDs[0])
        XCTAssertEqual(context.protectedRanges.map { context.substring($0) }, ["A\u{FFFC}B"])
    }

    func testAPlaceholderTheProviderMovedLeavesExactlyOneAttachment() throws {
        let original = "Sentence one has \u{FFFC} inside it here."
        let (engine, coordinator, _) = try run(original, answer: "Sentence one has inside it here ⟦1⟧ now.")
        XCTAssertEqual(engine.text, "Sentence one has inside it here \u{FFFC} now.")
        XCTAssertFalse(engine.appliedReplaces.contains { attachments($0.text) > 0 }, "the engine's attachment is never replaced")
        XCTAssertTrue(engine.presented.isEmpty)
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, original)
    }

    func testAMovedPlaceholderOfProtectedTextLeavesItOnce() throws {
        let original = "Run `make all` to build it. It is done."
        let (engine, _, _) = try run(original, answer: "Run to build it ⟦1⟧. It is done.") { engine in
            engine.protectedRanges = [byteRange(of: "`make all`", in: original)!]
        }
        XCTAssertEqual(engine.text, "Run to build it `make all`. It is done.")
        XCTAssertFalse(engine.appliedReplaces.contains { $0.text.contains("make all") }, "the protected text is never replaced")
    }

    func testTextThatHoldsAPlaceholderTokenKeepsItAndTheRealPlaceholderGetsAnotherNumber() throws {
        let original = "Write ⟦1⟧ to mark \u{FFFC} here."
        let (engine, _, provider) = try run(original, answer: "Write ⟦1⟧ to show ⟦2⟧ here.")
        XCTAssertEqual(provider.requests.first?.markdown, "Write ⟦1⟧ to mark ⟦2⟧ here.")
        XCTAssertEqual(engine.text, "Write ⟦1⟧ to show \u{FFFC} here.")
    }
}
