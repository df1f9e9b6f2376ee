import XCTest
import EmendText

/// mergedRanges: the disjoint, sorted cover of protected ranges that the fixture provider,
/// the LaTeX protection and the Markdown writer's placeholders walk in order.
final class RangeMergingTests: XCTestCase {
    func testOverlappingAndTouchingRangesAreJoinedInOrder() {
        XCTAssertEqual([10..<12, 0..<3, 2..<5, 5..<7, 11..<20].mergedRanges(), [0..<7, 10..<20])
    }

    func testEmptyRangesAreDroppedAndApartOnesKept() {
        XCTAssertEqual([4..<4, 8..<9, 0..<0, 1..<2].mergedRanges(), [1..<2, 8..<9])
        XCTAssertEqual([Range<Int>]().mergedRanges(), [])
    }

    func testARangeInsideAnotherLeavesTheOuterOne() {
        XCTAssertEqual([0..<10, 2..<3].mergedRanges(), [0..<10])
    }
}
