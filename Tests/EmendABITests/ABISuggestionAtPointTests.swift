import XCTest
import CEmend
import EmendCABI

/// emend_session_suggestion_at_point answers EMEND_E_AGAIN, never EMEND_E_STATE, while the
/// rectangles it asked for are still outstanding: a GUI that reads STATE as "no session"
/// would drop the click. Once the engine answered them, the same point finds the suggestion.
final class ABISuggestionAtPointTests: XCTestCase {
    private func proofreadEngine() throws -> (CEngine, OpaquePointer) {
        let engine = CEngine("teh cat recieve it tomorow.")
        engine.givesBoundingRects = true
        let coordinator = try engine.makeCoordinator()
        XCTAssertEqual(start(coordinator, EMEND_TOOL_PROOFREAD), EMEND_OK)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK, lastError)
        XCTAssertEqual(suggestionCount(coordinator), 3)
        return (engine, coordinator)
    }

    func testAskingAgainBeforeTheRectanglesArriveIsAgain() throws {
        let (engine, coordinator) = try proofreadEngine()
        defer { emend_coordinator_destroy(coordinator) }
        let receive = try XCTUnwrap(engine.range(of: "receive"))
        let x = (Double(receive.location) + 1.5) * 10
        var index = -1
        XCTAssertStatus(emend_session_suggestion_at_point(coordinator, x, 5, &index), EMEND_E_AGAIN)
        // A second click before any dispatch: still "ask again", not "no session".
        XCTAssertStatus(emend_session_suggestion_at_point(coordinator, x, 5, &index), EMEND_E_AGAIN, mentions: ["rectangles"])
        XCTAssertEqual(index, -1, "nothing written on AGAIN")
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK)
        XCTAssertEqual(emend_session_suggestion_at_point(coordinator, x, 5, &index), EMEND_OK, lastError)
        XCTAssertEqual(index, 1)
    }

    func testWhileTheEngineHoldsARectRequestItIsAgain() throws {
        let (engine, coordinator) = try proofreadEngine()
        defer { emend_coordinator_destroy(coordinator) }
        engine.holdRects = true
        let tomorrow = try XCTUnwrap(engine.range(of: "tomorrow"))
        let x = (Double(tomorrow.location) + 0.5) * 10
        var index = -1
        var status = emend_session_suggestion_at_point(coordinator, x, 5, &index)
        XCTAssertStatus(status, EMEND_E_AGAIN)
        var rounds = 0
        while status == EMEND_E_AGAIN && rounds < 20 {
            // The engine's event loop: dispatch (the request arrives and is held), a click
            // while it is held, then the answer and the next dispatch.
            XCTAssertEqual(emend_coordinator_dispatch(coordinator, nil), EMEND_OK)
            if !engine.heldRects.isEmpty {
                XCTAssertStatus(emend_session_suggestion_at_point(coordinator, x, 5, &index), EMEND_E_AGAIN,
                                mentions: ["rectangles"])
                engine.answerHeldRects(coordinator)
                XCTAssertEqual(emend_coordinator_dispatch(coordinator, nil), EMEND_OK)
            }
            status = emend_session_suggestion_at_point(coordinator, x, 5, &index)
            rounds += 1
        }
        XCTAssertEqual(status, EMEND_OK, lastError)
        XCTAssertEqual(index, 2)
        XCTAssertEqual(engine.rangeCalls.filter { $0.callback == "requests_bounding_rects" }.count, 3, "each suggestion asked once")
        XCTAssertEqual(engine.answerFailures, [])
        // A point on no suggestion, with every rectangle known, is NOT_FOUND.
        XCTAssertStatus(emend_session_suggestion_at_point(coordinator, x, 500, &index), EMEND_E_NOT_FOUND)
    }

    func testWithoutASessionItIsState() throws {
        let engine = CEngine("teh cat.")
        engine.givesBoundingRects = true
        let coordinator = try engine.makeCoordinator()
        defer { emend_coordinator_destroy(coordinator) }
        var index = -1
        XCTAssertStatus(emend_session_suggestion_at_point(coordinator, 0, 0, &index), EMEND_E_STATE)
    }
}
