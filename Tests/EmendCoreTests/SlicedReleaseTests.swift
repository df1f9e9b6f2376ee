import XCTest
@testable import EmendCore

/// `SlicedRelease.release` frees a large array (an ended session's suggestions) a slice per
/// queue item: never all at once, never nothing while some are left, every one by the time
/// `then` runs. A slice is a fixed count
/// on a queue whose slices are not bounded by time, and about half a millisecond on one whose are,
/// however long an element takes to free.
final class SlicedReleaseTests: XCTestCase {
    private final class Counter { var alive = 0 }
    private final class Tracked {
        let counter: Counter
        /// How long freeing it keeps the thread busy.
        let freeingMicroseconds: Int64
        init(_ counter: Counter, freeingMicroseconds: Int64 = 0) {
            self.counter = counter
            self.freeingMicroseconds = freeingMicroseconds
            counter.alive += 1
        }
        deinit {
            counter.alive -= 1
            let start = MonotonicClock.nowMicroseconds()
            while MonotonicClock.nowMicroseconds() - start < freeingMicroseconds {}
        }
    }

    /// Runs `queue`'s items one at a time until `isDone`, checking what each freed: between
    /// `least` (unless it is the last) and `most`. Returns how many items ran.
    private func runItems(_ queue: WorkQueue, _ counter: Counter, least: Int, most: Int, isDone: () -> Bool,
                          file: StaticString = #filePath, line: UInt = #line) -> Int {
        var items = 0
        while !isDone() {
            guard let item = queue.take(limit: 1).first else {
                XCTFail("the release stopped with \(counter.alive) left", file: file, line: line)
                return items
            }
            let before = counter.alive
            item.run()
            items += 1
            XCTAssertLessThanOrEqual(before - counter.alive, most, "item \(items) freed too much", file: file, line: line)
            if !isDone() { XCTAssertGreaterThanOrEqual(before - counter.alive, least, "item \(items) freed too little", file: file, line: line) }
        }
        return items
    }

    /// On a queue whose slices are a count (dispatch budgets of items), each item frees
    /// exactly a slice (1,000) from the end but the last; the array handed over is the only
    /// reference (nothing keeps it whole until the end, as a captured copy did).
    func testAnArrayIsFreedASlicePerQueueItemOnACountedQueue() throws {
        let queue = try WorkQueue(slicesByTime: false)
        let counter = Counter()
        var done = false
        weak var first: Tracked?
        SlicedRelease.release((0..<6_100).map { index in
            let tracked = Tracked(counter)
            if index == 0 { first = tracked }
            return tracked
        }, slice: 1_000, on: queue) { done = true }
        XCTAssertEqual(counter.alive, 6_100, "nothing is freed before the first queue item")
        var freedBefore = counter.alive
        var items = 0
        while !done {
            guard let item = queue.take(limit: 1).first else { return XCTFail("the release stopped with \(counter.alive) left") }
            item.run()
            items += 1
            if !done {
                XCTAssertEqual(freedBefore - counter.alive, 1_000, "item \(items)")
                XCTAssertNotNil(first, "freed from the end: the first goes last")
            }
            freedBefore = counter.alive
        }
        XCTAssertEqual(counter.alive, 0)
        XCTAssertEqual(items, 7, "6,100 elements, 1,000 per item")
    }

    /// On a queue whose slices are bounded by time, an item frees for about half a millisecond
    /// (`WorkSlice`), never less than a few elements, whatever a slice's count says: elements
    /// that take 200 µs each to free go a handful per item, not 1,000 (a fixed count of
    /// suggestions took 2–3 ms per item, and a dispatch is its budget plus one item). Load only
    /// makes an item free fewer (the clock goes on while the thread waits), never more.
    func testASliceOnATimedQueueEndsAfterAboutHalfAMillisecond() throws {
        let queue = try WorkQueue(slicesByTime: true)
        let counter = Counter()
        var done = false
        // Handed over, not kept: a copy kept here would keep every element alive.
        SlicedRelease.release((0..<300).map { _ in Tracked(counter, freeingMicroseconds: 200) }, slice: 1_000, on: queue) { done = true }
        XCTAssertEqual(counter.alive, 300, "more than a few hundred: not freed where it is asked")
        let items = runItems(queue, counter, least: WorkSlice.minimumElements, most: 2 * SlicedRelease.checkEvery) { done }
        XCTAssertEqual(counter.alive, 0)
        XCTAssertGreaterThanOrEqual(items, 300 / (2 * SlicedRelease.checkEvery))
    }

    /// Cheap elements on a timed queue: many per item, all freed, a small array at once.
    func testCheapElementsOnATimedQueueAreAllFreed() throws {
        let queue = try WorkQueue(slicesByTime: true)
        let counter = Counter()
        var done = false
        SlicedRelease.release((0..<SlicedRelease.freedAtOnce).map { _ in Tracked(counter) }, on: queue) { done = true }
        XCTAssertTrue(done, "a small array goes at once")
        XCTAssertEqual(counter.alive, 0)
        done = false
        SlicedRelease.release((0..<50_000).map { _ in Tracked(counter) }, on: queue) { done = true }
        XCTAssertEqual(counter.alive, 50_000)
        _ = runItems(queue, counter, least: WorkSlice.minimumElements, most: 50_000) { done }
        XCTAssertEqual(counter.alive, 0)
    }

    /// `releaseDetaching` detaches every element on the queue's thread, a slice per queue
    /// item, and frees none of them there when slices are large: each slice goes to a thread
    /// of its own; a few are freed where they are detached.
    func testDetachingRunsHereASlicePerItemAndTheElementsAreFreedElsewhere() throws {
        let queue = try WorkQueue(slicesByTime: false)
        final class Element {
            let freedOn: Box
            init(_ freedOn: Box) { self.freedOn = freedOn }
            deinit { freedOn.note(pthread_self()) }
        }
        final class Box: @unchecked Sendable {
            private let lock = NSLock()
            private var threads: [pthread_t] = []
            func note(_ thread: pthread_t) { lock.withLock { threads.append(thread) } }
            var count: Int { lock.withLock { threads.count } }
            var onThisThread: Int { lock.withLock { threads.filter { pthread_equal($0, pthread_self()) != 0 }.count } }
        }
        let freed = Box()
        let count = SlicedRelease.slice * 3
        var detached = 0, items = 0, done = false
        SlicedRelease.releaseDetaching((0..<count).map { _ in Element(freed) }, on: queue,
                                       detach: { _ in detached += 1 }, then: { done = true })
        while !done, let item = queue.take(limit: 1).first {
            let before = detached
            item.run()
            items += 1
            XCTAssertLessThanOrEqual(detached - before, SlicedRelease.slice, "item \(items) detached more than a slice")
        }
        XCTAssertTrue(done)
        XCTAssertEqual(detached, count, "every element detached")
        XCTAssertEqual(items, 3, "a slice per queue item")
        let deadline = MonotonicClock.nowMicroseconds() + 10_000_000
        while freed.count < count, MonotonicClock.nowMicroseconds() < deadline { usleep(1_000) }
        XCTAssertEqual(freed.count, count, "every element freed")
        XCTAssertEqual(freed.onThisThread, 0, "none freed on the queue's thread")
        // A few (fewer than `freedAtOnce` in a slice) are freed here: no thread for them.
        let few = Box()
        var fewDone = false
        SlicedRelease.releaseDetaching((0..<10).map { _ in Element(few) }, on: queue, detach: { _ in }, then: { fewDone = true })
        while !fewDone, let item = queue.take(limit: 1).first { item.run() }
        XCTAssertEqual(few.onThisThread, 10, "a few are freed on the queue's thread")
    }
}
