import XCTest
@testable import EmendCore
import EmendText

/// A rewrite's step whose plan turns the region into the version byte for byte, delivered as
/// planned with nothing else reaching the ledger meanwhile, leaves the region showing the
/// version: it is not made over the region and compared again (`ShownVersionPlan`,
/// `Session.regionComparisons`). Whenever anything else happened — the engine edited while
/// the plan was out or the delivery went on, or put in other text than asked — the region
/// is compared as before, and the version shown is what the region shows. Debug builds also
/// compare each version taken as delivered with the region.
final class ShownVersionPlanTests: XCTestCase {
    static let original = "I do not think it is ready. We are waiting for the tests."
    static let friendly = "I don't think it's ready. We're waiting for the tests!"

    /// The version shown, made over the region, is what the region shows.
    private func assertVersionShowsRegion(_ coordinator: Coordinator, _ message: String,
                                          file: StaticString = #filePath, line: UInt = #line) throws {
        let session = try XCTUnwrap(coordinator.session, file: file, line: line)
        let context = try XCTUnwrap(session.working, file: file, line: line)
        let region = try XCTUnwrap(session.region?.range, file: file, line: line)
        XCTAssertEqual(session.version(session.shownVersion)?.string, context.text.substring(region), message, file: file, line: line)
    }

    func testAVersionDeliveredAsPlannedIsNotComparedWithTheRegion() throws {
        let engine = TestEngine(Self.original)
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.rewriteFriendly)
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, Self.friendly)
        let session = try XCTUnwrap(coordinator.session)
        let context = try XCTUnwrap(session.working)
        XCTAssertEqual(session.regionComparisons, 0, "the result went in as planned: the region shows it")
        try assertVersionShowsRegion(coordinator, "the result")
        // Known to show the region: the engine's next edit is compared around itself.
        guard case .showsRegion(session.shownVersion, context.ledger.generation, context.ledger.baseEdits.count) = session.shownVersionTrack else {
            return XCTFail("the version delivered is not known to show the region: \(session.shownVersionTrack)")
        }
        try coordinator.showOriginal(true)
        try engine.run(coordinator)
        try coordinator.showOriginal(false)
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, Self.friendly)
        XCTAssertEqual(session.regionComparisons, 0, "show rewritten went in as planned too")
        try assertVersionShowsRegion(coordinator, "shown rewritten")
        let id = try XCTUnwrap(coordinator.contextIDs.first)
        let at = try XCTUnwrap(byteRange(of: "waiting", in: engine.text)).upperBound
        engine.edit(at..<at, "Q")
        try coordinator.updateRange(contextID: id, range: at..<at, text: "Q", reason: .typing)
        XCTAssertEqual(session.regionComparisons, 0, "an engine edit after it is compared around itself")
        try assertVersionShowsRegion(coordinator, "after the engine's edit")
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(Array(engine.text.utf8), Array("I do not think it is ready. We are waitingQ for the tests.".utf8))
    }

    /// The engine edits while the plan of show rewritten is out: what was planned is not what
    /// the region shows (the edit's text is the engine's), so the region is compared.
    func testAnEngineEditWhileThePlanIsOutIsComparedWithTheRegion() throws {
        let engine = TestEngine(Self.original)
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.rewriteFriendly)
        try engine.run(coordinator)
        try coordinator.showOriginal(true)
        try engine.run(coordinator)
        let session = try XCTUnwrap(coordinator.session)
        let id = try XCTUnwrap(coordinator.contextIDs.first)
        try coordinator.showOriginal(false)
        XCTAssertTrue(session.alignment.isInFlight, "the step's edits are planned on a runtime thread")
        let range = try XCTUnwrap(byteRange(of: "do not", in: engine.text))
        engine.edit(range, "really do not")
        try coordinator.updateRange(contextID: id, range: range, text: "really do not", reason: .typing)
        try engine.run(coordinator)
        XCTAssertTrue(engine.text.contains("I really do not think"), engine.text)
        XCTAssertGreaterThan(session.regionComparisons, 0, "an engine edit while the plan was out: the region is compared")
        try assertVersionShowsRegion(coordinator, "after an engine edit during the plan")
        try coordinator.showOriginal(true)
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "I really do not think it is ready. We are waiting for the tests.")
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(Array(engine.text.utf8), Array("I really do not think it is ready. We are waiting for the tests.".utf8))
    }

    /// The engine edits while the delivery's replace is out (after the plan came back): the
    /// ledger took more than the delivery's replaces, so the region is compared.
    func testAnEngineEditWhileTheReplaceIsOutIsComparedWithTheRegion() throws {
        let engine = TestEngine(Self.original)
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.rewriteFriendly)
        try engine.run(coordinator)
        try coordinator.showOriginal(true)
        try engine.run(coordinator)
        let session = try XCTUnwrap(coordinator.session)
        let id = try XCTUnwrap(coordinator.contextIDs.first)
        engine.replaceAnswering = .later
        try coordinator.showOriginal(false)
        XCTAssertTrue(try engine.pump(coordinator) { !engine.heldReplaces.isEmpty }, "a replace of show rewritten is out")
        // Typed at the end of the text, beside the region's last change.
        let end = engine.text.utf8.count
        engine.edit(end..<end, " Z")
        try coordinator.updateRange(contextID: id, range: end..<end, text: " Z", reason: .typing)
        engine.replaceAnswering = .atOnce
        engine.releaseHeldReplaces(coordinator)
        try engine.run(coordinator)
        XCTAssertTrue(engine.text.hasSuffix(" Z"), engine.text)
        XCTAssertGreaterThan(session.regionComparisons, 0, "an engine edit during the delivery: the region is compared")
        try assertVersionShowsRegion(coordinator, "after an engine edit during the delivery")
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(Array(engine.text.utf8), Array((Self.original + " Z").utf8))
    }

    /// The engine puts in other text than a replace asked for: the region does not show the
    /// version planned; it is compared, and the version shown becomes what it shows.
    func testOtherTextThanAskedIsComparedWithTheRegion() throws {
        let engine = TestEngine(Self.original)
        engine.insertInstead = { proposal in proposal.text.replacingOccurrences(of: "don't", with: "do n't") }
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.rewriteFriendly)
        try engine.run(coordinator)
        let session = try XCTUnwrap(coordinator.session)
        XCTAssertTrue(engine.text.contains("do n't"), engine.text)
        XCTAssertGreaterThan(session.regionComparisons, 0, "the engine's own text: the region is compared")
        try assertVersionShowsRegion(coordinator, "after the engine put in its own text")
        let shown = engine.text
        engine.insertInstead = nil
        try coordinator.showOriginal(true)
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, Self.original)
        try coordinator.showOriginal(false)
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, shown, "show rewritten gives what the region showed")
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(Array(engine.text.utf8), Array(Self.original.utf8))
    }

    /// The plan says whether its edits make the version, and how long it is.
    func testThePlanSaysWhetherItsEditsMakeTheVersion() {
        let context = SessionContext(id: 1, description: ContextDescription(text: AttributedText(Self.original), selection: 0..<0))
        let region = 0..<Self.original.utf8.count
        let change = LedgerHunk(base: 5..<8, baseText: AttributedText("not"), text: AttributedText("never"))
        let plan = VersionPlan(context: context, region: region, version: [change], styled: false)?.planned()
        XCTAssertEqual(plan?.makeVersion, true)
        XCTAssertEqual(plan?.versionLength, Self.original.utf8.count + 2)
        XCTAssertEqual(plan.map { VersionPlan.text(Self.original, after: $0.edits) }, "I do never think it is ready. We are waiting for the tests.")
    }
}
