import XCTest
@testable import EmendCore
import EmendText

/// A large proofread's request text is copied on a runtime thread from a snapshot of the
/// rope's chunks (`RequestText`, `Coordinator.runProvider`): the engine's thread goes on
/// meanwhile, and what the engine does then (edits, a stop) loses nothing.
final class RequestTextTests: XCTestCase {
    static let original = "The cat sat on the mat. I recieve it today. We are waiting for the tests."

    /// A proofread whose request text is copied elsewhere (any size), dispatched until the
    /// copy is under way: the run read the region, its provider has not started.
    private func startCopying(copiedHereBelow: Int = 0, text: String = original,
                              protectedRanges: [Range<Int>] = []) throws -> (TestEngine, Coordinator) {
        let engine = TestEngine(text, selection: 0..<text.utf8.count)
        engine.protectedRanges = protectedRanges
        var options = CoordinatorOptions()
        options.requestTextCopiedHereBelow = copiedHereBelow
        options.streaming = .wholeResult
        let coordinator = try makeCoordinator(engine, options: options)
        try coordinator.start(.proofread)
        let before = try XCTUnwrap(coordinator.session?.run)
        XCTAssertTrue(try engine.pump(coordinator) { coordinator.session.map { $0.run !== before } ?? false },
                      "the run begins")
        return (engine, coordinator)
    }

    private func type(_ engine: TestEngine, _ coordinator: Coordinator, _ range: Range<Int>, _ text: String) throws {
        engine.edit(range, text)
        try coordinator.updateRange(contextID: coordinator.contextIDs[0], range: range, text: text, reason: .typing)
    }

    func testAnEngineEditWhileTheRequestTextIsCopiedIsKeptAndTheResultLandsRebased() throws {
        let (engine, coordinator) = try startCopying()
        let run = try XCTUnwrap(coordinator.session?.run)
        XCTAssertNil(run.request, "the provider starts once its request's text is copied, in a later dispatch")
        try type(engine, coordinator, 0..<0, "Now ")
        try type(engine, coordinator, byteRange(of: "waiting", in: engine.text)!, "hoping")
        XCTAssertTrue(try engine.pump(coordinator) { run.request != nil })
        // The provider reads the text as it was when the run read it, not the engine's edits.
        XCTAssertEqual(run.request.map { Array($0.text.utf8) }, Array(Self.original.utf8))
        try engine.run(coordinator)
        XCTAssertNil(coordinator.lastFailure)
        // Its suggestion lands on its word, after the engine's edits; theirs stay.
        XCTAssertEqual(engine.text, "Now The cat sat on the mat. I receive it today. We are hoping for the tests.")
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(Array(engine.text.utf8), Array("Now The cat sat on the mat. I recieve it today. We are hoping for the tests.".utf8))
        XCTAssertEqual(coordinator.lastSessionOutcome, .finished)
    }

    func testAnEngineEditOverTheSuggestedWordWhileTheTextIsCopiedWins() throws {
        let (engine, coordinator) = try startCopying()
        XCTAssertNil(coordinator.session?.run.request, "the text is being copied")
        try type(engine, coordinator, byteRange(of: "recieve", in: engine.text)!, "got")
        try engine.run(coordinator)
        XCTAssertNil(coordinator.lastFailure)
        XCTAssertEqual(engine.text, "The cat sat on the mat. I got it today. We are waiting for the tests.")
        if coordinator.session != nil {
            try coordinator.revert()
            try engine.run(coordinator)
        }
        XCTAssertEqual(engine.text, "The cat sat on the mat. I got it today. We are waiting for the tests.")
    }

    func testAStopWhileTheRequestTextIsCopiedNeverStartsTheProvider() throws {
        let (engine, coordinator) = try startCopying()
        let run = try XCTUnwrap(coordinator.session?.run)
        try type(engine, coordinator, 0..<0, "Now ")
        try coordinator.stop()
        try engine.run(coordinator)
        XCTAssertNil(run.request, "a stopped session's copied text goes nowhere")
        XCTAssertEqual(Array(engine.text.utf8), Array(("Now " + Self.original).utf8))
        XCTAssertEqual(coordinator.state, .inactive)
        XCTAssertTrue(coordinator.isIdle)
    }

    func testAShortRequestTextIsCopiedInTheDispatchThatStartsTheRun() throws {
        let (engine, coordinator) = try startCopying(copiedHereBelow: 1 << 20)
        XCTAssertEqual(coordinator.session?.run.request.map { Array($0.text.utf8) }, Array(Self.original.utf8))
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "The cat sat on the mat. I receive it today. We are waiting for the tests.")
    }

    func testTheRequestCopiedElsewhereNamesTheProtectedRangesAndAttachmentsTheCopyHereNames() throws {
        let text = "Keep \u{FFFC} this. The SECRET words stay. I recieve \u{FFFC}\u{FFFC} it."
        let secret = byteRange(of: "SECRET words", in: text)!
        var requests: [ProviderRequest] = []
        for copiedHereBelow in [1 << 20, 0] {
            let (engine, coordinator) = try startCopying(copiedHereBelow: copiedHereBelow, text: text, protectedRanges: [secret])
            let run = try XCTUnwrap(coordinator.session?.run)
            XCTAssertEqual(run.request == nil, copiedHereBelow == 0, "copied elsewhere, or in the dispatch that starts the run")
            XCTAssertTrue(try engine.pump(coordinator) { run.request != nil })
            requests.append(try XCTUnwrap(run.request))
            try engine.run(coordinator)
        }
        XCTAssertEqual(requests[1].protectedRanges.count, 4, "the declared range and three attachments")
        XCTAssertEqual(requests[1].protectedRanges, requests[0].protectedRanges)
        XCTAssertEqual(Array(requests[1].text.utf8), Array(requests[0].text.utf8))
    }
}
