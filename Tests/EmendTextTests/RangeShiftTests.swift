import XCTest
import EmendText

/// How a byte range follows the replacement of another range of the same text.
final class RangeShiftTests: XCTestCase {
    func testRangeBeforeTheEditStays() {
        XCTAssertEqual(RangeShift.map(0..<3, through: 5..<8, delta: 4), 0..<3)
        // Ending exactly where the edit starts: still before it.
        XCTAssertEqual(RangeShift.map(0..<5, through: 5..<8, delta: -3), 0..<5)
    }

    func testRangeAfterTheEditMovesByDelta() {
        XCTAssertEqual(RangeShift.map(10..<12, through: 2..<4, delta: 3), 13..<15)
        XCTAssertEqual(RangeShift.map(10..<12, through: 2..<4, delta: -2), 8..<10)
        // Starting exactly where the edit ends.
        XCTAssertEqual(RangeShift.map(4..<6, through: 2..<4, delta: 1), 5..<7)
    }

    func testInsertionAtAnEdgeDoesNotGrowTheRange() {
        // At the start: the range moves right.
        XCTAssertEqual(RangeShift.map(5..<9, through: 5..<5, delta: 3), 8..<12)
        // At the end: the range stays.
        XCTAssertEqual(RangeShift.map(5..<9, through: 9..<9, delta: 3), 5..<9)
    }

    func testInsertionInsideTheRangeGrowsIt() {
        XCTAssertEqual(RangeShift.map(5..<9, through: 7..<7, delta: 3), 5..<12)
    }

    func testRangeContainingTheEditStretchesOrShrinks() {
        XCTAssertEqual(RangeShift.map(2..<10, through: 4..<6, delta: 5), 2..<15)
        XCTAssertEqual(RangeShift.map(2..<10, through: 4..<6, delta: -2), 2..<8)
        // The edit is the whole range: the range covers the new text.
        XCTAssertEqual(RangeShift.map(2..<10, through: 2..<10, delta: -5), 2..<5)
    }

    func testPartialOverlapKeepsWhatSurvives() {
        // The edit takes the end of the range.
        XCTAssertEqual(RangeShift.map(2..<6, through: 4..<8, delta: -2), 2..<4)
        // The edit takes the start of the range: the surviving bytes 8..<10 move by delta.
        XCTAssertEqual(RangeShift.map(6..<10, through: 4..<8, delta: 1), 9..<11)
        XCTAssertEqual(RangeShift.map(6..<10, through: 4..<8, delta: -4), 4..<6)
    }

    func testRangeInsideTheEditIsGone() {
        XCTAssertNil(RangeShift.map(5..<6, through: 4..<8, delta: -4))
        XCTAssertNil(RangeShift.map(5..<6, through: 4..<8, delta: 10))
        XCTAssertNil(RangeShift.map(5..<5, through: 4..<8, delta: 0))
    }

    func testEmptyRangeAtTheEditEdges() {
        XCTAssertEqual(RangeShift.map(4..<4, through: 4..<8, delta: 2), 4..<4)
        XCTAssertEqual(RangeShift.map(8..<8, through: 4..<8, delta: 2), 10..<10)
    }
}
