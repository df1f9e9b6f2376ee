import XCTest
@testable import EmendCore
import EmendText

/// An engine edit that lands while a review step (undo, revert) is half delivered: the step's
/// replaces go one per dispatch item, so on a busy machine (the dispatch budget spent after
/// a replace or two) the engine types between them. Found by the session property test under
/// load (an undo of a compose whose restore went in two replaces).
final class ReviewStepEditTests: XCTestCase {
    static let text = "It is really very late, café ☕ closes."

    /// A compose of "ly very late," resting, on a coordinator that runs one queue item per
    /// dispatch (what a spent budget does), so the test can act between a step's replaces.
    private func composed() throws -> (TestEngine, Coordinator) {
        let engine = TestEngine(Self.text, selection: 10..<23)
        var opts = options()
        opts.dispatchBudget = .items(1)
        let coordinator = try makeCoordinator(engine, options: opts)
        try coordinator.start(.compose, prompt: "say thanks for the flowers")
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "It is realSay thanks for the flowers. café ☕ closes.")
        XCTAssertEqual(coordinator.state, .interactiveResting)
        return (engine, coordinator)
    }

    /// Dispatches one item at a time until the engine shows `text` and the runtime took every
    /// answer (the engine may edit then).
    private func dispatch(_ engine: TestEngine, _ coordinator: Coordinator, until text: String) throws {
        for _ in 0..<100 {
            if engine.text == text, let id = coordinator.contextIDs.first, try coordinator.contextText(id).string == text { return }
            try engine.dispatching { _ = try coordinator.dispatch() }
        }
        XCTFail("the engine never showed \(text.debugDescription): \(engine.text.debugDescription)")
    }

    /// The undo restores the rewrite's second change first; the engine then replaces text
    /// that change gave back (the original's words, beside Emend's other change "Sa", not
    /// touching it). The edit is the engine's own and is beside Emend's text: the undo goes
    /// on and puts back "l", and the text is the original with the engine's edit. (The
    /// version the session showed before the step still held the whole phrase "Say thanks
    /// for the flowers.": read as shown, the edit was "in" it and made "Sa" the engine's, and
    /// the undo's next replace then wrote "l" over the engine's text as a change of Emend's.)
    func testAnEditBesideAHalfDoneUndoLeavesEmendsOtherChangeToUndo() throws {
        let (engine, coordinator) = try composed()
        try coordinator.undo()
        let half = "It is realSay very late, café ☕ closes."
        try dispatch(engine, coordinator, until: half)
        let id = try XCTUnwrap(coordinator.contextIDs.first)
        let edited = 14..<37   // "very late, café ☕ cl": the original's bytes, after "realSay "
        XCTAssertEqual(substring(half, edited), "very late, café ☕ cl")
        engine.edit(edited, "x")
        try coordinator.updateRange(contextID: id, range: edited, text: "x", reason: .typing)
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "It is really xoses.", "the undo put back the original around the engine's edit")
        let session = try XCTUnwrap(coordinator.session)
        XCTAssertEqual(session.shownVersion, 0)
        XCTAssertEqual(session.regionText, session.version(0)?.string, "the region is the original (with the engine's edit)")
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "It is really xoses.", "revert gives the original with the engine's edit")
    }

    /// The same edit while a revert is half done: the revert still ends with the original
    /// plus the engine's edit.
    func testAnEditBesideAHalfDoneRevertLeavesTheOriginalWithTheEdit() throws {
        let (engine, coordinator) = try composed()
        try coordinator.revert()
        let half = "It is realSay very late, café ☕ closes."
        try dispatch(engine, coordinator, until: half)
        let id = try XCTUnwrap(coordinator.contextIDs.first)
        engine.edit(14..<37, "x")
        try coordinator.updateRange(contextID: id, range: 14..<37, text: "x", reason: .typing)
        try engine.run(coordinator)
        XCTAssertEqual(coordinator.state, .inactive)
        XCTAssertEqual(engine.text, "It is really xoses.")
    }
}
