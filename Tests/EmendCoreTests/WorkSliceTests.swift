import XCTest
import Glibc
@testable import EmendCore

/// A slice of a long loop ends by time under a time budget, whatever each element costs, and
/// by count otherwise (runs under a budget of items stay the same from run to run).
final class WorkSliceTests: XCTestCase {
    func testACountedSliceTakesExactlyItsCount() {
        var slice = WorkSlice(.elements(5))
        var taken = 0
        while slice.takesAnother() { taken += 1 }
        XCTAssertEqual(taken, 5)
    }

    func testATimedSliceEndsOnceItsTimeIsSpentButNeverBeforeItsMinimum() {
        // Elements of 100 µs each: 10,000 would take a second; the slice ends after about 1 ms.
        var slice = WorkSlice(.time(microseconds: 1_000, minimum: 4), checkEvery: 2)
        var taken = 0
        while taken < 10_000, slice.takesAnother() {
            taken += 1
            let start = MonotonicClock.nowMicroseconds()
            while MonotonicClock.nowMicroseconds() - start < 100 {}
        }
        XCTAssertGreaterThanOrEqual(taken, 4)
        XCTAssertLessThan(taken, 10_000)

        // However long the elements, the minimum runs.
        var slow = WorkSlice(.time(microseconds: 0, minimum: 3), checkEvery: 1)
        var count = 0
        while count < 100, slow.takesAnother() { count += 1 }
        XCTAssertEqual(count, 3)
    }

    func testTheBudgetDecidesHowSlicesEnd() throws {
        for (budget, timed) in [(DispatchBudget.standard, true), (.items(8), false), (.unlimited, false)] {
            var options = CoordinatorOptions()
            options.dispatchBudget = budget
            let coordinator = try makeCoordinator(TestEngine("Text."), options: options)
            let bound = WorkSlice.bound(on: coordinator.queue, elements: 512)
            XCTAssertEqual(bound, timed ? .time(microseconds: WorkSlice.standardMicroseconds, minimum: WorkSlice.minimumElements) : .elements(512),
                           "\(budget)")
        }
    }
}
