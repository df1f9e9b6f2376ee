import XCTest
@testable import EmendCore
import EmendText

/// A replace of hundreds of kilobytes (the engine's edit and Emend's cost milliseconds per
/// megabyte, all in the dispatch that sends it) starts a dispatch of its own, never after a
/// dispatch's worth of other work: revert takes a long rewrite out 64 KB at a time, then puts
/// a styled original back in one replace, which used to run in the same dispatch as those
/// pieces. (A plain original comes back in pieces too, `RestoringPiece.baseTail`: the ledger
/// trims only plain changes, so a styled one's base goes whole.)
final class LongReplaceDispatchTests: XCTestCase {
    /// Rewrites every "a" of the selection as "b", whole.
    final class EveryWordRewriter: WritingProvider, @unchecked Sendable {
        let id = "org.emend.tests.every-word-rewrite"
        let tools: Set<WritingTool> = [.rewriteFriendly]
        var needsFactCheck: Bool { false }

        func run(_ request: ProviderRequest, sink: ProviderSink) -> ProviderOutcome {
            let bytes = Array(request.text.utf8)[request.selection].map { $0 == UInt8(ascii: "a") ? UInt8(ascii: "b") : $0 }
            sink.emitText(String(decoding: bytes, as: UTF8.self))
            return .finished
        }
    }

    func testALongReplaceStartsADispatchOfItsOwn() throws {
        let original = String(repeating: "a x ", count: 100_000)
        let engine = TestEngine(original)
        // Styled: its base goes back in one replace (see above).
        engine.attributeRuns = [AttributeRun(range: 0..<original.utf8.count, key: "bold", value: "1")]
        var options = CoordinatorOptions()
        options.streaming = .wholeResult
        // A budget no dispatch here spends: only a replace that starts a dispatch ends one early.
        options.dispatchBudget = .time(microseconds: 60_000_000)
        let coordinator = try Coordinator(delegate: engine, options: options, providers: [EveryWordRewriter()])
        try coordinator.start(.rewriteFriendly)
        XCTAssertTrue(try engine.pump(coordinator, timeoutMilliseconds: 60_000) { coordinator.isIdle })
        XCTAssertTrue(engine.text == String(repeating: "b x ", count: 100_000), "the rewrite is in the text")

        // Each dispatch's replaces, by length.
        var perDispatch: [[Int]] = []
        var seen = engine.appliedReplaces.count
        try coordinator.revert()
        XCTAssertTrue(try engine.pump(coordinator, timeoutMilliseconds: 60_000) {
            perDispatch.append(engine.appliedReplaces[seen...].map { max($0.range.count, $0.text.utf8.count) })
            seen = engine.appliedReplaces.count
            return coordinator.isIdle
        })
        XCTAssertTrue(engine.text == original, "revert puts the original back byte for byte")
        let replaces = perDispatch.flatMap { $0 }
        XCTAssertTrue(replaces.contains { $0 >= Coordinator.longReplaceBytes }, "the original goes back in one long replace: \(replaces)")
        XCTAssertGreaterThan(replaces.filter { $0 < Coordinator.longReplaceBytes }.count, 1, "the rewrite goes out in pieces first")
        for replaces in perDispatch where replaces.contains(where: { $0 >= Coordinator.longReplaceBytes }) {
            XCTAssertEqual(replaces.count, 1, "a long replace shares no dispatch: \(perDispatch)")
        }
    }
}
