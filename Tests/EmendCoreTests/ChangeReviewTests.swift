import XCTest
@testable import EmendCore
import EmendText

/// Reviewing a rewrite change by change (emend_session_review_changes): the result resting in
/// the text splits into word-level changes, and the suggestion calls keep or drop each one;
/// Done keeps what was not rejected, revert gives the original byte for byte.
final class ChangeReviewTests: XCTestCase {
    static let original = "I do not think it is ready. We are waiting for the tests."
    static let friendly = "I don't think it's ready. We're waiting for the tests!"

    private func reviewed(_ text: String = original, tool: WritingTool = .rewriteFriendly) throws -> (TestEngine, Coordinator, Int) {
        let engine = TestEngine(text)
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(tool)
        try engine.run(coordinator)
        let count = try coordinator.reviewChanges()
        try engine.run(coordinator)
        return (engine, coordinator, count)
    }

    // MARK: Splitting

    private func split(_ now: String, _ net: [(Range<Int>, String)]) -> [ReviewChange] {
        RewriteChanges.changes(of: net.map { RewriteChanges.NetChange(span: $0.0, original: Array($0.1.utf8)) }, in: Array(now.utf8))
    }

    func testAChangeNeverSplitsAWord() {
        // "cat" -> "cats" arrives as an inserted "s"; the person sees the word.
        XCTAssertEqual(split("The cats sat", [(7..<8, "")]), [ReviewChange(span: 4..<8, original: "cat", replacement: "cats")])
        // "do not" -> "don't" arrives as " no" -> "n'" inside it.
        XCTAssertEqual(split("I don't think", [(4..<6, " no")]), [ReviewChange(span: 2..<7, original: "do not", replacement: "don't")])
        // A deleted inner byte takes the words on both sides.
        XCTAssertEqual(split("foobar baz", [(3..<3, "-")]), [ReviewChange(span: 0..<6, original: "foo-bar", replacement: "foobar")])
        // Non-ASCII letters are letters: "café" is not cut after "caf".
        XCTAssertEqual(split("un café noir", [(6..<8, "e")]), [ReviewChange(span: 3..<8, original: "cafe", replacement: "café")])
    }

    func testPunctuationAndDeletionsStayTheirOwnChange() {
        XCTAssertEqual(split("Hello, world", [(5..<6, "")]), [ReviewChange(span: 5..<6, original: "", replacement: ",")])
        XCTAssertEqual(split("It is very late", [(6..<6, "really ")]), [ReviewChange(span: 6..<6, original: "really ", replacement: "")])
    }

    func testChangesOneSpaceApartJoinAndOthersStayApart() {
        // "We are here now" -> "We're here today": "are" joined to "We", "now" apart.
        let changes = split("We're here today", [(2..<5, " are"), (11..<16, "now")])
        XCTAssertEqual(changes, [ReviewChange(span: 0..<5, original: "We are", replacement: "We're"),
                                 ReviewChange(span: 11..<16, original: "now", replacement: "today")])
        // Two changed words with one space between them are one change.
        XCTAssertEqual(split("big red car", [(0..<3, "small"), (4..<7, "blue")]),
                       [ReviewChange(span: 0..<7, original: "small blue", replacement: "big red")])
        // Spaces both texts share at the ends are not part of a change.
        XCTAssertEqual(split("a b c", [(1..<4, " x ")]), [ReviewChange(span: 2..<3, original: "x", replacement: "b")])
        // Also when a net change lies beyond the shared space: "It is really very late" ->
        // "It's late" is "It is" -> "It's", a space, and "really very " deleted before "late"
        // (an engine edit in the change takes the deletion along: RewriteChanges.holdingReach).
        XCTAssertEqual(split("It's late", [(2..<3, " i"), (5..<5, "really very ")]),
                       [ReviewChange(span: 0..<4, original: "It is really very", replacement: "It's")])
    }

    // MARK: Reviewing

    func testTheRestingRewriteSplitsIntoItsChanges() throws {
        let (engine, coordinator, count) = try reviewed()
        XCTAssertEqual(engine.text, Self.friendly, "splitting changes nothing in the text")
        XCTAssertEqual(count, 4)
        let changes = coordinator.suggestions
        XCTAssertEqual(changes.map(\.original), ["do not", "it is", "We are", "."])
        XCTAssertEqual(changes.map(\.replacement), ["don't", "it's", "We're", "!"])
        XCTAssertTrue(changes.allSatisfy { $0.category == "rewrite" && $0.state == .pending && $0.ruleID.isEmpty })
        for change in changes {
            XCTAssertEqual(substring(engine.text, try XCTUnwrap(change.range)), change.replacement, "the range is where its text is now")
        }
        XCTAssertEqual(Array(engine.underlineRequests.suffix(4)), changes.map { $0.range! }, "each change is underlined")
        XCTAssertEqual(try coordinator.reviewChanges(), 4, "a second call gives the same changes")
        XCTAssertEqual(coordinator.suggestions, changes)
        XCTAssertEqual(coordinator.state, .interactiveResting)
    }

    func testRejectPutsBackOnlyThatChangesOriginal() throws {
        let (engine, coordinator, _) = try reviewed()
        let range = try XCTUnwrap(coordinator.suggestions[1].range)
        let sent = engine.replaces.count
        try coordinator.rejectSuggestion(1)
        try engine.run(coordinator)
        XCTAssertEqual(engine.replaces.count, sent + 1, "one replace")
        XCTAssertEqual(engine.replaces.last?.kind, .suggestionReject)
        XCTAssertEqual(engine.replaces.last?.range, range)
        XCTAssertEqual(engine.replaces.last?.text, "it is")
        XCTAssertEqual(engine.text, "I don't think it is ready. We're waiting for the tests!")
        XCTAssertEqual(coordinator.suggestions.map(\.state), [.pending, .rejected, .pending, .pending])
        // The other changes are where their text is.
        for index in [0, 2, 3] {
            XCTAssertEqual(substring(engine.text, try XCTUnwrap(coordinator.suggestions[index].range)), coordinator.suggestions[index].replacement)
        }
        XCTAssertEqual(substring(engine.text, try XCTUnwrap(coordinator.suggestions[1].range)), "it is")
        XCTAssertThrowsEmend(.state) { try coordinator.rejectSuggestion(1) }
        // Done keeps every change not rejected.
        try coordinator.acceptSuggestion(0)
        try coordinator.accept()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "I don't think it is ready. We're waiting for the tests!")
        XCTAssertEqual(coordinator.state, .inactive)
    }

    func testUndoAndRedoStepThroughTheDecisions() throws {
        let (engine, coordinator, _) = try reviewed()
        XCTAssertFalse(coordinator.canUndo, "the review starts the history afresh")
        try coordinator.rejectSuggestion(0)
        try engine.run(coordinator)
        try coordinator.acceptSuggestion(2)
        try coordinator.rejectSuggestion(3)
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "I do not think it's ready. We're waiting for the tests.")
        try coordinator.undo()
        try engine.run(coordinator)
        XCTAssertEqual(engine.replaces.last?.kind, .undo)
        XCTAssertEqual(engine.text, "I do not think it's ready. We're waiting for the tests!")
        XCTAssertEqual(coordinator.suggestions[3].state, .pending)
        try coordinator.undo()
        XCTAssertEqual(coordinator.suggestions[2].state, .pending)
        try coordinator.undo()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, Self.friendly)
        XCTAssertThrowsEmend(.state) { try coordinator.undo() }
        try coordinator.redo()
        try engine.run(coordinator)
        XCTAssertEqual(engine.replaces.last?.kind, .redo)
        XCTAssertEqual(engine.text, "I do not think it's ready. We're waiting for the tests!")
        XCTAssertEqual(coordinator.suggestions[0].state, .rejected)
    }

    func testRevertAfterAPartialReviewGivesTheOriginalByteForByte() throws {
        let (engine, coordinator, _) = try reviewed()
        try coordinator.rejectSuggestion(2)
        try engine.run(coordinator)
        try coordinator.acceptSuggestion(0)
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(Array(engine.text.utf8), Array(Self.original.utf8))
        XCTAssertEqual(coordinator.state, .inactive)
    }

    func testNoRewriteResultMeansState() throws {
        let engine = TestEngine(Self.original)
        let coordinator = try makeCoordinator(engine)
        XCTAssertThrowsEmend(.state) { try coordinator.reviewChanges() }
        // Proofreading is already reviewed per suggestion.
        try coordinator.start(.proofread, scope: .fullDocument)
        try engine.run(coordinator)
        XCTAssertThrowsEmend(.state) { try coordinator.reviewChanges() }
        try coordinator.revert()
        try engine.run(coordinator)
        // The original shown: no rewrite rests in the text.
        try coordinator.start(.rewriteFriendly)
        try engine.run(coordinator)
        try coordinator.showOriginal(true)
        try engine.run(coordinator)
        XCTAssertThrowsEmend(.state) { try coordinator.reviewChanges() }
        try coordinator.showOriginal(false)
        try engine.run(coordinator)
        XCTAssertEqual(try coordinator.reviewChanges(), 4)
        try engine.run(coordinator)
        // Under review, show original would change the text under the marks.
        XCTAssertThrowsEmend(.state) { try coordinator.showOriginal(true) }
        XCTAssertEqual(engine.text, Self.friendly)
    }

    func testEngineTypingInsideAChangeMakesItInvalidAndBesideItDoesNot() throws {
        let (engine, coordinator, _) = try reviewed()
        let id = coordinator.contextIDs[0]
        let inside = try XCTUnwrap(coordinator.suggestions[1].range)   // "it's"
        let typed = (inside.lowerBound + 2)..<(inside.lowerBound + 2)
        engine.edit(typed, "X")
        try coordinator.updateRange(contextID: id, range: typed, text: "X", reason: .typing)
        XCTAssertEqual(coordinator.suggestions[1].state, .invalid)
        XCTAssertThrowsEmend(.state) { try coordinator.rejectSuggestion(1) }
        // At the edge of "We're": beside it.
        let edge = try XCTUnwrap(coordinator.suggestions[2].range)
        engine.edit(edge.upperBound..<edge.upperBound, "!")
        try coordinator.updateRange(contextID: id, range: edge.upperBound..<edge.upperBound, text: "!", reason: .typing)
        XCTAssertEqual(coordinator.suggestions[2].state, .pending)
        try coordinator.rejectSuggestion(2)
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "I don't think itX's ready. We are! waiting for the tests!")
        // Revert keeps the engine's edits and the change it made its own.
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "I do not think itX's ready. We are! waiting for the tests.")
    }

    func testFindsAChangeByOffsetAndByPoint() throws {
        let (engine, coordinator, _) = try reviewed()
        let id = coordinator.contextIDs[0]
        let range = try XCTUnwrap(coordinator.suggestions[2].range)
        XCTAssertEqual(try coordinator.suggestionIndex(contextID: id, offset: range.lowerBound + 1), 2)
        XCTAssertFalse(try coordinator.underlineRects(ofSuggestion: 2).isEmpty)
        // The test engine's rectangles: 10 units per byte on one line.
        let x = Double(range.lowerBound) * 10 + 5
        // The bounding rectangles are asked for on the first hit test.
        XCTAssertThrowsEmend(.again) { _ = try coordinator.suggestionIndex(x: x, y: 5) }
        try engine.run(coordinator)
        XCTAssertEqual(try coordinator.suggestionIndex(x: x, y: 5), 2)
        try coordinator.rejectSuggestion(2)
        try engine.run(coordinator)
        XCTAssertThrowsEmend(.notFound) { _ = try coordinator.suggestionIndex(contextID: id, offset: range.lowerBound + 1) }
    }

    func testAFollowUpAfterAPartialReviewRefinesTheTextAsItStands() throws {
        let (engine, coordinator, _) = try reviewed()
        try coordinator.rejectSuggestion(0)
        try engine.run(coordinator)
        try coordinator.start(.followUp, prompt: "uppercase")
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "I DO NOT THINK IT'S READY. WE'RE WAITING FOR THE TESTS!")
        XCTAssertTrue(coordinator.suggestions.isEmpty, "the review of the earlier result ended")
        // Undo goes back to the text as it stood, the rejected change's original included.
        try coordinator.undo()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "I do not think it's ready. We're waiting for the tests!")
        try coordinator.redo()
        try engine.run(coordinator)
        // The follow-up's result is reviewed again, against the original.
        XCTAssertGreaterThan(try coordinator.reviewChanges(), 0)
        try engine.run(coordinator)
        XCTAssertTrue(coordinator.suggestions.allSatisfy { substring(engine.text, $0.range!) == $0.replacement })
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, Self.original)
    }

    func testARefusedRejectLeavesTheChangePending() throws {
        let (engine, coordinator, _) = try reviewed()
        engine.replaceAnswering = .refuse
        try coordinator.rejectSuggestion(1)
        try engine.run(coordinator)
        XCTAssertEqual(coordinator.suggestions[1].state, .pending)
        XCTAssertEqual(engine.text, Self.friendly)
        XCTAssertFalse(coordinator.canUndo)
        XCTAssertEqual(coordinator.state, .interactiveResting)
    }
}
