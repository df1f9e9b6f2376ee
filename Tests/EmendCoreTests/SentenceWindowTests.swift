import XCTest
@testable import EmendCore

/// Widening to sentences and the paragraphs around a range, read through a window of the
/// text, answer what the whole text answers, for every range of many texts (line breaks,
/// CR LF, blank and whitespace lines, abbreviations, several-byte characters), with windows
/// from tiny (grown many times) to large.
final class SentenceWindowTests: XCTestCase {
    private static let pieces = ["The cat sat.", " ", "Dr. Smith came", " e.g. here", "\n", "\r\n", "\n\n", "  \n", "é", "日本語。", "Why?", "…",
                                 "\u{2029}", "a", "   ", "\t", "\"Yes.\" ", "3.14", "x"]

    func testTheWindowAnswersWhatTheWholeTextAnswers() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        var compared = 0
        for _ in 0..<300 {
            let text = (0..<(1 + next(40))).map { _ in Self.pieces[next(Self.pieces.count)] }.joined()
            let bytes = Array(text.utf8)
            // Character boundaries only (as the coordinator's ranges are).
            let boundaries = text.unicodeScalars.indices.map { text.utf8.distance(from: text.utf8.startIndex, to: $0) } + [bytes.count]
            for _ in 0..<12 {
                let a = boundaries[next(boundaries.count)], b = boundaries[next(boundaries.count)]
                let range = min(a, b)..<max(a, b)
                for window in [1, 5, 16, 4096] {
                    let read = { (r: Range<Int>) in Array(bytes[r]) }
                    let label = "\(range) of \(text.debugDescription), window \(window)"
                    XCTAssertEqual(SentenceSegmenter.expandToSentences(range, length: bytes.count, initialWindow: window, read: read),
                                   SentenceSegmenter.expandToSentences(range, in: text), label)
                    XCTAssertEqual(SentenceSegmenter.surroundingContext(range, length: bytes.count, initialWindow: window, read: read),
                                   SentenceSegmenter.surroundingContext(range, in: text), label)
                    compared += 1
                }
            }
        }
        XCTAssertGreaterThan(compared, 10_000)
    }

    func testASmallRangeOfALargeTextReadsAWindowAroundIt() {
        let paragraph = "One sentence here. Another one there.\n\n"
        let text = String(repeating: paragraph, count: 20_000)
        let bytes = Array(text.utf8)
        var read = 0
        let middle = 10_000 * paragraph.utf8.count + 3
        let range = middle..<(middle + 5)
        let widened = SentenceSegmenter.expandToSentences(range, length: bytes.count) { read += $0.count; return Array(bytes[$0]) }
        XCTAssertEqual(widened, SentenceSegmenter.expandToSentences(range, in: text))
        let around = SentenceSegmenter.surroundingContext(range, length: bytes.count) { read += $0.count; return Array(bytes[$0]) }
        XCTAssertEqual(around, SentenceSegmenter.surroundingContext(range, in: text))
        XCTAssertLessThan(read, 100_000, "a window around the range, not the \(bytes.count) bytes")
    }
}
