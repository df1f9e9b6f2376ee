import XCTest
@testable import EmendCore

/// `SlicedRelease.release(each:)` frees many arrays (an ended session's saved versions and
/// the ledger's blocks of changes) a slice's worth per queue item: never all at once, never
/// nothing while some are left, every one by the time `then` runs.
final class SlicedReleaseTests: XCTestCase {
    private final class Counter { var alive = 0 }
    private final class Tracked {
        let counter: Counter
        init(_ counter: Counter) {
            self.counter = counter
            counter.alive += 1
        }
        deinit { counter.alive -= 1 }
    }

    /// Small arrays (blocks of 300) go together up to a slice (1,000) per item, a large one
    /// (2,500) in slices of its own; the arrays handed over are the only references (nothing
    /// keeps them whole until the end, as a captured copy did).
    func testManyArraysAreFreedASliceWorthPerQueueItem() throws {
        let queue = try WorkQueue()
        let counter = Counter()
        func make() -> [[Tracked]] {
            var arrays = (0..<12).map { _ in (0..<300).map { _ in Tracked(counter) } }
            arrays.insert((0..<2_500).map { _ in Tracked(counter) }, at: 5)
            arrays.append([])
            return arrays
        }
        var done = false
        SlicedRelease.release(each: make(), slice: 1_000, on: queue) { done = true }
        XCTAssertEqual(counter.alive, 12 * 300 + 2_500, "nothing is freed before the first queue item")
        var items = 0
        while !done {
            guard let item = queue.take(limit: 1).first else { return XCTFail("the release stopped with \(counter.alive) left") }
            let before = counter.alive
            item.run()
            items += 1
            XCTAssertLessThanOrEqual(before - counter.alive, 1_000, "item \(items) freed more than a slice")
            if !done { XCTAssertGreaterThan(before - counter.alive, 0, "item \(items) freed nothing") }
        }
        XCTAssertEqual(counter.alive, 0)
        XCTAssertGreaterThanOrEqual(items, (12 * 300 + 2_500) / 1_000)
    }
}
