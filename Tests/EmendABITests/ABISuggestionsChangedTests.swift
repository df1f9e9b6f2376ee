import XCTest
import Glibc
import CEmend
import EmendCABI

/// suggestions_changed (issue 29, G3): the engine is told which suggestions changed, once per
/// dispatch at most, so it re-reads those instead of all of them after every dispatch; an
/// engine whose struct_size ends before the callback is never called.
final class ABISuggestionsChangedTests: XCTestCase {
    private let text = "teh cat recieve it tomorow."

    /// Dispatches until idle, checking that no dispatch notifies more than once.
    private func dispatchUntilIdle(_ engine: CEngine, _ coordinator: OpaquePointer?) {
        for _ in 0..<10_000 {
            let before = engine.suggestionSpans.count
            XCTAssertEqual(emend_coordinator_dispatch(coordinator, nil), EMEND_OK, lastError)
            XCTAssertLessThanOrEqual(engine.suggestionSpans.count - before, 1, "coalesced: one notification per dispatch")
            if emend_coordinator_run_until_idle(coordinator, 0) == EMEND_OK { return }
            var pfd = pollfd(fd: emend_coordinator_fd(coordinator), events: Int16(POLLIN), revents: 0)
            _ = poll(&pfd, 1, 100)
        }
        XCTFail("the coordinator never became idle")
    }

    /// Whether the coordinator's descriptor is readable now.
    private func readable(_ coordinator: OpaquePointer?) -> Bool {
        var pfd = pollfd(fd: emend_coordinator_fd(coordinator), events: Int16(POLLIN), revents: 0)
        return poll(&pfd, 1, 0) == 1
    }

    func testTheEngineIsToldWhichSuggestionsChanged() throws {
        let engine = CEngine(text)
        engine.wantsSuggestionChanges = true
        engine.givesUnderlineRects = true
        let coordinator = try engine.makeCoordinator()
        defer { emend_coordinator_destroy(coordinator) }
        XCTAssertEqual(start(coordinator, EMEND_TOOL_PROOFREAD), EMEND_OK)
        dispatchUntilIdle(engine, coordinator)
        // The result arrived: every index was reported, the last notification says 3.
        let spans = engine.suggestionSpans
        XCTAssertFalse(spans.isEmpty)
        XCTAssertEqual(spans.last?.total, 3)
        XCTAssertEqual(Set(spans.flatMap { Array($0.first..<($0.first + $0.count)) }), [0, 1, 2])
        XCTAssertTrue(spans.allSatisfy { $0.count >= 1 && $0.struct_size == MemoryLayout<emend_suggestion_span>.size })

        // Accepting one (the engine's own call, between dispatches) wakes the loop, and the
        // next dispatch reports that index alone.
        XCTAssertEqual(emend_session_accept_suggestion(coordinator, 1), EMEND_OK, lastError)
        XCTAssertTrue(readable(coordinator), "the change is reported by the next dispatch: the descriptor says so")
        var count = engine.suggestionSpans.count
        XCTAssertEqual(emend_coordinator_dispatch(coordinator, nil), EMEND_OK)
        XCTAssertEqual(engine.suggestionSpans.count, count + 1)
        XCTAssertEqual(engine.suggestionSpans.last.map { [$0.first, $0.count, $0.total] }, [1, 1, 3])
        XCTAssertEqual(suggestion(coordinator, 1)?.state, EMEND_SUGGESTION_ACCEPTED)

        // A dispatch with nothing changed says nothing.
        count = engine.suggestionSpans.count
        XCTAssertEqual(emend_coordinator_dispatch(coordinator, nil), EMEND_OK)
        XCTAssertEqual(engine.suggestionSpans.count, count)

        // The engine types inside suggestion 2: it becomes INVALID, and is reported.
        let tomorrow = try XCTUnwrap(engine.range(of: "tomorrow"))
        let edit = emend_range(location: tomorrow.location + 1, length: 1)
        engine.edit(edit, "X")
        XCTAssertEqual("X".withCString { emend_coordinator_update_range(coordinator, engine.contextID, edit, $0, 1, EMEND_UPDATE_TYPING) },
                       EMEND_OK, lastError)
        count = engine.suggestionSpans.count
        dispatchUntilIdle(engine, coordinator)
        XCTAssertEqual(engine.suggestionSpans.count, count + 1)
        XCTAssertEqual(engine.suggestionSpans.last.map { [$0.first, $0.count, $0.total] }, [2, 1, 3])
        XCTAssertEqual(suggestion(coordinator, 2)?.state, EMEND_SUGGESTION_INVALID)

        // Rejecting suggestion 0 puts its original back: reported once its replace is applied.
        XCTAssertEqual(emend_session_reject_suggestion(coordinator, 0), EMEND_OK, lastError)
        count = engine.suggestionSpans.count
        dispatchUntilIdle(engine, coordinator)
        XCTAssertEqual(engine.suggestionSpans.dropFirst(count).map { [$0.first, $0.count, $0.total] }.last, [0, 1, 3] as [Int]?)
        XCTAssertEqual(suggestion(coordinator, 0)?.state, EMEND_SUGGESTION_REJECTED)

        // The session ends: every index is gone, total 0.
        XCTAssertEqual(emend_session_accept(coordinator), EMEND_OK, lastError)
        dispatchUntilIdle(engine, coordinator)
        XCTAssertEqual(engine.suggestionSpans.last.map { [$0.first, $0.count, $0.total] }, [0, 3, 0])
        XCTAssertEqual(suggestionCount(coordinator), 0)
        XCTAssertEqual(engine.answerFailures, [])
    }

    func testAnOlderEngineIsNeverCalled() throws {
        // The callback is in the table, but struct_size ends before it (an engine built with
        // the header before suggestions_changed): the runtime must not read it.
        let engine = CEngine(text)
        engine.wantsSuggestionChanges = true
        var table = engine.delegate()
        XCTAssertNotNil(table.suggestions_changed)
        table.struct_size = MemoryLayout<emend_delegate>.offset(of: \emend_delegate.suggestions_changed)!
        var options = emend_coordinator_options()
        options.struct_size = MemoryLayout<emend_coordinator_options>.size
        var coordinator: OpaquePointer?
        XCTAssertEqual(emend_coordinator_create(&table, &options, &coordinator), EMEND_OK, lastError)
        defer { emend_coordinator_destroy(coordinator) }
        XCTAssertEqual(start(coordinator, EMEND_TOOL_PROOFREAD), EMEND_OK)
        XCTAssertEqual(runUntilIdle(coordinator), EMEND_OK, lastError)
        XCTAssertEqual(suggestionCount(coordinator), 3)
        XCTAssertEqual(engine.suggestionSpans.count, 0)
    }
}
