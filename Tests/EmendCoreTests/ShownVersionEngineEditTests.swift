import XCTest
@testable import EmendCore
import EmendText

/// After an engine edit in the region of a resting rewrite, the version shown must still be
/// what the region shows (`keepShownVersionTrue`). Once that is known, an engine edit is
/// compared where it is, not over the whole region (`ShownVersionTrack.showsRegion`); debug
/// builds check each such answer against the comparison over the region. The texts show
/// original, show rewritten and revert give are those of the engine's edits kept.
final class ShownVersionEngineEditTests: XCTestCase {
    static let original = "I do not think it is ready. We are waiting for the tests."

    /// `text` with `insert` put after the first `after`.
    private func inserting(_ insert: String, after: String, in text: String) -> String {
        let end = text.range(of: after)!.upperBound
        return String(text[..<end]) + insert + String(text[end...])
    }

    private func offset(after: String, in text: String) -> Int {
        text.utf8.distance(from: text.startIndex, to: text.range(of: after)!.upperBound)
    }

    func testEngineEditsInARestingRewriteAreComparedAroundEachEdit() throws {
        let engine = TestEngine(Self.original)
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.rewriteFriendly)
        try engine.run(coordinator)
        let rewritten = engine.text
        XCTAssertNotEqual(rewritten, Self.original)
        // Show original and back: the version shown is checked over the region once.
        try coordinator.showOriginal(true)
        try engine.run(coordinator)
        try coordinator.showOriginal(false)
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, rewritten)
        let session = try XCTUnwrap(coordinator.session)
        let context = try XCTUnwrap(session.working)
        let id = coordinator.contextIDs[0]
        var expectedOriginal = Self.original
        // Typing beside Emend's changes: after "think" and inside "waiting".
        for (word, typed) in [("think", "Z"), ("wai", "Q")] {
            guard case .showsRegion(session.shownVersion, context.ledger.generation, context.ledger.baseEdits.count) = session.shownVersionTrack else {
                return XCTFail("the version shown is not known to show the region before typing after \"\(word)\": \(session.shownVersionTrack)")
            }
            let at = offset(after: word, in: engine.text)
            engine.edit(at..<at, typed)
            try coordinator.updateRange(contextID: id, range: at..<at, text: typed, reason: .typing)
            expectedOriginal = inserting(typed, after: word, in: expectedOriginal)
            let region = try XCTUnwrap(session.region?.range)
            XCTAssertEqual(session.version(session.shownVersion)?.string, context.text.substring(region))
        }
        let typedRewritten = engine.text
        try coordinator.showOriginal(true)
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, expectedOriginal)
        try coordinator.showOriginal(false)
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, typedRewritten)
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, expectedOriginal)
        XCTAssertEqual(coordinator.state, .inactive)
    }

    /// An edit inside a change of the version (it becomes the engine's) is decided around the
    /// edit too, and revert keeps it.
    func testAnEngineEditInsideAChangeKeepsTheVersionShownTrue() throws {
        let engine = TestEngine(Self.original)
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.rewriteFriendly)
        try engine.run(coordinator)
        try coordinator.showOriginal(true)
        try engine.run(coordinator)
        try coordinator.showOriginal(false)
        try engine.run(coordinator)
        let session = try XCTUnwrap(coordinator.session)
        let context = try XCTUnwrap(session.working)
        guard let we = engine.text.range(of: "We're") else { return XCTFail("no \"We're\" in \(engine.text)") }
        let start = engine.text.utf8.distance(from: engine.text.startIndex, to: we.lowerBound)
        let range = start..<(start + 5)
        engine.edit(range, "We")
        try coordinator.updateRange(contextID: coordinator.contextIDs[0], range: range, text: "We", reason: .typing)
        let region = try XCTUnwrap(session.region?.range)
        XCTAssertEqual(session.version(session.shownVersion)?.string, context.text.substring(region))
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "I do not think it is ready. We waiting for the tests.")
    }
}
