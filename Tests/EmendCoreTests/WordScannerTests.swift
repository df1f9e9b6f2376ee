import XCTest
@testable import EmendCore

/// The fixture's word scanner reads bytes: ASCII by its byte, anything else by its scalar,
/// with combining marks kept in the word they follow (as Characters would have it).
final class WordScannerTests: XCTestCase {
    private func words(_ text: String) -> [String] { WordScanner.words(in: text).map(\.text) }

    func testWordsDigitsAndApostrophes() {
        XCTAssertEqual(words("Don't stop, 42 dogs' bones—'quoted' x2"), ["Don't", "stop", "42", "dogs", "bones", "quoted", "x2"])
    }

    func testNonASCIILettersAndCombiningMarks() {
        let decomposed = "cafe\u{301} na\u{EF}ve"   // é as e + U+0301, ï precomposed
        XCTAssertEqual(words(decomposed), ["cafe\u{301}", "na\u{EF}ve"])
        XCTAssertEqual(words("Ελληνικά и русский 日本語"), ["Ελληνικά", "и", "русский", "日本語"])
        // Symbols and emoji are no words; a mark after a space starts none.
        XCTAssertEqual(words("a 😀 \u{301}b ½"), ["a", "b", "½"])
    }

    func testRangesAreUTF8Bytes() {
        let text = "é teh"
        let found = WordScanner.words(in: text)
        XCTAssertEqual(found.map(\.range), [0..<2, 3..<6])
    }
}
