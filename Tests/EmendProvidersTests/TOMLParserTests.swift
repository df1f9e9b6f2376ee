import XCTest
import EmendCore
@testable import EmendProviders

final class TOMLParserTests: XCTestCase {
    func testTablesKeysAndValues() throws {
        let doc = try TOMLParser.parse("""
        # Emend configuration
        network = false

        [tools]
        proofread = ["org.example.speller", "org.emend.fixture"]   # in this order

        [providers."org.example.speller"]
        dictionary = 'en_US'
        max-suggestions = 5
        threshold = 0.75
        escaped = "tab\\tquote\\" \\u00e9"
        list = [
          1,
          2,
        ]
        """)
        XCTAssertEqual(doc["network"], .boolean(false))
        XCTAssertEqual(doc.table(at: ["tools"])?["proofread"], .array([.string("org.example.speller"), .string("org.emend.fixture")]))
        let speller = try XCTUnwrap(doc.table(at: ["providers", "org.example.speller"]))
        XCTAssertEqual(speller.keys, ["dictionary", "max-suggestions", "threshold", "escaped", "list"])
        XCTAssertEqual(speller["dictionary"]?.string, "en_US")
        XCTAssertEqual(speller["max-suggestions"]?.integer, 5)
        XCTAssertEqual(speller["threshold"]?.float, 0.75)
        XCTAssertEqual(speller["escaped"]?.string, "tab\tquote\" é")
        XCTAssertEqual(speller["list"], .array([.integer(1), .integer(2)]))
    }

    func testErrorsNameTheLine() {
        let cases: [(String, String)] = [
            ("a = 1\nb = {x = 1}", ":2: inline tables"),
            ("a = 1\na = 2", ":2: key a is defined twice"),
            ("[t]\n[t]", ":2: table [t] is defined twice"),
            ("name = hello", ":1: \"hello\" is not a value"),
            ("s = \"open", ":1: unterminated string"),
            ("[[x]]", ":1: arrays of tables"),
            ("a = 1 2", ":1: unexpected text"),
        ]
        for (text, expected) in cases {
            XCTAssertThrowsError(try TOMLParser.parse(text, source: "config.toml"), text) { error in
                let error = error as! EmendError
                XCTAssertEqual(error.status, .invalidArgument)
                XCTAssertTrue(error.message.hasPrefix("config.toml"), error.message)
                XCTAssertTrue(error.message.contains(expected), "\(error.message) lacks \(expected)")
            }
        }
    }
}
