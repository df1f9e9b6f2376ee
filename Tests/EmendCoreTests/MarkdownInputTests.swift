import XCTest
@testable import EmendCore
import EmendMarkdown
import EmendText

/// A provider that writes Markdown reads the region as Markdown, written on a runtime thread
/// from a copy of the region (`MarkdownInput`, `Coordinator.runProvider`): the engine's
/// thread goes on meanwhile. What the copy writes is what the whole text wrote, and what the
/// engine does while it is written (edits, a stop, letting the coordinator go) loses nothing.
final class MarkdownInputTests: XCTestCase {
    /// Options that write every region elsewhere (a short one is written at once by default).
    private static var elsewhere: CoordinatorOptions {
        var options = CoordinatorOptions()
        options.markdownWrittenHereBelow = 0
        return options
    }

    // MARK: The copy writes what the whole text wrote

    /// A text whose runs, intents and protected ranges cross the regions' edges.
    private static func styledText() -> AttributedText {
        let string = "Intro with bold words here. A heading line\nThe link text and \u{FFFC} after it.\n\nKeep THIS SECRET and more.\n"
            + "- item one\n- item two\n"
        func range(_ needle: String) -> Range<Int> { byteRange(of: needle, in: string)! }
        return AttributedText(
            string,
            attributeRuns: [
                AttributeRun(range: range("bold words here. A"), key: AttributeKey.bold, value: AttributeKey.on),
                AttributeRun(range: range("link text"), key: AttributeKey.link, value: "https://emend.example/"),
                AttributeRun(range: range("and more"), key: AttributeKey.italic, value: AttributeKey.on),
            ],
            blockIntents: [
                BlockIntent(range: range("A heading line"), kind: .heading, level: 2),
                BlockIntent(range: range("item one"), kind: .listItem, level: 1),
                BlockIntent(range: range("item two"), kind: .listItem, level: 1),
            ],
            protectedRanges: [range("THIS SECRET")])
    }

    func testTheRegionsCopyWritesWhatTheWholeTextWrote() throws {
        let text = Self.styledText()
        let string = text.string
        let starts = ["Intro", "words", "heading", "link", "SECRET", "item one", "two"]
        let ends = ["here.", "line", "after it.", "SECRET", "more.", "item one", "two\n"]
        var compared = 0
        for start in starts {
            for end in ends {
                let lower = byteRange(of: start, in: string)!.lowerBound, upper = byteRange(of: end, in: string)!.upperBound
                guard lower < upper else { continue }
                let region = lower..<upper
                for styled in [false, true] {
                    let input = MarkdownInput(of: text.slice(region), styled: styled)
                    // What the engine's thread wrote before: the whole text, the region's range.
                    let separator = ParagraphSeparator.of(text.substring(region), styled: styled)
                    let whole = MarkdownWriter.markdown(of: text, range: region, paragraphSeparator: separator)
                    let label = "\(region) of \(string.debugDescription), styled \(styled)"
                    XCTAssertEqual(input.markdown, whole.markdown, label)
                    XCTAssertEqual(input.paragraphSeparator, separator, label)
                    XCTAssertEqual(input.placeholders.count, whole.placeholders.count, label)
                    for placeholder in whole.placeholders {
                        let written = try XCTUnwrap(input.placeholders[placeholder.token], label)
                        XCTAssertEqual(written.text, text.slice(placeholder.range), label)
                        XCTAssertEqual(written.regionOffset, placeholder.range.lowerBound - region.lowerBound, label)
                    }
                    compared += 1
                }
            }
        }
        XCTAssertGreaterThan(compared, 40)
    }

    // MARK: The engine's thread goes on while it is written

    static let original = "I do not think it is ready. We are waiting for the tests."

    /// A coordinator whose Markdown provider answers the request's Markdown made friendly.
    private func start() throws -> (TestEngine, Coordinator, ScriptedProvider) {
        let engine = TestEngine(Self.original, selection: 0..<Self.original.utf8.count)
        var options = Self.elsewhere
        options.streaming = .wholeResult
        let provider = ScriptedProvider(markdown: true) { request in
            [String((request.markdown ?? "").replacing("do not", with: "don't"))]
        }
        let coordinator = try Coordinator(delegate: engine, options: options, providers: [provider])
        try coordinator.start(.rewriteFriendly)
        return (engine, coordinator, provider)
    }

    /// Whether the request's Markdown is being written: the run read the region, its provider
    /// has not started.
    private static func writing(_ coordinator: Coordinator) -> Bool {
        guard let run = coordinator.session?.run else { return false }
        return run.request == nil && run.requestRegionText.utf8Count > 0
    }

    /// Dispatches until the request's Markdown is being written.
    private func untilWriting(_ engine: TestEngine, _ coordinator: Coordinator) throws {
        XCTAssertTrue(try engine.pump(coordinator) { Self.writing(coordinator) },
                      "the request's Markdown is written off the engine's thread, between two dispatches")
        XCTAssertEqual(coordinator.state, .interactiveStreaming)
    }

    private func type(_ engine: TestEngine, _ coordinator: Coordinator, _ range: Range<Int>, _ text: String) throws {
        engine.edit(range, text)
        try coordinator.updateRange(contextID: coordinator.contextIDs[0], range: range, text: text, reason: .typing)
    }

    func testAnEngineEditWhileTheMarkdownIsWrittenIsKeptInTheResult() throws {
        let (engine, coordinator, provider) = try start()
        try untilWriting(engine, coordinator)
        XCTAssertTrue(provider.requests.isEmpty, "the provider starts once its request is written")
        try type(engine, coordinator, 0..<0, "Now ")
        try type(engine, coordinator, byteRange(of: "waiting", in: engine.text)!, "hoping")
        try engine.run(coordinator)
        XCTAssertNil(coordinator.lastFailure)
        // The provider read the text as it was copied; the engine's edits are rebased onto
        // its result, as those made while a provider runs.
        XCTAssertEqual(provider.requests.first?.markdown, Self.original)
        XCTAssertEqual(engine.text, "Now I don't think it is ready. We are hoping for the tests.")
        XCTAssertEqual(coordinator.state, .interactiveResting)
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(Array(engine.text.utf8), Array("Now I do not think it is ready. We are hoping for the tests.".utf8))
        XCTAssertEqual(coordinator.lastSessionOutcome, .finished)
    }

    func testAStopWhileTheMarkdownIsWrittenNeverStartsTheProvider() throws {
        let (engine, coordinator, provider) = try start()
        try untilWriting(engine, coordinator)
        try type(engine, coordinator, 0..<0, "Now ")
        try coordinator.stop()
        try engine.run(coordinator)
        XCTAssertTrue(provider.requests.isEmpty, "a stopped session's written request goes nowhere")
        XCTAssertEqual(Array(engine.text.utf8), Array(("Now " + Self.original).utf8))
        XCTAssertEqual(coordinator.state, .inactive)
        XCTAssertEqual(coordinator.lastSessionOutcome, .finished)
        XCTAssertTrue(coordinator.isIdle)
    }

    func testACoordinatorLetGoWhileTheMarkdownIsWrittenIsFreed() throws {
        let engine = TestEngine(Self.original, selection: 0..<Self.original.utf8.count)
        let provider = ScriptedProvider(markdown: true, [Self.original])
        weak var weakCoordinator: Coordinator?
        try {
            let coordinator = try Coordinator(delegate: engine, options: Self.elsewhere, providers: [provider])
            weakCoordinator = coordinator
            try coordinator.start(.rewriteFriendly)
            try untilWriting(engine, coordinator)
        }()
        XCTAssertNil(weakCoordinator, "the writing thread does not keep the coordinator")
        usleep(50_000)
        XCTAssertTrue(provider.requests.isEmpty)
        XCTAssertEqual(engine.text, Self.original)
    }
}
