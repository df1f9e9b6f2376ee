import XCTest
@testable import EmendCore
import EmendText

/// An ended run's long texts are taken out of it as a whole (`RunState.takeTexts`), to be
/// let go of on a thread of their own when they are long (`Session.releaseInSlices`): the run
/// keeps none of them, and whether they are long counts every one.
final class RunTextsTests: XCTestCase {
    func testTheRunsTextsAreTakenAndTheRunKeepsNone() {
        let run = RunState()
        let long = String(repeating: "a", count: 1 << 20)
        run.resultText = ResultPieces("result")
        run.requestRegionText = AttributedText("region")
        run.requestBase = AttributedText("base")
        run.previousResult = "earlier"
        run.request = ProviderRequest(tool: .rewriteFriendly, text: "asked", selection: 0..<5)
        let texts = run.takeTexts()
        XCTAssertEqual(texts.result.utf8Count, 6)
        XCTAssertEqual(texts.region.string, "region")
        XCTAssertEqual(texts.base.string, "base")
        XCTAssertEqual(texts.previousResult, "earlier")
        XCTAssertEqual(texts.request?.text, "asked")
        XCTAssertFalse(texts.areLong)
        XCTAssertTrue(run.resultText.isEmpty && run.requestRegionText.string.isEmpty && run.requestBase.string.isEmpty)
        XCTAssertNil(run.previousResult)
        XCTAssertNil(run.request)
        for fill: (RunState) -> Void in [{ $0.resultText = ResultPieces(long) }, { $0.requestBase = AttributedText(long) },
                                         { $0.request = ProviderRequest(tool: .rewriteFriendly, text: long, selection: 0..<0) }] {
            let run = RunState()
            fill(run)
            XCTAssertTrue(run.takeTexts().areLong, "a megabyte in any of them is long")
        }
    }
}
