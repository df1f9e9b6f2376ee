import XCTest
@testable import EmendCore
import EmendText

/// A run over a whole document nothing changed yet reads the text as the engine gave it
/// (shared, not copied out of the rope); after an engine edit before the run starts (in the
/// window while the rope is built elsewhere, replayed on it), the provider reads the edited
/// text, and the rewrite and revert keep the edit.
final class GivenTextTests: XCTestCase {
    private static let original = "I do not think it is ready. We are here."
    private static let edited = "I do not think it is READY. We are here."

    func testAnEngineEditBeforeTheRunIsWhatTheProviderReads() throws {
        let engine = TestEngine(Self.original, selection: 0..<Self.original.utf8.count)
        engine.contextsAnswering = .later
        var options = CoordinatorOptions()
        options.contextsBuiltElsewhereBytes = 0
        let provider = ScriptedProvider(markdown: false) { request in [request.text + " Done."] }
        let coordinator = try Coordinator(delegate: engine, options: options, providers: [provider])
        try coordinator.start(.rewriteFriendly)
        XCTAssertTrue(try engine.pump(coordinator) { engine.contextRequests.count == 1 })
        engine.releaseHeldContexts(coordinator)
        _ = try engine.dispatching { try coordinator.dispatch() }
        XCTAssertEqual(coordinator.session?.working?.isBuilt, false, "the edit comes in the window")
        let contextID = try XCTUnwrap(coordinator.contextIDs.first)
        let ready = try XCTUnwrap(byteRange(of: "ready", in: engine.text))
        engine.edit(ready, "READY")
        try coordinator.updateRange(contextID: contextID, range: ready, text: "READY", reason: .typing)
        try engine.run(coordinator)
        XCTAssertEqual(provider.requests.map(\.text), [Self.edited], "the provider read the edited text")
        XCTAssertEqual(engine.text, Self.edited + " Done.")
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, Self.edited, "revert keeps the engine's edit")
        XCTAssertTrue(engine.answerErrors.isEmpty)
    }

    /// Nothing changed yet: the whole plain text is the string the engine gave; a change of
    /// the same length after it is read from the rope.
    func testTheWholeUnchangedTextIsTheGivenStringUntilAChange() throws {
        let context = SessionContext(id: 1, description: ContextDescription(text: AttributedText(Self.original), selection: 0..<0, engineContext: 1))
        let whole = 0..<Self.original.utf8.count
        XCTAssertEqual(context.slice(whole).string, Self.original)
        XCTAssertEqual(context.slice(2..<8).string, "do not")
        context.apply(try XCTUnwrap(byteRange(of: "ready", in: Self.original)), "READY")
        XCTAssertEqual(context.slice(whole).string, Self.edited, "an edit is read from the rope")
    }
}
