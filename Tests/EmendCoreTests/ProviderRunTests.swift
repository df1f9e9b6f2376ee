import XCTest
@testable import EmendCore

/// What a provider run hands the engine's thread: every event in order, edits in batches.
final class ProviderRunTests: XCTestCase {
    /// Emits `count` edits, a text piece and one more edit, then finishes.
    private struct Emitter: WritingProvider {
        let id = "org.emend.test.emitter"
        let tools: Set<WritingTool> = [.proofread]
        let count: Int
        func run(_ request: ProviderRequest, sink: ProviderSink) -> ProviderOutcome {
            for i in 0..<count { sink.emitEdit(ProviderEdit(range: i..<(i + 1), replacement: "e\(i)")) }
            sink.emitText("piece")
            sink.emitEdit(ProviderEdit(range: 0..<0, replacement: "last"))
            return .finished
        }
    }

    /// The events the engine's thread received from a run of `Emitter`, and how many queue
    /// items carried them.
    private func events(edits count: Int) throws -> (events: [ProviderRun.Event], items: Int) {
        let queue = try WorkQueue()
        nonisolated(unsafe) var received: [ProviderRun.Event] = []
        let run = ProviderRun(queue: queue, logger: { _ in }) { received.append($0) }
        try run.start(Emitter(count: count), ProviderRequest(tool: .proofread, text: "", selection: 0..<0))
        var items = 0
        let deadline = MonotonicClock.nowMilliseconds() + 10_000
        while MonotonicClock.nowMilliseconds() < deadline {
            let taken = queue.take(limit: 64)
            items += taken.count
            taken.forEach { $0.run() }
            if case .finished = received.last { break }
            if taken.isEmpty { queue.wait(timeoutMilliseconds: 10) }
        }
        return (received, items)
    }

    func testEditsArriveInOrderInFewItemsAndBeforeWhatCameAfterThem() throws {
        let (received, items) = try events(edits: 10_000)
        var edits: [ProviderEdit] = []
        var order: [String] = []
        for event in received {
            switch event {
            case .edits(let batch):
                edits += batch
                if order.last != "edits" { order.append("edits") }
            case .text(let text): order.append("text \(text)")
            case .completeness: order.append("completeness")
            case .finished: order.append("finished")
            }
        }
        XCTAssertEqual(order, ["edits", "text piece", "edits", "finished"])
        XCTAssertEqual(edits.map(\.replacement), (0..<10_000).map { "e\($0)" } + ["last"])
        XCTAssertLessThanOrEqual(items, 10_000 / ProviderRun.editBatch + 4, "a queue item (and a wake-up) per edit")
    }
}
