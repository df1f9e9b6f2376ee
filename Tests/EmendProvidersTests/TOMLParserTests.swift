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

    /// A hostile or broken file is an error with its reason, never a stack overflow: 100,000
    /// nested arrays, a key of too many parts, a file over the size limit.
    func testLimitsAreErrorsNotCrashes() {
        let nested = "x = " + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let deepKey = (0...TOMLParser.maximumDepth).map { "k\($0)" }.joined(separator: ".") + " = 1"
        let cases: [(String, String)] = [
            (nested, ":1: arrays nested more than \(TOMLParser.maximumDepth) deep"),
            ("[" + (0...TOMLParser.maximumDepth).map { "t\($0)" }.joined(separator: ".") + "]", ":1: a key of more than"),
            (deepKey, ":1: a key of more than \(TOMLParser.maximumDepth) parts"),
            ("# " + String(repeating: "x", count: TOMLParser.maximumBytes), "more than the \(TOMLParser.maximumBytes) a TOML file may have"),
        ]
        for (text, expected) in cases {
            XCTAssertThrowsError(try TOMLParser.parse(text, source: "config.toml")) { error in
                let error = error as! EmendError
                XCTAssertEqual(error.status, .invalidArgument)
                XCTAssertTrue(error.message.contains(expected), "\(error.message.prefix(200)) lacks \(expected)")
            }
        }
        // Arrays as deep as allowed still parse.
        let deepest = "x = " + String(repeating: "[", count: TOMLParser.maximumDepth) + "1" + String(repeating: "]", count: TOMLParser.maximumDepth)
        XCTAssertNoThrow(try TOMLParser.parse(deepest))
    }

    /// 20,000 provider tables (and a key in each) all arrive, in order (the tables are
    /// changed in place, never copied per line: benchmarks/swift measures the time).
    func testTwentyThousandTablesKeepTheirKeysAndOrder() throws {
        let text = (0..<20_000).map { "[providers.\"org.example.p\($0)\"]\nvalue = \($0)\n" }.joined()
        let providers = try XCTUnwrap(try TOMLParser.parse(text)["providers"]?.table)
        XCTAssertEqual(providers.keys.count, 20_000)
        XCTAssertEqual(providers.keys.first, "org.example.p0")
        XCTAssertEqual(providers.keys.last, "org.example.p19999")
        XCTAssertEqual(providers["org.example.p12345"]?.table?["value"], .integer(12345))
    }
}
