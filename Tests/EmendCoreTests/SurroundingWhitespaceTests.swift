import XCTest
@testable import EmendCore
import EmendText

/// A model answers with its prose only: the line breaks and spaces around the text it read
/// (a file's final newline, the blank lines before a paragraph) are no part of its answer,
/// and must stay in the text exactly as they were.
final class SurroundingWhitespaceTests: XCTestCase {
    private func rewrite(_ text: String, answer: String, tool: WritingTool = .rewriteFriendly,
                         selection: Range<Int> = 0..<0) throws -> (TestEngine, Coordinator) {
        let engine = TestEngine(text, selection: selection)
        engine.presentedAction = .apply
        let provider = ScriptedProvider(markdown: false, [answer])
        let coordinator = try Coordinator(delegate: engine, options: CoordinatorOptions(), providers: [provider])
        try coordinator.start(tool)
        try engine.run(coordinator)
        return (engine, coordinator)
    }

    func testAWholeTextRewriteKeepsTheFinalNewline() throws {
        let (engine, coordinator) = try rewrite("I am sure it is fine. We are ready.\n", answer: "I'm sure it's fine. We're ready!")
        XCTAssertEqual(engine.text, "I'm sure it's fine. We're ready!\n")
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "I am sure it is fine. We are ready.\n", "revert gives the original back byte for byte")
    }

    func testLeadingAndTrailingBlankLinesStayExactlyAsTheyWere() throws {
        let (engine, _) = try rewrite("\n\n  I am sure it is fine.\n\n\n", answer: "I'm sure it's fine!\n")
        XCTAssertEqual(engine.text, "\n\n  I'm sure it's fine!\n\n\n")
        let (crlf, _) = try rewrite("I am sure it is fine.\r\n", answer: "\nI'm sure it's fine!  ")
        XCTAssertEqual(crlf.text, "I'm sure it's fine!\r\n", "the answer's own spaces around it go: the text's come back")
    }

    func testTheAnswersSpacesBesideTheOriginalsLineBreaksAreItsOwn() {
        // Only the line breaks are the document's: a tab the answer keeps before the same
        // final newline stays (a concise rewrite that deleted the line's last word).
        XCTAssertEqual(SurroundingWhitespace.kept(around: AttributedText("We go\t\n"), from: AttributedText("We go\treally \n")).string,
                       "We go\t\n")
        // Without line breaks the original's spaces come back: a selection's trailing space,
        // a line's indentation.
        XCTAssertEqual(SurroundingWhitespace.kept(around: AttributedText("First one."), from: AttributedText("First sentence. ")).string,
                       "First one. ")
        XCTAssertEqual(SurroundingWhitespace.kept(around: AttributedText("Indented one"), from: AttributedText("  Indented line")).string,
                       "  Indented one")
    }

    func testASummaryAppliedOverTheTextKeepsItsFinalNewline() throws {
        let (engine, _) = try rewrite("The plan is ready. We ship soon. Tests pass.\n", answer: "The plan is ready.", tool: .summary)
        XCTAssertEqual(engine.text, "The plan is ready.\n")
    }

    func testAnEmptyAnswerIsNotMadeOfWhitespace() {
        let original = AttributedText("\nSome words.\n")
        XCTAssertEqual(SurroundingWhitespace.kept(around: AttributedText(""), from: original).string, "")
        XCTAssertEqual(SurroundingWhitespace.kept(around: AttributedText(" \n"), from: original).string, " \n",
                       "an answer of nothing but spaces is left for the quality check to judge")
        XCTAssertEqual(SurroundingWhitespace.kept(around: AttributedText("Words."), from: AttributedText("")).string, "Words.")
    }
}
