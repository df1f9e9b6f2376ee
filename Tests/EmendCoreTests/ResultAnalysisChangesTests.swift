import XCTest
@testable import EmendCore
import EmendText

/// The analysis (on a thread of its own) hands back the result as changes of the base text
/// where the request was built, joined into phrases: applied to that base they make the
/// result, and each one's base text is the base's there.
final class ResultAnalysisChangesTests: XCTestCase {
    private func analysis(base: String, result: String, at start: Int) -> ResultAnalysis {
        ResultAnalysis.make(ResultAnalysis.Input(
            tool: .rewriteFriendly, prompt: nil, original: AttributedText(base), requestBase: AttributedText(base),
            requestBaseStart: start, resultText: ResultPieces(result), writesMarkdown: false, placeholders: [:],
            options: ResultOptions.plainText.resolved, paragraphSeparator: "\n\n", composition: nil, needsFactCheck: false))
    }

    func testTheResultComesBackAsChangesOfTheBase() {
        let base = "We are sure the report is ready. We do not know when it goes out, but it will. "
        let result = "We're sure the report is ready. We don't know when it goes out, but it will. "
        let start = 120
        let made = analysis(base: base, result: result, at: start)
        XCTAssertEqual(made.result.string, result)
        let whole = start..<(start + base.utf8.count)
        XCTAssertEqual(EditLedger.applying(made.versionChanges, to: AttributedText(base), at: whole).string, result)
        for change in made.versionChanges {
            XCTAssertTrue(whole.lowerBound <= change.base.lowerBound && change.base.upperBound <= whole.upperBound)
            XCTAssertEqual(change.baseText.string, AttributedText(base).substring((change.base.lowerBound - start)..<(change.base.upperBound - start)))
        }
        // "We are" -> "We're" and "do not" -> "don't": one phrase each (CHANGES counts them whole).
        XCTAssertEqual(made.versionChanges.map(\.text.string), ["We're", "don't"])
        XCTAssertEqual(made.versionChanges.map(\.baseText.string), ["We are", "do not"])
    }

    func testAResultChangedThroughoutIsOneChangeOfAllOfIt() {
        let base = String(repeating: "a x ", count: 3_000)
        let result = String(repeating: "b x ", count: 3_000)
        let made = analysis(base: base, result: result, at: 7)
        XCTAssertEqual(EditLedger.applying(made.versionChanges, to: AttributedText(base), at: 7..<(7 + base.utf8.count)).string, result)
        XCTAssertFalse(made.versionChanges.isEmpty)
    }
}
