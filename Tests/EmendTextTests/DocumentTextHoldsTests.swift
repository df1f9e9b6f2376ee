import XCTest
@testable import EmendText

/// `holds(_:at:)` compares a range with a string in place, chunk by chunk of the rope: it
/// must say what `substring(range) == text` says for byte-equal texts, across chunk edges.
final class DocumentTextHoldsTests: XCTestCase {
    func testHoldsComparesAcrossChunksInPlace() {
        let words = (0..<2_000).map { "w\($0)é " }.joined()
        let text = DocumentText(AttributedText(words))
        XCTAssertGreaterThan(text.utf8Count, 4 * TextRope.maximumChunk, "spans several chunks")
        let bytes = Array(words.utf8)
        for range in [0..<0, 0..<7, 100..<5_000, 2_000..<text.utf8Count, 0..<text.utf8Count] {
            let expected = String(decoding: bytes[range], as: UTF8.self)
            XCTAssertTrue(text.holds(expected, at: range), "\(range)")
            XCTAssertEqual(text.holds(expected, at: range), text.substring(range) == expected)
        }
        // One byte different near the end of a long range, in a later chunk.
        var changed = bytes[100..<5_000]
        changed[4_990] = UInt8(ascii: "x")
        XCTAssertFalse(text.holds(String(decoding: changed, as: UTF8.self), at: 100..<5_000))
        // Another length, or past the end.
        XCTAssertFalse(text.holds("w0é", at: 0..<3))
        XCTAssertFalse(text.holds("x", at: text.utf8Count..<(text.utf8Count + 1)))
        XCTAssertTrue(text.holds("", at: 7..<7))
    }
}
