import XCTest
import EmendText

/// UTF8Validation reports the offset of the first byte that does not begin valid UTF-8.
final class UTF8ValidationTests: XCTestCase {
    private func offset(_ bytes: [UInt8]) -> Int? { UTF8Validation.firstInvalidOffset(in: bytes) }

    func testValidTextHasNoInvalidOffset() {
        XCTAssertNil(offset([]))
        XCTAssertNil(offset(Array("plain ascii".utf8)))
        XCTAssertNil(offset(Array("héllo 日本語 😀 \u{1F469}\u{200D}\u{1F467} e\u{301} \u{FFFC}".utf8)))
        // The edges of each sequence length.
        XCTAssertNil(offset([0x7F, 0xC2, 0x80, 0xDF, 0xBF]))                // U+007F, U+0080, U+07FF
        XCTAssertNil(offset([0xE0, 0xA0, 0x80, 0xED, 0x9F, 0xBF]))          // U+0800, U+D7FF
        XCTAssertNil(offset([0xEE, 0x80, 0x80, 0xEF, 0xBF, 0xBF]))          // U+E000, U+FFFF
        XCTAssertNil(offset([0xF0, 0x90, 0x80, 0x80, 0xF4, 0x8F, 0xBF, 0xBF])) // U+10000, U+10FFFF
    }

    func testOverlongFormsAreInvalid() {
        XCTAssertEqual(offset([0x41, 0xC0, 0xAF]), 1)                // "/" in two bytes
        XCTAssertEqual(offset([0x41, 0x42, 0xC1, 0xBF]), 2)
        XCTAssertEqual(offset(Array("ok".utf8) + [0xE0, 0x80, 0xAF]), 2)  // three bytes
        XCTAssertEqual(offset([0xE0, 0x9F, 0xBF]), 0)                // U+07FF in three bytes
        XCTAssertEqual(offset(Array("日".utf8) + [0xF0, 0x8F, 0xBF, 0xBF]), 3) // U+FFFF in four bytes
    }

    func testSurrogatesAreInvalid() {
        XCTAssertEqual(offset(Array("ab".utf8) + [0xED, 0xA0, 0x80]), 2)   // U+D800
        XCTAssertEqual(offset([0xED, 0xBF, 0xBF]), 0)                      // U+DFFF
        // A CESU-8 style pair (high + low surrogate) is two invalid sequences.
        XCTAssertEqual(offset(Array("😀".utf8) + [0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80]), 4)
    }

    func testTruncatedSequencesAreInvalid() {
        XCTAssertEqual(offset(Array("ab".utf8) + [0xE6, 0x97]), 2)             // 日 without its last byte
        XCTAssertEqual(offset(Array("x".utf8) + [0xF0, 0x9F, 0x98]), 1)        // 😀 without its last byte
        XCTAssertEqual(offset([0xC3]), 0)
        // A truncated sequence followed by more text: the lead byte is the bad one.
        XCTAssertEqual(offset(Array("ab".utf8) + [0xE6, 0x97] + Array("cd".utf8)), 2)
    }

    func testStrayAndImpossibleBytesAreInvalid() {
        XCTAssertEqual(offset(Array("abc".utf8) + [0x80]), 3)                  // lone continuation byte
        XCTAssertEqual(offset([0x41, 0xFF]), 1)
        XCTAssertEqual(offset([0xFE]), 0)
        XCTAssertEqual(offset([0xF5, 0x80, 0x80, 0x80]), 0)                    // lead byte past U+10FFFF
        XCTAssertEqual(offset([0xF4, 0x90, 0x80, 0x80]), 0)                    // U+110000
    }

    func testOnlyTheFirstInvalidOffsetIsReported() {
        XCTAssertEqual(offset(Array("é".utf8) + [0x80] + Array("ok".utf8) + [0xFF]), 2)
    }

    func testOffsetsAreRelativeToASlice() {
        let bytes: [UInt8] = Array("zzzz".utf8) + Array("ab".utf8) + [0xC0, 0x80]
        let slice = bytes[4...]
        XCTAssertEqual(UTF8Validation.firstInvalidOffset(in: slice), 2)
        XCTAssertNil(UTF8Validation.firstInvalidOffset(in: bytes[0..<6]))
    }

    func testDecodeReturnsTheStringOrTheOffset() {
        XCTAssertEqual(try UTF8Validation.decode(Array("日本語 😀".utf8)).get(), "日本語 😀")
        switch UTF8Validation.decode(Array("日本".utf8) + [0xED, 0xA0, 0x80]) {
        case .success(let text): XCTFail("decoded invalid UTF-8 as \(text.debugDescription)")
        case .failure(let error): XCTAssertEqual(error, InvalidUTF8(byteOffset: 6))
        }
    }
}
