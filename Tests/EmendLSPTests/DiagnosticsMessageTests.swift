import XCTest
import EmendText
@testable import EmendLSP

final class DiagnosticsMessageTests: XCTestCase {
    func testTheCursorAgreesWithPositionsCountedFromTheLineStart() {
        let text = "a😀b\r\nCafé tomorow 🎉🎉 x\n\nlast line é"
        let document = TextDocument(uri: "u", languageID: "", version: 1, text: Array(text.utf8))
        let boundaries = (0...document.bytes.count).filter { $0 == document.bytes.count || document.bytes[$0] & 0xC0 != 0x80 }
        for encoding in PositionEncoding.allCases {
            var cursor = PositionCursor(document: document, encoding: encoding)
            // In order, and out of order (overlapping findings go back).
            for offset in boundaries + boundaries.reversed() {
                XCTAssertEqual(cursor.position(of: offset), document.position(of: offset, encoding: encoding), "\(encoding) \(offset)")
            }
        }
    }

    func testTheEncodedMessageIsTheSameJSONTheServerWouldBuild() throws {
        let text = "We meet tomorow 😀.\nThey \"could\" of."
        let document = TextDocument(uri: "file:///a b.txt", languageID: "", version: 12, text: Array(text.utf8))
        let findings = [
            PlacedFinding(range: 8..<15, finding: UnitFinding(range: 8..<15, original: "tomorow", replacement: "tomorrow",
                                                              explanation: "", category: "spelling", ruleID: "SPELLING")),
            PlacedFinding(range: 27..<37, finding: UnitFinding(range: 0..<10, original: "\"could\" of", replacement: "could have",
                                                               explanation: "Use “could have”.\n", category: "grammar", ruleID: "")),
        ]
        let bytes = DiagnosticsMessage.encode(uri: document.uri, version: 12, findings: findings, document: document,
                                              encoding: .utf16, severity: { $0 == "spelling" ? 1 : 2 })
        let message = try JSONParser.parse(bytes)
        let diagnostics = try XCTUnwrap(message["params"]?["diagnostics"]?.array)
        XCTAssertEqual(message["params"]?["uri"], "file:///a b.txt")
        XCTAssertEqual(message["params"]?["version"], 12)
        XCTAssertEqual(diagnostics[0], ["range": ["start": ["line": 0, "character": 8], "end": ["line": 0, "character": 15]],
                                        "severity": 1, "code": "SPELLING", "source": "emend",
                                        "message": "Replace “tomorow” with “tomorrow”.",
                                        "data": ["replacement": "tomorrow", "category": "spelling"]])
        XCTAssertNil(diagnostics[1]["code"], "no rule id, no code")
        XCTAssertEqual(diagnostics[1]["message"], "Use “could have”.\n")
        XCTAssertEqual(diagnostics[1]["range"], ["start": ["line": 1, "character": 5], "end": ["line": 1, "character": 15]])
        XCTAssertEqual(DiagnosticsMessage.encode(uri: "u", version: 0, findings: [], document: document, encoding: .utf8,
                                                 severity: { _ in 1 }),
                       Array(#"{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"diagnostics":[],"uri":"u","version":0}}"#.utf8))
    }

    /// A publish joins each unit's kept diagnostics (`DiagnosticsFragment`); units without
    /// any give empty runs, which must not leave stray commas.
    func testAMessageJoinedFromUnitRunsIsTheSameAsOneEncodedWhole() throws {
        let text = "One tomorow.\n\nNothing here.\n\nTwo teh wierd."
        let document = TextDocument(uri: "u", languageID: "", version: 3, text: Array(text.utf8))
        func finding(_ range: Range<Int>, _ original: String, _ replacement: String) -> PlacedFinding {
            PlacedFinding(range: range, finding: UnitFinding(range: range, original: original, replacement: replacement,
                                                             explanation: "", category: "spelling", ruleID: "S"))
        }
        let all = [finding(4..<11, "tomorow", "tomorrow"), finding(33..<36, "teh", "the"), finding(37..<42, "wierd", "weird")]
        let whole = DiagnosticsMessage.encode(uri: "u", version: 3, findings: all, document: document, encoding: .utf16, severity: { _ in 2 })
        func run(_ placed: [PlacedFinding]) -> [UInt8] {
            var bytes: [UInt8] = []
            for item in placed {
                if !bytes.isEmpty { bytes.append(UInt8(ascii: ",")) }
                DiagnosticsMessage.writeDiagnostic(item.finding, start: document.position(of: item.range.lowerBound, encoding: .utf16),
                                                   end: document.position(of: item.range.upperBound, encoding: .utf16), severity: 2, into: &bytes)
            }
            return bytes
        }
        let joined = DiagnosticsMessage.message(uri: "u", version: 3, diagnostics: [[], run([all[0]]), [], run(Array(all[1...])), []])
        XCTAssertEqual(joined, whole)
        XCTAssertEqual(try JSONParser.parse(joined)["params"]?["diagnostics"]?.array?.count, 3)
    }

    func testIntegersAreWrittenInDecimal() {
        for value in [0, 7, 10, 99, 100, 12345, Int(Int32.max), Int.max] {
            var out: [UInt8] = []
            DiagnosticsMessage.writeInteger(value, into: &out)
            XCTAssertEqual(String(decoding: out, as: UTF8.self), String(value))
        }
    }
}
