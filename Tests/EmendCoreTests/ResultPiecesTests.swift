import XCTest
@testable import EmendCore

/// A streamed result kept as pieces reads as every piece appended in order, whatever their
/// sizes (one byte at a time, pieces larger than a list entry, empty ones).
final class ResultPiecesTests: XCTestCase {
    func testPiecesReadAsTheTextAppendedInOrder() {
        var rng = SystemRandomNumberGenerator()
        let sizes = [0, 1, 3, 100, ResultPieces.pieceBytes - 1, ResultPieces.pieceBytes, ResultPieces.pieceBytes + 7, 3 * ResultPieces.pieceBytes]
        for _ in 0..<30 {
            var pieces = ResultPieces(), text = ""
            for step in 0..<Int.random(in: 0...40, using: &rng) {
                let size = sizes.randomElement(using: &rng)!
                let piece = String(repeating: step % 2 == 0 ? "é" : "a", count: size / (step % 2 == 0 ? 2 : 1))
                pieces.append(piece)
                text += piece
                XCTAssertEqual(pieces.utf8Count, text.utf8.count)
                XCTAssertEqual(pieces.isEmpty, text.isEmpty)
            }
            XCTAssertEqual(pieces.string, text)
        }
        XCTAssertEqual(ResultPieces("short").string, "short")
    }
}
