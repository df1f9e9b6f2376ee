import XCTest
import CEmend
import EmendCABI

/// The animation callbacks come as emend.h says (issue 29, G7): requests_preview, then
/// prepare_for_text_animation, then finish_text_animation, for ANTICIPATE around each
/// provider run of a session that changes the text inline; no animation for a presented
/// result; no other kind in this version (replaces carry animation_duration instead).
final class ABIAnimationOrderTests: XCTestCase {
    private func callbacks(_ tool: emend_tool, presents: Bool = false) throws -> (names: [String], kinds: Set<UInt32>) {
        let engine = CEngine("I do not think it is ready. It was late.")
        engine.animates = true
        let coordinator = try engine.makeCoordinator()
        defer { emend_coordinator_destroy(coordinator) }
        XCTAssertEqual(start(coordinator, tool), EMEND_OK, lastError)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK, lastError)
        XCTAssertEqual(engine.answerFailures, [])
        XCTAssertEqual(engine.presented.count, presents ? 1 : 0)
        let calls = engine.rangeCalls.filter { $0.animation != nil }
        return (calls.map(\.callback), Set(calls.map { $0.animation!.rawValue }))
    }

    func testPreviewComesBeforePrepareAndOnlyAnticipateIsRequested() throws {
        for tool in [EMEND_TOOL_REWRITE_FRIENDLY, EMEND_TOOL_PROOFREAD] {
            let (names, kinds) = try callbacks(tool)
            XCTAssertEqual(names, ["requests_preview", "prepare_for_text_animation", "finish_text_animation"], "\(tool)")
            XCTAssertEqual(kinds, [EMEND_ANIMATION_ANTICIPATE.rawValue], "\(tool)")
        }
    }

    func testAPresentedResultIsNotAnimated() throws {
        let (names, _) = try callbacks(EMEND_TOOL_SUMMARY, presents: true)
        XCTAssertEqual(names, [])
    }
}
