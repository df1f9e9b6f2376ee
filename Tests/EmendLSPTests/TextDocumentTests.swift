import XCTest
import EmendText
@testable import EmendLSP

final class TextDocumentTests: XCTestCase {
    // "a😀b" then "é": 😀 is 4 UTF-8 bytes, 2 UTF-16 units, 1 code point.
    let document = TextDocument(uri: "file:///x", languageID: "plaintext", version: 1, text: Array("first\na😀b tomorow\r\né\n".utf8))

    func testPositionsAfterAnEmojiInEachEncoding() throws {
        let offset = Array("first\na😀b ".utf8).count
        XCTAssertEqual(document.position(of: offset, encoding: .utf8), LSPPosition(line: 1, character: 7))
        XCTAssertEqual(document.position(of: offset, encoding: .utf16), LSPPosition(line: 1, character: 5))
        XCTAssertEqual(document.position(of: offset, encoding: .codePoint), LSPPosition(line: 1, character: 4))
        for (encoding, character) in [(PositionEncoding.utf8, 7), (.utf16, 5), (.codePoint, 4)] {
            XCTAssertEqual(try document.offset(of: LSPPosition(line: 1, character: character), encoding: encoding), offset)
        }
    }

    func testInsideACharacterIsAnErrorPastTheLineIsItsEnd() throws {
        XCTAssertThrowsError(try document.offset(of: LSPPosition(line: 1, character: 2), encoding: .utf16)) { error in
            XCTAssertEqual((error as? ResponseError)?.code, ResponseError.invalidParamsCode)
        }
        XCTAssertThrowsError(try document.offset(of: LSPPosition(line: 1, character: 3), encoding: .utf8))
        // "\r\n" ends line 1: character 99 is the end of its content, before the "\r".
        XCTAssertEqual(try document.offset(of: LSPPosition(line: 1, character: 99), encoding: .utf16),
                       Array("first\na😀b tomorow".utf8).count)
        XCTAssertThrowsError(try document.offset(of: LSPPosition(line: 9, character: 0), encoding: .utf16))
        XCTAssertEqual(try document.offset(of: LSPPosition(line: 3, character: 0), encoding: .utf16), document.bytes.count)
    }

    func testLineIndexFollowsEditsLikeARescan() {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["a", "\n", "\r", "\r\n", "é", "😀", " ", "\n\n"]
        var doc = TextDocument(uri: "u", languageID: "", version: 0, text: Array("one\ntwo\r\nthree\rfour".utf8))
        for _ in 0..<2000 {
            let count = doc.bytes.count
            var lower = Int.random(in: 0...count, using: &generator)
            var upper = min(count, lower + Int.random(in: 0...4, using: &generator))
            // Whole characters only.
            while lower > 0 && lower < count && doc.bytes[lower] & 0xC0 == 0x80 { lower -= 1 }
            while upper < count && doc.bytes[upper] & 0xC0 == 0x80 { upper += 1 }
            let insert = (0..<Int.random(in: 0...3, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            doc.replace(lower..<upper, with: Array(insert.utf8))
            XCTAssertEqual(doc.lines, LineIndex(doc.bytes), "after replacing \(lower)..<\(upper) with \(insert.debugDescription)")
            if doc.lines != LineIndex(doc.bytes) { return }
        }
    }
}
