import XCTest
@testable import EmendLSP

final class JSONTests: XCTestCase {
    func parse(_ text: String) throws -> JSON { try JSONParser.parse(Array(text.utf8)) }

    func testRoundTripKeepsIntegersStringsAndNesting() throws {
        let text = #"{"a":[1,-2,3.5,true,false,null],"b":{"c":"line\nbreak \"q\" \\ é 😀"},"id":9007199254740993}"#
        let value = try parse(text)
        XCTAssertEqual(value["id"], .int(9007199254740993), "ids beyond 2^53 stay exact")
        XCTAssertEqual(value["b"]?["c"]?.string, "line\nbreak \"q\" \\ é 😀")
        XCTAssertEqual(try JSONParser.parse(JSONWriter.bytes(value)), value)
    }

    func testUnicodeEscapesJoinSurrogatePairs() throws {
        XCTAssertEqual(try parse(#""\ud83d\ude00 \u00e9""#).string, "😀 é")
        XCTAssertThrowsError(try parse(#""\ud83d x""#), "a lone high surrogate is no character")
        XCTAssertThrowsError(try parse(#""\ude00""#))
    }

    func testBrokenInputSaysWhere() {
        for (text, offset) in [("{\"a\":}", 5), ("[1,2", 4), ("{\"a\" 1}", 5), ("tru", 0), ("\"abc", 4), ("[1] x", 4)] {
            XCTAssertThrowsError(try parse(text), text) { error in
                XCTAssertEqual((error as? JSONParseError)?.offset, offset, text)
            }
        }
    }

    func testInvalidUTF8InAStringIsAnError() {
        let bytes: [UInt8] = Array("\"ab".utf8) + [0xFF] + Array("\"".utf8)
        XCTAssertThrowsError(try JSONParser.parse(bytes)) { error in
            XCTAssertEqual((error as? JSONParseError)?.offset, 1)
        }
    }

    func testDeepNestingIsRefusedNotACrash() {
        let text = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        XCTAssertThrowsError(try parse(text))
    }

    func testControlCharactersAreEscapedOnOutput() {
        XCTAssertEqual(JSONWriter.string(.string("a\u{01}b\tc")), #""a\u0001b\tc""#)
    }
}
