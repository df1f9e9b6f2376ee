import XCTest
import EmendCore
import EmendText

/// The engine edits its own text during a session and reports it with updateRange.
final class ExternalEditTests: XCTestCase {
    static let original = "See you tomorow, I could of known. This is a example."

    private func proofread() throws -> (TestEngine, Coordinator) {
        let engine = TestEngine(Self.original)
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.proofread)
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "See you tomorrow, I could have known. This is an example.")
        return (engine, coordinator)
    }

    /// The engine types `text` over `range` and tells the coordinator.
    private func type(_ engine: TestEngine, _ coordinator: Coordinator, _ range: Range<Int>, _ text: String) throws {
        engine.edit(range, text)
        try coordinator.updateRange(contextID: coordinator.contextIDs[0], range: range, text: text, reason: .typing)
    }

    func testEditBeforeSuggestionsMovesThem() throws {
        let (engine, coordinator) = try proofread()
        let before = coordinator.suggestions.map { $0.range! }
        try type(engine, coordinator, 0..<0, "Well, ")
        let after = coordinator.suggestions.map { $0.range! }
        XCTAssertEqual(after, before.map { ($0.lowerBound + 6)..<($0.upperBound + 6) })
        for suggestion in coordinator.suggestions {
            XCTAssertEqual(suggestion.state, .pending)
            XCTAssertEqual(substring(engine.text, suggestion.range!), suggestion.replacement)
        }
        let id = coordinator.contextIDs[0]
        XCTAssertEqual(try coordinator.suggestionIndex(contextID: id, offset: after[1].lowerBound), 1)
        XCTAssertEqual(try coordinator.contextText(id).string, engine.text)
        // Rejecting after the move puts the original back in the right place.
        try coordinator.rejectSuggestion(1)
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "Well, See you tomorrow, I could of known. This is an example.")
        // Revert keeps the engine's own edit: nothing of it is lost.
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "Well, " + Self.original)
    }

    func testEditOverlappingASuggestionInvalidatesIt() throws {
        let (engine, coordinator) = try proofread()
        let couldHave = try XCTUnwrap(coordinator.suggestions[1].range)
        // The user retypes " have" as "'ve".
        let have = (couldHave.upperBound - 5)..<couldHave.upperBound
        try type(engine, coordinator, have, "'ve")
        XCTAssertEqual(engine.text, "See you tomorrow, I could've known. This is an example.")
        XCTAssertEqual(coordinator.suggestions[1].state, .invalid)
        // Where it was: its span with the engine's edit in it (emend.h, emend_suggestion.range).
        XCTAssertEqual(substring(engine.text, try XCTUnwrap(coordinator.suggestions[1].range)), "could've")
        XCTAssertThrowsEmend(.state) { try coordinator.rejectSuggestion(1) }
        XCTAssertEqual(coordinator.suggestions[2].state, .pending)
        XCTAssertEqual(substring(engine.text, try XCTUnwrap(coordinator.suggestions[2].range)), "an example")
        XCTAssertEqual(coordinator.state, .interactiveResting, "proofreading goes on")
        // Revert restores the others and keeps what the user typed.
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "See you tomorow, I could've known. This is a example.")
    }

    func testEditAfterTheTextIsNotAnEditOfTheSuggestion() throws {
        let (engine, coordinator) = try proofread()
        let end = engine.text.utf8.count
        try type(engine, coordinator, end..<end, " Bye.")
        XCTAssertTrue(coordinator.suggestions.allSatisfy { $0.state == .pending })
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, Self.original + " Bye.")
    }

    func testTypingInsideARewriteKeepsTheSessionAndRevertKeepsTheTyping() throws {
        let engine = TestEngine("I do not think it is ready.")
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.rewriteFriendly)
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "I don't think it's ready!")
        let ready = try XCTUnwrap(byteRange(of: "ready", in: engine.text))
        try type(engine, coordinator, ready, "done")
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "I don't think it's done!")
        XCTAssertEqual(coordinator.state, .interactiveResting, "the engine's own edit does not end the session")
        // Revert puts the original back everywhere but where the engine typed.
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "I do not think it is done.")
        XCTAssertEqual(coordinator.state, .inactive)
    }

    func testTypingInsideEmendsTextAdoptsOnlyThatChange() throws {
        let engine = TestEngine("I do not think it is ready.")
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.rewriteFriendly)
        try engine.run(coordinator)
        // The user edits the apostrophe of "don't", Emend's own text: that change becomes the
        // user's; "d", never changed by Emend, is the user's either way.
        let apostrophe = try XCTUnwrap(byteRange(of: "'", in: engine.text))
        try type(engine, coordinator, apostrophe, "\u{2019}")
        let d = try XCTUnwrap(byteRange(of: "don", in: engine.text))
        try type(engine, coordinator, d.lowerBound..<(d.lowerBound + 1), "w")
        XCTAssertEqual(engine.text, "I won\u{2019}t think it's ready!")
        try coordinator.revert()
        try engine.run(coordinator)
        // "do not" -> "don't" arrived as two changes a space apart: one change of the phrase,
        // which the user's edit made theirs whole (never "won't not").
        XCTAssertEqual(engine.text, "I won\u{2019}t think it is ready.")
    }

    func testTypingOutsideTheRewrittenSentenceKeepsTheSession() throws {
        let text = "I do not know. It is late."
        let engine = TestEngine(text, selection: 2..<4)
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.rewriteFriendly)
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "I don't know. It is late.")
        let late = try XCTUnwrap(byteRange(of: "late", in: engine.text))
        try type(engine, coordinator, late, "early")
        try engine.run(coordinator)
        XCTAssertEqual(coordinator.state, .interactiveResting)
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "I do not know. It is early.")
    }

    func testTypingDuringTheProviderRunIsKeptInTheResult() throws {
        let rest = (1...20).map { "We are at step \($0)." }.joined(separator: " ")
        let engine = TestEngine("I do not think it is ready. " + rest)
        let coordinator = try makeCoordinator(engine, provider: FixtureProvider(chunkDelayMicroseconds: 20_000))
        try coordinator.start(.rewriteFriendly)
        XCTAssertTrue(try engine.pump(coordinator) { engine.preparedAnimations.count == 1 })
        try type(engine, coordinator, 0..<1, "You")
        try engine.run(coordinator)
        XCTAssertNil(coordinator.lastFailure)
        XCTAssertEqual(coordinator.state, .interactiveResting)
        XCTAssertTrue(engine.text.hasPrefix("You don't think it's ready. We're at step 1."), engine.text)
        XCTAssertTrue(engine.text.hasSuffix("We're at step 20!"), engine.text)
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "You do not think it is ready. " + rest)
    }

    func testEditBetweenARejectAndItsDispatchMovesTheReplace() throws {
        let (engine, coordinator) = try proofread()
        try coordinator.rejectSuggestion(1)
        // The engine types before it dispatches: the replace goes where the text is by then.
        try type(engine, coordinator, 0..<0, "Well, ")
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "Well, See you tomorrow, I could of known. This is an example.")
        XCTAssertEqual(coordinator.suggestions[1].state, .rejected)
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "Well, " + Self.original)
    }

    func testEditOverTheTextOfAPendingRejectCancelsTheReplace() throws {
        let (engine, coordinator) = try proofread()
        let couldHave = try XCTUnwrap(coordinator.suggestions[1].range)
        try coordinator.rejectSuggestion(1)
        try type(engine, coordinator, couldHave, "would have")
        let replaces = engine.replaces.count
        try engine.run(coordinator)
        XCTAssertEqual(engine.replaces.count, replaces, "no replace lands on what the user just typed")
        XCTAssertEqual(engine.text, "See you tomorrow, I would have known. This is an example.")
        XCTAssertEqual(coordinator.suggestions[1].state, .invalid)
        XCTAssertEqual(coordinator.state, .interactiveResting)
        XCTAssertFalse(coordinator.canUndo)
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "See you tomorow, I would have known. This is a example.")
    }

    func testTypingDuringDeliveryIsKeptAndRevertedAround() throws {
        let original = "I do not think it is ready. We are waiting."
        let engine = TestEngine(original)
        engine.replaceAnswering = .later
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.rewriteFriendly)
        XCTAssertTrue(try engine.pump(coordinator) { !engine.heldReplaces.isEmpty })
        // The user types at the end of the region while the first replace is out.
        let end = engine.text.utf8.count
        try type(engine, coordinator, end..<end, " Ok.")
        engine.replaceAnswering = .atOnce
        engine.releaseHeldReplaces(coordinator)
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "I don't think it's ready. We're waiting! Ok.", "the result around the engine's own text")
        XCTAssertEqual(coordinator.state, .interactiveResting)
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, original + " Ok.")
    }

    func testANoOpUpdateChangesNothing() throws {
        let engine = TestEngine("I do not think it is ready.")
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.rewriteFriendly)
        try engine.run(coordinator)
        let id = coordinator.contextIDs[0]
        try coordinator.updateRange(contextID: id, range: 3..<3, text: "", reason: .typing)
        try coordinator.updateRange(contextID: id, range: 2..<7, text: substring(engine.text, 2..<7), reason: .typing)
        try engine.run(coordinator)
        XCTAssertEqual(coordinator.state, .interactiveResting)
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "I do not think it is ready.")
    }

    func testBadUpdatesAreRejected() throws {
        let (engine, coordinator) = try proofread()
        let id = coordinator.contextIDs[0]
        let length = engine.text.utf8.count
        XCTAssertThrowsEmend(.notFound) { try coordinator.updateRange(contextID: id + 7, range: 0..<0, text: "x", reason: .typing) }
        XCTAssertThrowsEmend(.range) { try coordinator.updateRange(contextID: id, range: length..<length + 1, text: "", reason: .typing) }
        XCTAssertEqual(try coordinator.contextText(id).string, engine.text, "a failed call changes nothing")
    }
}
