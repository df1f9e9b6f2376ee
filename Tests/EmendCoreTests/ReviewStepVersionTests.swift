import XCTest
@testable import EmendCore
import EmendText

/// A review step (reject, undo, redo of one change) keeps the version shown true where it
/// changed, without reading the whole region (`Coordinator.keepReviewedVersionTrue`): the
/// version shown stays what the text shows — the changes the ledger holds in the region — so a
/// follow-up refines, and a failed one comes back to, exactly the text the person sees.
final class ReviewStepVersionTests: XCTestCase {
    static let original = "I do not think it is ready. We are waiting for the tests. It is not done."

    private func reviewed() throws -> (TestEngine, Coordinator, Session) {
        let engine = TestEngine(Self.original)
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.rewriteFriendly)
        try engine.run(coordinator)
        XCTAssertGreaterThan(try coordinator.reviewChanges(), 2)
        try engine.run(coordinator)
        return (engine, coordinator, try XCTUnwrap(coordinator.session))
    }

    /// The version shown is what the region shows, and is the ledger's changes in the region;
    /// it is known to be (a step may keep it where it changed).
    private func assertShownVersionTrue(_ session: Session, _ what: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let context = try XCTUnwrap(session.working), region = try XCTUnwrap(session.region?.range)
        XCTAssertEqual(session.version(session.shownVersion)?.string, context.text.substring(region), what, file: file, line: line)
        let base = context.ledger.baseRange(ofCurrent: region)
        let ledgers = context.ledger.hunks.filter { base.lowerBound <= $0.base.lowerBound && $0.base.upperBound <= base.upperBound }
        XCTAssertEqual(session.versions[session.shownVersion], ledgers, what, file: file, line: line)
        XCTAssertEqual(session.shownVersionTrack,
                       .ledgersChanges(version: session.shownVersion, baseEdits: context.ledger.baseEdits.count), what, file: file, line: line)
    }

    func testEachStepKeepsTheVersionShownTrueWhereItChanged() throws {
        let (engine, coordinator, session) = try reviewed()
        // The version shown before the first step is the result's phrases ("do not" -> "don't"),
        // the ledger's are byte changes: not known to be the same, the first step checks it whole.
        XCTAssertEqual(session.shownVersionTrack, .unknown)
        let rewritten = engine.text
        for index in [1, 0, 2] {
            try coordinator.rejectSuggestion(index)
            try engine.run(coordinator)
            try assertShownVersionTrue(session, "change \(index) rejected")
        }
        XCTAssertNotEqual(engine.text, rewritten)
        for step in 0..<3 {
            try coordinator.undo()
            try engine.run(coordinator)
            try assertShownVersionTrue(session, "undo \(step)")
        }
        XCTAssertEqual(engine.text, rewritten)
        try coordinator.redo()
        try engine.run(coordinator)
        try assertShownVersionTrue(session, "redo")
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(Array(engine.text.utf8), Array(Self.original.utf8))
    }

    func testAnEngineEditDuringTheReviewIsCheckedOverTheRegionThenStepsGoOnWhereTheyChange() throws {
        let (engine, coordinator, session) = try reviewed()
        let range = try XCTUnwrap(byteRange(of: "tests", in: engine.text))
        engine.edit(range, "checks")
        try coordinator.updateRange(contextID: coordinator.contextIDs[0], range: range, text: "checks", reason: .typing)
        try engine.run(coordinator)
        try coordinator.rejectSuggestion(0)
        try engine.run(coordinator)
        try assertShownVersionTrue(session, "a reject after an engine edit")
        try coordinator.undo()
        try engine.run(coordinator)
        try assertShownVersionTrue(session, "its undo")
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(Array(engine.text.utf8), Array(String(Self.original.replacing("tests", with: "checks")).utf8))
    }
}
