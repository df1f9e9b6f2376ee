import XCTest
import EmendCore
import EmendText

/// emend.h: a session's context ids exist from the dispatch that takes the contexts answer,
/// whatever the size of the text, so the engine's edits from then on are taken and kept.
final class ContextBuildingTests: XCTestCase {
    func testALargeDocumentsContextExistsFromTheDispatchThatTakesTheAnswer() throws {
        // 600 KB: above the size whose contexts were once built on a thread of their own.
        let filler = String(repeating: "The cat sat on the mat. ", count: 25_000)
        let original = filler + "I recieve it."
        let engine = TestEngine(original, selection: 0..<original.utf8.count)
        engine.contextsAnswering = .later
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.proofread)
        XCTAssertTrue(try engine.pump(coordinator) { engine.contextRequests.count == 1 })
        engine.releaseHeldContexts(coordinator)
        try engine.dispatching { try coordinator.dispatch() }
        let contextID = try XCTUnwrap(coordinator.contextIDs.first, "the context exists once its answer is taken")
        // The engine types at the start at once: the edit is taken, and the suggestion after it
        // still lands on its word.
        engine.edit(0..<0, "Hello. ")
        try coordinator.updateRange(contextID: contextID, range: 0..<0, text: "Hello. ", reason: .typing)
        try engine.run(coordinator)
        XCTAssertTrue(engine.text.hasPrefix("Hello. The cat"))
        XCTAssertTrue(engine.text.hasSuffix("I receive it."), String(engine.text.suffix(40)))
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(Array(engine.text.utf8), Array(("Hello. " + original).utf8), "revert keeps the engine's edit")
    }
}
