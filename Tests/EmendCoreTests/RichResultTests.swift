import XCTest
import Glibc
import EmendCore
import EmendText

/// Rich text through Writing Tools: the provider reads Markdown with placeholders, its
/// Markdown comes back as styled text reduced to the engine's result options, the original's
/// attributes survive where its words do, and protected text comes through byte for byte.
final class RichResultTests: XCTestCase {
    /// A provider that answers every request with fixed Markdown and records what it read.
    final class MarkdownScript: WritingProvider, @unchecked Sendable {
        let id = "org.emend.tests.markdown"
        let tools: Set<WritingTool> = Set(WritingTool.allCases)
        var writesMarkdown: Bool { true }
        let answer: (ProviderRequest) -> String
        private(set) var requests: [ProviderRequest] = []
        init(_ answer: @escaping (ProviderRequest) -> String) { self.answer = answer }
        convenience init(_ fixed: String) { self.init { _ in fixed } }
        func run(_ request: ProviderRequest, sink: ProviderSink) -> ProviderOutcome {
            requests.append(request)
            sink.emitText(answer(request))
            return .finished
        }
    }

    static let structured = """
        # Plan

        Some *nice* and **bold** text with `code`.

        - first point
          1. sub one
          2. sub two
        - second point

        | Name | Count |
        |------|-------|
        | pears | 2 |

        ```
        let x = 1
        ```
        """

    private func run(_ text: String, tool: WritingTool = .rewriteDescribed, prompt: String? = "make it structured",
                     options resultOptions: ResultOptions, provider: WritingProvider,
                     configure: (TestEngine) -> Void = { _ in }) throws -> (TestEngine, Coordinator) {
        let engine = TestEngine(text)
        configure(engine)
        var coordinatorOptions = CoordinatorOptions()
        coordinatorOptions.preferredResultOptions = resultOptions
        let coordinator = try Coordinator(delegate: engine, options: coordinatorOptions, providers: [provider])
        try coordinator.start(tool, prompt: tool.needsPrompt ? prompt : nil)
        try engine.run(coordinator)
        return (engine, coordinator)
    }

    private func covered(_ range: Range<Int>, in engine: TestEngine) -> String { substring(engine.text, range) }

    // MARK: attributes survive a rewrite

    func testRewriteKeepsBoldLinkAndAttachmentWhereTheWordsSurvive() throws {
        let original = "I do not think the report is ready. See the plan \u{FFFC} now."
        let report = byteRange(of: "report", in: original)!, plan = byteRange(of: "the plan", in: original)!
        let (engine, _) = try run(original, tool: .rewriteFriendly, options: [.richText], provider: FixtureProvider()) { engine in
            engine.attributeRuns = [AttributeRun(range: report, key: "bold", value: "1"),
                                    AttributeRun(range: plan, key: "link", value: "https://example.org/plan"),
                                    AttributeRun(range: plan, key: "colour", value: "#884400")]
        }
        XCTAssertEqual(engine.text, "I don't think the report is ready. See the plan \u{FFFC} now!")
        let newReport = byteRange(of: "report", in: engine.text)!, newPlan = byteRange(of: "the plan", in: engine.text)!
        XCTAssertTrue(engine.attributeRuns.contains(AttributeRun(range: newReport, key: "bold", value: "1")), "\(engine.attributeRuns)")
        XCTAssertTrue(engine.attributeRuns.contains(AttributeRun(range: newPlan, key: "link", value: "https://example.org/plan")))
        XCTAssertTrue(engine.attributeRuns.contains(AttributeRun(range: newPlan, key: "colour", value: "#884400")),
                      "a key of the engine's own comes along too")
        XCTAssertEqual(engine.text.unicodeScalars.filter { $0 == "\u{FFFC}" }.count, 1)
    }

    func testTheProviderReadsMarkdownWithPlaceholdersAndTheOriginalAttributesComeBackWhenItDropsThem() throws {
        let original = "The report is ready. See the plan \u{FFFC} now."
        let report = byteRange(of: "report", in: original)!, plan = byteRange(of: "the plan", in: original)!
        // The model drops the markup and the placeholder: attributes come back by alignment,
        // the attachment is put back, never lost.
        let script = MarkdownScript("The report is ready today. See the plan now.")
        let (engine, _) = try run(original, options: [.richText], provider: script) { engine in
            engine.attributeRuns = [AttributeRun(range: report, key: "bold", value: "1"),
                                    AttributeRun(range: plan, key: "link", value: "https://example.org/plan")]
        }
        let markdown = try XCTUnwrap(script.requests.first?.markdown)
        XCTAssertTrue(markdown.contains("**report**"), markdown)
        XCTAssertTrue(markdown.contains("[the plan](https://example.org/plan)"), markdown)
        XCTAssertTrue(markdown.contains("⟦1⟧"), markdown)
        XCTAssertFalse(markdown.contains("\u{FFFC}"), "the attachment is a placeholder, not the character")
        XCTAssertTrue(engine.text.hasPrefix("The report is ready today. See the plan"), engine.text)
        XCTAssertEqual(engine.text.unicodeScalars.filter { $0 == "\u{FFFC}" }.count, 1, engine.text)
        let attachment = byteRange(of: "\u{FFFC}", in: engine.text)!
        XCTAssertGreaterThan(attachment.lowerBound, byteRange(of: "the plan", in: engine.text)!.upperBound - 1)
        XCTAssertTrue(engine.attributeRuns.contains(AttributeRun(range: byteRange(of: "report", in: engine.text)!, key: "bold", value: "1")))
        XCTAssertTrue(engine.attributeRuns.contains(AttributeRun(range: byteRange(of: "the plan", in: engine.text)!, key: "link",
                                                                 value: "https://example.org/plan")))
    }

    func testProtectedTextRoundTripsByteForByte() throws {
        let original = "run `make install` now, then read \u{FFFC} and ＣＡＰＳ ok."
        let code = byteRange(of: "`make install`", in: original)!, caps = byteRange(of: "ＣＡＰＳ ok", in: original)!
        let (engine, _) = try run(original, tool: .rewriteDescribed, prompt: "make it uppercase", options: [.richText],
                                  provider: FixtureProvider()) { engine in
            engine.protectedRanges = [code, caps]
        }
        XCTAssertTrue(engine.text.hasPrefix("RUN `make install` NOW, THEN READ \u{FFFC} AND ＣＡＰＳ ok"), engine.text)
        XCTAssertEqual(engine.text.unicodeScalars.filter { $0 == "\u{FFFC}" }.count, 1)
    }

    // MARK: result options shape the same Markdown

    func testPlainTextEnginesGetPlainTextWithoutMarkup() throws {
        let (engine, _) = try run("Draft.", options: [.plainText], provider: MarkdownScript(Self.structured))
        XCTAssertEqual(engine.text, """
            Plan

            Some nice and bold text with code.

            - first point
              1. sub one
              2. sub two
            - second point

            Name\tCount
            pears\t2

            let x = 1
            """)
        XCTAssertTrue(engine.attributeRuns.isEmpty)
        XCTAssertTrue(engine.blockIntents.isEmpty)
        XCTAssertTrue(engine.replaces.allSatisfy { !$0.styled })
    }

    func testRichTextWithoutTablesGetsDisplayAttributesAndTablesAsLines() throws {
        let (engine, _) = try run("Draft.", options: [.richText], provider: MarkdownScript(Self.structured))
        XCTAssertTrue(engine.text.contains("Name\tCount\npears\t2"), engine.text)
        XCTAssertTrue(engine.text.contains("- first point"), "no list option: lists as lines")
        XCTAssertTrue(engine.blockIntents.isEmpty)
        XCTAssertTrue(engine.attributeRuns.contains(AttributeRun(range: byteRange(of: "nice", in: engine.text)!, key: "italic", value: "1")))
        XCTAssertTrue(engine.attributeRuns.contains(AttributeRun(range: byteRange(of: "bold", in: engine.text)!, key: "bold", value: "1")))
        XCTAssertTrue(engine.attributeRuns.contains(AttributeRun(range: byteRange(of: "code", in: engine.text)!, key: "monospace", value: "1")))
        XCTAssertTrue(engine.replaces.contains { $0.styled })
        XCTAssertFalse(engine.text.contains("*") || engine.text.contains("`") || engine.text.contains("|"))
    }

    func testPresentationIntentEnginesGetIntentsForHeadingsListsTablesAndCode() throws {
        let (engine, _) = try run("Draft.", options: [.richText, .list, .table, .presentationIntent],
                                  provider: MarkdownScript(Self.structured))
        let intents = engine.blockIntents
        func intent(_ kind: BlockKind, over words: String) -> BlockIntent? {
            intents.first { $0.kind == kind && covered($0.range, in: engine) == words }
        }
        XCTAssertEqual(intent(.heading, over: "Plan")?.level, 1)
        XCTAssertEqual(intent(.listItem, over: "first point")?.level, 1)
        XCTAssertEqual(intent(.listItem, over: "first point")?.ordinal, 0)
        XCTAssertEqual(intent(.listItem, over: "sub two")?.level, 2)
        XCTAssertEqual(intent(.listItem, over: "sub two")?.ordinal, 2)
        XCTAssertEqual(intent(.tableCell, over: "Count").map { [$0.row, $0.column] }, [0, 1])
        XCTAssertEqual(intent(.tableCell, over: "pears").map { [$0.row, $0.column] }, [1, 0])
        XCTAssertNotNil(intent(.codeBlock, over: "let x = 1"))
        XCTAssertFalse(engine.text.contains("- first"), "list markers are the engine's to draw")
        XCTAssertTrue(engine.attributeRuns.contains(AttributeRun(range: byteRange(of: "nice", in: engine.text)!, key: "emphasis", value: "1")))
        XCTAssertTrue(engine.attributeRuns.contains(AttributeRun(range: byteRange(of: "bold", in: engine.text)!, key: "strong", value: "1")))
        XCTAssertFalse(engine.attributeRuns.contains { $0.key == "italic" || $0.key == "bold" }, "intents instead of display attributes")
    }

    func testTableToolReplacesInlineAsCellsWhenTheEngineHasTablesAndAsLinesWhenNot() throws {
        let text = "Apples are red. Pears are green."
        let (rich, _) = try run(text, tool: .table, options: [.richText, .table], provider: FixtureProvider())
        XCTAssertTrue(rich.presented.isEmpty, "a table replaces the text inline")
        let cells = rich.blockIntents.filter { $0.kind == .tableCell }
        XCTAssertEqual(cells.count, 6, "\(rich.blockIntents)")
        XCTAssertEqual(cells.map { covered($0.range, in: rich) }, ["#", "Sentence", "1", "Apples are red.", "2", "Pears are green."])
        XCTAssertEqual(rich.text, "#\tSentence\n1\tApples are red.\n2\tPears are green.")

        let (plain, _) = try run(text, tool: .table, options: [.plainText], provider: FixtureProvider())
        XCTAssertEqual(plain.text, "#\tSentence\n1\tApples are red.\n2\tPears are green.")
        XCTAssertTrue(plain.blockIntents.isEmpty)
    }

    func testAListAroundAnAttachmentKeepsTheAttachmentInPlace() throws {
        let text = "Apples \u{FFFC} are red. Pears are green."
        let (engine, coordinator) = try run(text, tool: .list, options: [.richText, .list], provider: FixtureProvider())
        XCTAssertEqual(engine.text, "Apples \u{FFFC} are red.\nPears are green.")
        // No replace covers the attachment, so the first item's intent arrives in two pieces,
        // one on either side of it, with equal fields.
        XCTAssertEqual(engine.blockIntents.filter { $0.kind == .listItem }.map { covered($0.range, in: engine) },
                       ["Apples ", " are red.", "Pears are green."])
        XCTAssertFalse(engine.replaces.contains { substring(text, $0.range).contains("\u{FFFC}") && $0.kind == .result },
                       "no replace covers the attachment")
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, text)
    }

    func testKeyPointsArePresentedAsAListInCompleteBehavior() throws {
        let text = "Apples are red. Pears are green."
        let (engine, _) = try run(text, tool: .keyPoints, options: [.richText, .list], provider: FixtureProvider()) { engine in
            engine.presentedAction = .dismiss
        }
        let result = try XCTUnwrap(engine.presented.first)
        XCTAssertEqual(result.text, "Apples are red.\nPears are green.")
        XCTAssertEqual(result.blockIntents.map(\.kind), [.listItem, .listItem])
        XCTAssertTrue(result.styled)
        XCTAssertNil(result.explanation)
        XCTAssertEqual(engine.text, text, "a presented result leaves the text alone")
    }

    // MARK: poor results are shown, not applied

    func testARewriteIdenticalToTheTextIsPresentedWithAnExplanation() throws {
        let text = "The meeting is at noon."
        let (engine, coordinator) = try run(text, tool: .rewriteProfessional, options: [], provider: MarkdownScript(text)) { engine in
            engine.presentedAction = .dismiss
        }
        let result = try XCTUnwrap(engine.presented.first)
        XCTAssertTrue(result.explanation?.contains("same as the original") ?? false, "\(String(describing: result.explanation))")
        XCTAssertEqual(engine.text, text)
        XCTAssertEqual(coordinator.state, .inactive)
    }

    func testAPoorResultFailsTheSessionWhenTheEngineCannotPresent() throws {
        let text = "The meeting is at noon. Bring the notes."
        let looping = "- Bring the notes.\n- Bring the notes.\n- The meeting."
        let engine = TestEngine(text)
        engine.capabilities.remove(.presentResult)
        let coordinator = try Coordinator(delegate: engine, options: CoordinatorOptions(), providers: [MarkdownScript(looping)])
        try coordinator.start(.list)
        XCTAssertThrowsEmend(.poorResult) { try engine.run(coordinator) }
        XCTAssertEqual(engine.text, text, "nothing of a poor result stays in the text")
    }

    func testASummaryLongerThanItsTextIsPoor() throws {
        let text = "Short text here."
        let (engine, _) = try run(text, tool: .summary, options: [], provider: MarkdownScript("A much longer summary than the text itself, which is wrong.")) { engine in
            engine.presentedAction = .dismiss
        }
        XCTAssertTrue(engine.presented.first?.explanation?.contains("summary") ?? false)
    }

    func testATableThatCountsOnWithTheSameRowIsPoor() throws {
        let text = "We met on Monday and on Tuesday."
        let looping = "| Day | Note |\n| --- | --- |\n| 1. Feedback | 1. Thanks |\n| 2. Feedback | 2. Thanks |\n| 3. Feedback | 3. Thanks |"
        let (engine, _) = try run(text, tool: .table, options: [.richText, .table], provider: MarkdownScript(looping)) { engine in
            engine.presentedAction = .dismiss
        }
        XCTAssertTrue(engine.presented.first?.explanation?.contains("repeats itself") ?? false,
                      "\(String(describing: engine.presented.first?.explanation))")
        XCTAssertEqual(engine.text, text)
    }

    func testItemsThatDifferOnlyInANumberTwiceAreNotPoor() throws {
        let text = "Phase 1 builds the frame. Phase 2 paints it."
        let (engine, _) = try run(text, tool: .list, options: [.richText, .list], provider: MarkdownScript("- Phase 1\n- Phase 2")) { _ in }
        XCTAssertEqual(engine.presented.count, 0)
        XCTAssertEqual(engine.text, "Phase 1\nPhase 2")
    }
}
