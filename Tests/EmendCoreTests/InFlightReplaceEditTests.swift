import XCTest
import EmendCore
import EmendText

/// An engine edit inside a replace's text while the replace is out (asked, not yet answered)
/// that keeps the range's length: the replace's old text (what a revert puts back) is the
/// text with the engine's edit, not the text the replace was planned against. Why: a delivery
/// may keep the text it planned to take out as its change's base instead of reading it out of
/// the rope again (16 MB for a long region rewritten as a sentence), which holds only while
/// nothing changed the text since it was compared; an engine edit of the same length does.
final class InFlightReplaceEditTests: XCTestCase {
    func testAnEngineEditInsideAnOutstandingReplaceComesBackOnRevert() throws {
        let original = "I do not think it is ready. We are here."
        let engine = TestEngine(original)
        engine.replaceAnswering = .later
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.rewriteFriendly)
        XCTAssertTrue(try engine.pump(coordinator) { !engine.heldReplaces.isEmpty })
        let held = try XCTUnwrap(engine.heldReplaces.first).proposal
        XCTAssertGreaterThanOrEqual(held.range.count, 2)
        // The user retypes the replaced text's first letter as another of the same length.
        let letter = held.range.lowerBound..<(held.range.lowerBound + 1)
        let typed = Array(engine.text.utf8)[letter.lowerBound] == UInt8(ascii: "X") ? "Y" : "X"
        engine.edit(letter, typed)
        try coordinator.updateRange(contextID: coordinator.contextIDs[0], range: letter, text: typed, reason: .typing)
        var edited = Array(original.utf8)
        edited[letter.lowerBound] = typed.utf8.first!
        let expected = String(decoding: edited, as: UTF8.self)
        // The engine then takes the replace over its text, as asked.
        engine.replaceAnswering = .atOnce
        engine.releaseHeldReplaces(coordinator)
        try engine.run(coordinator)
        XCTAssertNotEqual(engine.text, expected, "the rewrite is in the text")
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(coordinator.state, .inactive)
        XCTAssertEqual(engine.text, expected, "revert puts back the text the replace took, the engine's letter with it")
    }
}
