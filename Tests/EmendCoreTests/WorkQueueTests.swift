import XCTest
@testable import EmendCore

/// The queue of work the engine's thread runs in dispatch: order kept across takes, work put
/// back, posts from other threads, and items released as they run.
final class WorkQueueTests: XCTestCase {
    /// Posts, takes of every size and put-backs, against a plain array as the model: the
    /// order of work never changes and nothing is lost or run twice.
    func testOrderIsKeptThroughTakesAndPutBacks() throws {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let queue = try WorkQueue()
            var model: [Int] = []
            var ran: [Int] = []
            var next = 0
            for _ in 0..<Int.random(in: 1...60, using: &rng) {
                switch Int.random(in: 0..<3, using: &rng) {
                case 0:
                    for _ in 0..<Int.random(in: 0...300, using: &rng) {
                        let value = next
                        next += 1
                        model.append(value)
                        queue.post { ran.append(value) }
                    }
                default:
                    let limit = Int.random(in: 1...100, using: &rng)
                    let taken = queue.take(limit: limit)
                    XCTAssertLessThanOrEqual(taken.count, min(model.count, limit))
                    XCTAssertEqual(taken.isEmpty, model.isEmpty, "a take finds work whenever some is pending")
                    let runs = Int.random(in: 0...taken.count, using: &rng)
                    for item in taken[..<runs] { item.run() }
                    queue.putBack(taken[runs...])
                    XCTAssertEqual(ran, Array(0..<ran.count), "items run in the order posted")
                    model.removeFirst(runs)
                }
                XCTAssertEqual(queue.hasPendingWork, !model.isEmpty)
            }
            while case let taken = queue.take(limit: 64), !taken.isEmpty { taken.forEach { $0.run() } }
            XCTAssertEqual(ran, Array(0..<next), "every item once, in the order posted")
            XCTAssertFalse(queue.hasPendingWork)
        }
    }

    /// Work posted from another thread while the engine's thread takes arrives whole, in order.
    func testPostsFromAnotherThreadArriveInOrder() throws {
        let queue = try WorkQueue()
        let lock = Lock()
        nonisolated(unsafe) var ran: [Int] = []
        let count = 50_000
        try RuntimeThread.start {
            for value in 0..<count { queue.post { lock.withLock { ran.append(value) } } }
        }
        var seen = 0
        while seen < count {
            let taken = queue.take(limit: 64)
            taken.forEach { $0.run() }
            seen += taken.count
        }
        XCTAssertEqual(lock.withLock { ran }, Array(0..<count))
    }

    /// A taken item is released once it ran and its batch is gone: the queue keeps no copy
    /// (which released a dispatch's worth of closures at once when it was compacted).
    func testTheQueueKeepsNoCopyOfTakenWork() throws {
        final class Token {}
        let queue = try WorkQueue()
        weak var weakToken: Token?
        do {
            let token = Token()
            weakToken = token
            queue.post { _ = token }
        }
        queue.post {}
        XCTAssertNotNil(weakToken)
        do {
            let taken = queue.take(limit: 1)
            taken.forEach { $0.run() }
        }
        XCTAssertNil(weakToken, "the queue still held the item it handed out")
        XCTAssertTrue(queue.hasPendingWork)
    }
}
