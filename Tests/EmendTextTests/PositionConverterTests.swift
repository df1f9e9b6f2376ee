import XCTest
import EmendText

/// PositionConverter on text with a ZWJ emoji sequence, an astral emoji, CJK and a combining mark.
///
/// "a👩‍👩‍👧b😀日本語e\u{301}" — offsets of each scalar boundary:
///
///     scalar        utf8  utf16  codePoint
///     a               0     0      0
///     👩 (1F469)      1     1      1
///     ZWJ             5     3      2
///     👩 (1F469)      8     4      3
///     ZWJ            12     6      4
///     👧 (1F467)     15     7      5
///     b              19     9      6
///     😀 (1F600)     20    10      7
///     日             24    12      8
///     本             27    13      9
///     語             30    14     10
///     e              33    15     11
///     U+0301         34    16     12
///     (end)          36    17     13
final class PositionConverterTests: XCTestCase {
    let text = "a\u{1F469}\u{200D}\u{1F469}\u{200D}\u{1F467}b\u{1F600}日本語e\u{301}"
    /// (utf8, utf16, codePoint) of every scalar boundary, including the end.
    let boundaries: [(Int, Int, Int)] = [
        (0, 0, 0), (1, 1, 1), (5, 3, 2), (8, 4, 3), (12, 6, 4), (15, 7, 5), (19, 9, 6), (20, 10, 7),
        (24, 12, 8), (27, 13, 9), (30, 14, 10), (33, 15, 11), (34, 16, 12), (36, 17, 13),
    ]

    func testLengthInEachEncoding() {
        let converter = PositionConverter(text)
        XCTAssertEqual(converter.length(in: .utf8), 36)
        XCTAssertEqual(converter.length(in: .utf16), 17)
        XCTAssertEqual(converter.length(in: .codePoint), 13)
    }

    func testEveryBoundaryConvertsToUTF8() throws {
        let converter = PositionConverter(text)
        for (utf8, utf16, codePoint) in boundaries {
            XCTAssertEqual(try converter.utf8Offset(utf8, from: .utf8), utf8)
            XCTAssertEqual(try converter.utf8Offset(utf16, from: .utf16), utf8, "utf16 \(utf16)")
            XCTAssertEqual(try converter.utf8Offset(codePoint, from: .codePoint), utf8, "code point \(codePoint)")
        }
    }

    func testEveryBoundaryConvertsFromUTF8() throws {
        let converter = PositionConverter(text)
        for (utf8, utf16, codePoint) in boundaries {
            XCTAssertEqual(try converter.offset(fromUTF8: utf8, to: .utf8), utf8)
            XCTAssertEqual(try converter.offset(fromUTF8: utf8, to: .utf16), utf16, "utf8 \(utf8)")
            XCTAssertEqual(try converter.offset(fromUTF8: utf8, to: .codePoint), codePoint, "utf8 \(utf8)")
        }
    }

    func testRangesRoundTripInEveryEncoding() throws {
        let converter = PositionConverter(text)
        for encoding in PositionEncoding.allCases {
            for i in boundaries.indices {
                for j in i..<boundaries.count {
                    let start = pick(boundaries[i], encoding), end = pick(boundaries[j], encoding)
                    let bytes = try converter.utf8Range(location: start, length: end - start, from: encoding)
                    XCTAssertEqual(bytes, boundaries[i].0..<boundaries[j].0)
                    let back = try converter.range(fromUTF8: bytes, to: encoding)
                    XCTAssertEqual(back.location, start)
                    XCTAssertEqual(back.length, end - start)
                }
            }
        }
    }

    func testRangesSelectTheExpectedText() throws {
        let converter = PositionConverter(text)
        let attributed = AttributedText(text)
        // The family emoji: utf16 1..<9, code points 1..<6.
        XCTAssertEqual(attributed.substring(try converter.utf8Range(location: 1, length: 8, from: .utf16)),
                       "\u{1F469}\u{200D}\u{1F469}\u{200D}\u{1F467}")
        XCTAssertEqual(attributed.substring(try converter.utf8Range(location: 1, length: 5, from: .codePoint)),
                       "\u{1F469}\u{200D}\u{1F469}\u{200D}\u{1F467}")
        // 日本語: utf16 12..<15, code points 8..<11.
        XCTAssertEqual(attributed.substring(try converter.utf8Range(location: 12, length: 3, from: .utf16)), "日本語")
        XCTAssertEqual(attributed.substring(try converter.utf8Range(location: 8, length: 3, from: .codePoint)), "日本語")
        // A combining mark is its own scalar: a range may end between "e" and U+0301.
        XCTAssertEqual(attributed.substring(try converter.utf8Range(location: 11, length: 1, from: .codePoint)), "e")
    }

    func testOffsetInsideAUTF8SequenceSplitsACharacter() {
        let converter = PositionConverter(text)
        for inside in [2, 3, 4, 6, 7, 21, 22, 23, 25, 26, 28, 35] {
            XCTAssertThrowsError(try converter.utf8Offset(inside, from: .utf8)) { error in
                XCTAssertEqual(error as? PositionError, .splitsCharacter(offset: inside))
            }
            XCTAssertThrowsError(try converter.offset(fromUTF8: inside, to: .utf16)) { error in
                XCTAssertEqual(error as? PositionError, .splitsCharacter(offset: inside))
            }
        }
    }

    func testOffsetInsideASurrogatePairSplitsACharacter() {
        let converter = PositionConverter(text)
        // 2 is inside the first 👩, 5 inside the second, 8 inside 👧, 11 inside 😀.
        for inside in [2, 5, 8, 11] {
            XCTAssertThrowsError(try converter.utf8Offset(inside, from: .utf16)) { error in
                XCTAssertEqual(error as? PositionError, .splitsCharacter(offset: inside))
            }
        }
    }

    func testRangeEndingInsideACharacterIsRejected() {
        let converter = PositionConverter(text)
        XCTAssertThrowsError(try converter.utf8Range(location: 0, length: 2, from: .utf8)) { error in
            XCTAssertEqual(error as? PositionError, .splitsCharacter(offset: 2))
        }
        XCTAssertThrowsError(try converter.utf8Range(location: 10, length: 1, from: .utf16)) { error in
            XCTAssertEqual(error as? PositionError, .splitsCharacter(offset: 11))
        }
    }

    func testOutOfBounds() {
        let converter = PositionConverter(text)
        XCTAssertThrowsError(try converter.utf8Offset(37, from: .utf8)) { error in
            XCTAssertEqual(error as? PositionError, .outOfBounds(offset: 37, length: 36))
        }
        XCTAssertThrowsError(try converter.utf8Offset(18, from: .utf16)) { error in
            XCTAssertEqual(error as? PositionError, .outOfBounds(offset: 18, length: 17))
        }
        XCTAssertThrowsError(try converter.utf8Offset(14, from: .codePoint)) { error in
            XCTAssertEqual(error as? PositionError, .outOfBounds(offset: 14, length: 13))
        }
        for encoding in PositionEncoding.allCases {
            XCTAssertThrowsError(try converter.utf8Offset(-1, from: encoding)) { error in
                guard case .outOfBounds(offset: -1, _)? = error as? PositionError else {
                    return XCTFail("expected outOfBounds for -1 in \(encoding), got \(error)")
                }
            }
        }
        XCTAssertThrowsError(try converter.offset(fromUTF8: 40, to: .codePoint)) { error in
            XCTAssertEqual(error as? PositionError, .outOfBounds(offset: 40, length: 36))
        }
    }

    func testRangePastTheEndOrNegativeOrOverflowingIsOutOfBounds() {
        let converter = PositionConverter(text)
        XCTAssertThrowsError(try converter.utf8Range(location: 30, length: 7, from: .utf8)) { error in
            XCTAssertEqual(error as? PositionError, .outOfBounds(offset: 37, length: 36))
        }
        XCTAssertThrowsError(try converter.utf8Range(location: 1, length: -1, from: .utf8)) { error in
            guard case .outOfBounds? = error as? PositionError else { return XCTFail("got \(error)") }
        }
        XCTAssertThrowsError(try converter.utf8Range(location: 5, length: Int.max, from: .utf16)) { error in
            guard case .outOfBounds? = error as? PositionError else { return XCTFail("got \(error)") }
        }
    }

    func testEmptyText() throws {
        let converter = PositionConverter("")
        for encoding in PositionEncoding.allCases {
            XCTAssertEqual(converter.length(in: encoding), 0)
            XCTAssertEqual(try converter.utf8Offset(0, from: encoding), 0)
            XCTAssertThrowsError(try converter.utf8Offset(1, from: encoding))
        }
    }

    private func pick(_ boundary: (Int, Int, Int), _ encoding: PositionEncoding) -> Int {
        switch encoding {
        case .utf8: return boundary.0
        case .utf16: return boundary.1
        case .codePoint: return boundary.2
        }
    }
}
