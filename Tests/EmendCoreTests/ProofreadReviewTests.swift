import XCTest
@testable import EmendCore
import EmendText

/// Proofreading: suggestions arrive inline, each can be accepted or rejected, found by offset,
/// and revert restores the original byte for byte whatever was reviewed.
final class ProofreadReviewTests: XCTestCase {
    static let original = "Their going to the party tomorow, and they has brought snacks. I could of done it better. This is a example."
    static let corrected = "Their going to the party tomorrow, and they have brought snacks. I could have done it better. This is an example."

    private func proofread() throws -> (TestEngine, Coordinator) {
        let engine = TestEngine(Self.original)
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.proofread, scope: .fullDocument)
        try engine.run(coordinator)
        return (engine, coordinator)
    }

    func testSuggestionsArriveInlineWhereTheirTextIs() throws {
        let (engine, coordinator) = try proofread()
        XCTAssertEqual(engine.text, Self.corrected)
        XCTAssertEqual(try coordinator.contextText(coordinator.contextIDs[0]).string, engine.text, "the runtime's mirror follows the engine")
        let suggestions = coordinator.suggestions
        XCTAssertEqual(suggestions.map(\.original), ["tomorow", "they has", "could of", "a example"])
        XCTAssertEqual(suggestions.map(\.replacement), ["tomorrow", "they have", "could have", "an example"])
        XCTAssertEqual(suggestions.map(\.category), ["spelling", "grammar", "grammar", "grammar"])
        XCTAssertEqual(suggestions.map(\.ruleID), ["SPELLING", "AGREEMENT", "COULD_OF", "A_AN"])
        XCTAssertTrue(suggestions.allSatisfy { $0.state == .pending && !$0.explanation.isEmpty })
        for suggestion in suggestions {
            let range = try XCTUnwrap(suggestion.range)
            XCTAssertEqual(substring(engine.text, range), suggestion.replacement)
        }
        XCTAssertEqual(engine.replaces.count, 4)
        XCTAssertTrue(engine.replaces.allSatisfy { $0.kind == .result && $0.reason == .interactive })
        XCTAssertEqual(engine.underlineRequests, suggestions.map { $0.range! }, "each pending suggestion gets underlined")
        XCTAssertTrue(engine.selections.isEmpty, "proofreading selects nothing")
    }

    func testAcceptingASuggestionKeepsItsText() throws {
        let (engine, coordinator) = try proofread()
        try coordinator.acceptSuggestion(2)
        try engine.run(coordinator)
        XCTAssertEqual(coordinator.suggestions[2].state, .accepted)
        XCTAssertEqual(coordinator.suggestions.filter { $0.state == .pending }.count, 3)
        XCTAssertEqual(engine.text, Self.corrected)
        XCTAssertEqual(engine.replaces.count, 4, "accepting sends no replace")
        XCTAssertThrowsEmend(.state) { try coordinator.acceptSuggestion(2) }
    }

    func testRejectingASuggestionPutsItsOriginalBack() throws {
        let (engine, coordinator) = try proofread()
        let before = try XCTUnwrap(coordinator.suggestions[1].range)
        try coordinator.rejectSuggestion(1)
        try engine.run(coordinator)
        XCTAssertEqual(engine.replaces.last?.kind, .suggestionReject)
        XCTAssertEqual(engine.replaces.last?.range, before)
        XCTAssertEqual(engine.replaces.last?.text, "they has")
        XCTAssertEqual(engine.text, "Their going to the party tomorrow, and they has brought snacks. I could have done it better. This is an example.")
        let rejected = coordinator.suggestions[1]
        XCTAssertEqual(rejected.state, .rejected)
        XCTAssertEqual(substring(engine.text, try XCTUnwrap(rejected.range)), "they has")
        // The suggestions after it moved with the shorter text.
        for suggestion in coordinator.suggestions where suggestion.state == .pending {
            XCTAssertEqual(substring(engine.text, try XCTUnwrap(suggestion.range)), suggestion.replacement)
        }
        XCTAssertThrowsEmend(.state) { try coordinator.rejectSuggestion(1) }
        XCTAssertThrowsEmend(.notFound) { try coordinator.rejectSuggestion(4) }
        XCTAssertThrowsEmend(.notFound) { try coordinator.acceptSuggestion(-1) }
    }

    func testSuggestionAtOffset() throws {
        let (engine, coordinator) = try proofread()
        let id = coordinator.contextIDs[0]
        let couldHave = try XCTUnwrap(byteRange(of: "could have", in: engine.text))
        XCTAssertEqual(try coordinator.suggestionIndex(contextID: id, offset: couldHave.lowerBound), 2)
        XCTAssertEqual(try coordinator.suggestionIndex(contextID: id, offset: couldHave.upperBound - 1), 2)
        XCTAssertThrowsEmend(.notFound) { _ = try coordinator.suggestionIndex(contextID: id, offset: couldHave.upperBound) }
        XCTAssertThrowsEmend(.notFound) { _ = try coordinator.suggestionIndex(contextID: id, offset: 0) }
        let tomorrow = try XCTUnwrap(byteRange(of: "tomorrow", in: engine.text))
        XCTAssertEqual(try coordinator.suggestionIndex(contextID: id, offset: tomorrow.lowerBound + 3), 0)
        // Only pending suggestions are found.
        try coordinator.acceptSuggestion(0)
        XCTAssertThrowsEmend(.notFound) { _ = try coordinator.suggestionIndex(contextID: id, offset: tomorrow.lowerBound + 3) }
        XCTAssertThrowsEmend(.notFound) { _ = try coordinator.suggestionIndex(contextID: id + 100, offset: 0) }
    }

    func testSuggestionAtPointUsesTheEnginesRectangles() throws {
        let (engine, coordinator) = try proofread()
        let anExample = try XCTUnwrap(byteRange(of: "an example", in: engine.text))
        // The engine's rectangles are 10 units per byte: x inside "an example".
        let x = Double(anExample.lowerBound) * 10 + 5
        XCTAssertThrowsEmend(.again) { _ = try coordinator.suggestionIndex(x: x, y: 5) }
        try engine.run(coordinator)
        XCTAssertEqual(engine.boundsRequests.count, 4)
        XCTAssertEqual(try coordinator.suggestionIndex(x: x, y: 5), 3)
        XCTAssertThrowsEmend(.notFound) { _ = try coordinator.suggestionIndex(x: x, y: 50) }
    }

    /// A reflow forgets every rectangle of the layout before at once (no look at each
    /// suggestion in the engine's call): the underlines read nothing until the engine answers
    /// again, the point lookup asks for bounding rectangles again, and only the new ones count.
    func testAReflowForgetsEveryRectangleOfTheLayoutBefore() throws {
        let (engine, coordinator) = try proofread()
        let anExample = try XCTUnwrap(byteRange(of: "an example", in: engine.text))
        let x = Double(anExample.lowerBound) * 10 + 5
        XCTAssertThrowsEmend(.again) { _ = try coordinator.suggestionIndex(x: x, y: 5) }
        try engine.run(coordinator)
        XCTAssertEqual(try coordinator.suggestionIndex(x: x, y: 5), 3)
        XCTAssertEqual(try coordinator.underlineRects(ofSuggestion: 3).first?.y, 0)
        // The new layout: every line 100 units lower.
        engine.rectsFor = { range in [Rect(x: Double(range.lowerBound) * 10, y: 100, width: Double(range.count) * 10, height: 10)] }
        try coordinator.updateForReflowedText()
        XCTAssertEqual(try coordinator.underlineRects(ofSuggestion: 3), [], "the rectangles of the layout before are forgotten at once")
        try engine.run(coordinator)
        XCTAssertEqual(try coordinator.underlineRects(ofSuggestion: 3).first?.y, 100, "the underlines asked again")
        XCTAssertThrowsEmend(.again) { _ = try coordinator.suggestionIndex(x: x, y: 105) }
        try engine.run(coordinator)
        XCTAssertEqual(try coordinator.suggestionIndex(x: x, y: 105), 3)
        XCTAssertThrowsEmend(.notFound) { _ = try coordinator.suggestionIndex(x: x, y: 5) }
    }

    /// The layout changes while the engine works out an underline (here, inside its answer):
    /// the rectangles it gives are of the layout it was asked in, so they are not taken as the
    /// new layout's; the underlines asked again after the reflow are.
    func testRectanglesAnsweredAfterAReflowAreOfTheLayoutTheyWereAskedIn() throws {
        let (engine, coordinator) = try proofread()
        XCTAssertEqual(try coordinator.underlineRects(ofSuggestion: 3).first?.y, 0)
        try coordinator.updateForReflowedText()
        var reflowed = false
        engine.rectsFor = { [unowned coordinator] range in
            if !reflowed {
                // Another reflow while the first answer of the last one is being made.
                reflowed = true
                do { try coordinator.updateForReflowedText() } catch { XCTFail("the reflow: \(error)") }
                return [Rect(x: Double(range.lowerBound) * 10, y: 100, width: Double(range.count) * 10, height: 10)]
            }
            return [Rect(x: Double(range.lowerBound) * 10, y: 200, width: Double(range.count) * 10, height: 10)]
        }
        try engine.run(coordinator)
        XCTAssertTrue(reflowed)
        for index in 0..<coordinator.suggestions.count where coordinator.suggestions[index].state == .pending {
            XCTAssertEqual(try coordinator.underlineRects(ofSuggestion: index).map(\.y), [200],
                           "suggestion \(index): only the last layout's rectangles")
        }
    }

    /// An engine that reflows whenever it is asked for rectangles: answers of an earlier
    /// layout are asked again a bounded number of times, and the session still comes to rest.
    func testAnEngineReflowingOnEveryAnswerStillLetsTheSessionRest() throws {
        let (engine, coordinator) = try proofread()
        var asked = 0
        engine.rectsFor = { [unowned coordinator] range in
            asked += 1
            do { try coordinator.updateForReflowedText() } catch { XCTFail("the reflow: \(error)") }
            return [Rect(x: Double(range.lowerBound) * 10, y: 300, width: Double(range.count) * 10, height: 10)]
        }
        try coordinator.updateForReflowedText()
        try engine.run(coordinator)
        XCTAssertEqual(coordinator.state, .interactiveResting, "the request ended")
        let pending = coordinator.suggestions.filter { $0.state == .pending }.count
        XCTAssertLessThanOrEqual(asked, pending * (1 + RectRequest.mostAskedAgain), "asked again a bounded number of times")
    }

    func testReflowAsksAgainForTheUnderlinesOfPendingSuggestions() throws {
        let (engine, coordinator) = try proofread()
        try coordinator.acceptSuggestion(0)
        try coordinator.rejectSuggestion(1)
        try engine.run(coordinator)
        let before = engine.underlineRequests.count
        try coordinator.updateForReflowedText()
        try engine.run(coordinator)
        let asked = Array(engine.underlineRequests.dropFirst(before))
        XCTAssertEqual(asked, [coordinator.suggestions[2].range!, coordinator.suggestions[3].range!])
        XCTAssertEqual(coordinator.state, .interactiveResting)
    }

    func testRevertAfterPartialReviewRestoresTheOriginal() throws {
        let (engine, coordinator) = try proofread()
        try coordinator.acceptSuggestion(0)
        try coordinator.rejectSuggestion(1)
        try engine.run(coordinator)
        try coordinator.acceptSuggestion(3)
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(Array(engine.text.utf8), Array(Self.original.utf8))
        XCTAssertEqual(coordinator.state, .inactive)
        XCTAssertTrue(coordinator.suggestions.isEmpty, "the session is over")
        XCTAssertEqual(engine.replaces.filter { $0.kind == .revert }.count, 3, "three suggestions were still in the text")
    }

    func testAcceptKeepsWhatWasNotRejected() throws {
        let (engine, coordinator) = try proofread()
        try coordinator.rejectSuggestion(3)
        try engine.run(coordinator)
        try coordinator.accept()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "Their going to the party tomorrow, and they have brought snacks. I could have done it better. This is a example.")
        XCTAssertEqual(coordinator.state, .inactive)
        XCTAssertThrowsEmend(.state) { try coordinator.accept() }
        XCTAssertThrowsEmend(.state) { try coordinator.revert() }
    }

    func testShowOriginalIsForRewritesOnly() throws {
        let (engine, coordinator) = try proofread()
        XCTAssertThrowsEmend(.unsupported) { try coordinator.showOriginal(true) }
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, Self.corrected)
    }

    func testSelectionLimitsProofreadingToItsSentences() throws {
        let engine = TestEngine(Self.original)
        // A caret inside "could": the sentence "I could of done it better. " only.
        let at = try XCTUnwrap(byteRange(of: "could", in: Self.original)).lowerBound + 2
        engine.selection = at..<at + 1
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.proofread)
        try engine.run(coordinator)
        XCTAssertEqual(coordinator.suggestions.map(\.original), ["could of"])
        XCTAssertEqual(engine.text, Self.original.replacingOccurrences(of: "could of", with: "could have"))
    }
}
