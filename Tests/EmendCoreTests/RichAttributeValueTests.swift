import XCTest
import EmendCore
import EmendText

/// The engine's attribute values come back exactly as it set them, whatever a provider does
/// to the Markdown it reads (a link's URL included), and results carry one form of each inline
/// style: intents (strong, emphasis, code) for presentation-intent engines, display
/// attributes (bold, italic, monospace) otherwise — never both on the same text.
final class RichAttributeValueTests: XCTestCase {
    static let url = "https://example.com/Path?q=a"

    private func engine(_ text: String, runs: [(String, String, String)]) -> TestEngine {
        let engine = TestEngine(text)
        engine.attributeRuns = runs.map { AttributeRun(range: byteRange(of: $0.0, in: text)!, key: $0.1, value: $0.2) }
        return engine
    }

    private func coordinator(_ engine: TestEngine, _ options: ResultOptions, _ provider: WritingProvider = FixtureProvider()) throws -> Coordinator {
        var coordinatorOptions = CoordinatorOptions()
        coordinatorOptions.preferredResultOptions = options
        return try Coordinator(delegate: engine, options: coordinatorOptions, providers: [provider])
    }

    /// The engine's runs of `key` as "covered text=value", touching runs of one value joined
    /// (replaces may leave an unchanged space between two pieces of the same run).
    private func runs(_ key: String, in engine: TestEngine) -> [String] {
        var joined: [AttributeRun] = []
        for run in engine.attributeRuns.filter({ $0.key == key }).sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
            if let last = joined.last, last.value == run.value, last.range.upperBound >= run.range.lowerBound {
                joined[joined.count - 1].range = last.range.lowerBound..<max(last.range.upperBound, run.range.upperBound)
            } else {
                joined.append(run)
            }
        }
        return joined.map { "\(substring(engine.text, $0.range))=\($0.value)" }
    }

    func testAnUppercaseRewriteKeepsTheLinksURLByteForByte() throws {
        let engine = engine("Read the plan and the notes today.",
                            runs: [("the plan", "link", Self.url), ("notes", "bold", "1"), ("today", "font", "Serif 12")])
        let coordinator = try coordinator(engine, [.richText])
        try coordinator.start(.rewriteDescribed, prompt: "uppercase")
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "READ THE PLAN AND THE NOTES TODAY.")
        XCTAssertEqual(runs("link", in: engine), ["THE PLAN=\(Self.url)"])
        XCTAssertEqual(runs("bold", in: engine), ["NOTES=1"])

        try coordinator.start(.followUp, prompt: "uppercase")
        try engine.run(coordinator)
        XCTAssertEqual(runs("link", in: engine), ["THE PLAN=\(Self.url)"], "a follow-up keeps it too")
    }

    func testADestinationTheProviderInventsComesAsANewLink() throws {
        let script = RichResultTests.MarkdownScript("Read [the plan](HTTPS://EXAMPLE.COM/PATH?Q=A) and [this](https://other.org/x).")
        let engine = engine("Read the plan now.", runs: [("the plan", "link", Self.url)])
        let coordinator = try coordinator(engine, [.richText], script)
        try coordinator.start(.rewriteDescribed, prompt: "anything")
        try engine.run(coordinator)
        XCTAssertEqual(runs("link", in: engine), ["the plan=\(Self.url)", "this=https://other.org/x"])
    }

    func testAnEngineValueOfAFlagKeyComesBackAsTheEngineSetIt() throws {
        let script = RichResultTests.MarkdownScript("The **report** is ready now.")
        let engine = engine("The report is ready.", runs: [("report", "bold", "700")])
        let coordinator = try coordinator(engine, [.richText], script)
        try coordinator.start(.rewriteDescribed, prompt: "anything")
        try engine.run(coordinator)
        XCTAssertEqual(runs("bold", in: engine), ["report=700"], "\(engine.attributeRuns)")
    }

    func testPresentationIntentResultsCarryStrongInsteadOfBoldNeverBoth() throws {
        let script = RichResultTests.MarkdownScript("The **report** is *ready* now, see `make`.")
        let engine = engine("The report is ready, see make.", runs: [("report", "bold", "1"), ("ready", "italic", "1"),
                                                                     ("make", "monospace", "1"), ("see", "colour", "red")])
        let coordinator = try coordinator(engine, [.richText, .presentationIntent], script)
        try coordinator.start(.rewriteDescribed, prompt: "anything")
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "The report is ready now, see make.")
        XCTAssertEqual(runs("strong", in: engine), ["report=1"])
        XCTAssertEqual(runs("emphasis", in: engine), ["ready=1"])
        XCTAssertEqual(runs("code", in: engine), ["make=1"])
        XCTAssertEqual(runs("colour", in: engine), ["see=red"], "keys Markdown does not know come along as they are")
        XCTAssertTrue(runs("bold", in: engine).isEmpty && runs("italic", in: engine).isEmpty && runs("monospace", in: engine).isEmpty,
                      "\(engine.attributeRuns)")
    }

    func testAnOriginalBoldWordThatSurvivesBecomesStrongUnderPresentationIntents() throws {
        // The provider drops the markup: the word survives, its run is carried, as an intent.
        let script = RichResultTests.MarkdownScript("The report is ready now.")
        let engine = engine("The report is ready.", runs: [("report", "bold", "1")])
        let coordinator = try coordinator(engine, [.presentationIntent], script)
        try coordinator.start(.rewriteDescribed, prompt: "anything")
        try engine.run(coordinator)
        XCTAssertEqual(runs("strong", in: engine), ["report=1"])
        XCTAssertEqual(runs("bold", in: engine), [])
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "The report is ready.")
        XCTAssertEqual(runs("bold", in: engine), ["report=1"], "a revert gives back the engine's own run")
        XCTAssertEqual(runs("strong", in: engine), [])
    }

    func testRichTextResultsCarryBoldForAnOriginalStrongRun() throws {
        let script = RichResultTests.MarkdownScript("The **report** is ready now.")
        let engine = engine("The report is ready.", runs: [("report", "strong", "1")])
        let coordinator = try coordinator(engine, [.richText], script)
        try coordinator.start(.rewriteDescribed, prompt: "anything")
        try engine.run(coordinator)
        XCTAssertEqual(runs("bold", in: engine), ["report=1"])
        XCTAssertEqual(runs("strong", in: engine), [])
    }
}
