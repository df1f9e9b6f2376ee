import XCTest
@testable import EmendCore
import EmendText

/// While a context's rope is built, offsets are converted by chunk counts (`ChunkCounts`)
/// kept through the engine's edits: every conversion, and every error, must be what a scan
/// of the whole text from its start gives (`PositionConverter`).
final class ChunkCountsTests: XCTestCase {
    private typealias Answer = Result<Range<Int>, PositionError>
    private typealias Back = Result<[Int], PositionError>

    private func assertSameAsScan(_ pending: TextBeingBuilt, _ trace: @autoclosure () -> String) {
        let text = pending.current.string
        let scan = PositionConverter(text)
        let chunks = pending.positions
        for encoding in [PositionEncoding.utf8, .utf16, .codePoint] {
            let length = scan.length(in: encoding)
            for location in -1...(length + 1) {
                for span in [0, 1, 2] {
                    let expected = Answer { () throws(PositionError) in try scan.utf8Range(location: location, length: span, from: encoding) }
                    let got = Answer { () throws(PositionError) in try chunks.utf8Range(location: location, length: span, from: encoding) }
                    XCTAssertEqual(got, expected, "\(encoding) \(location)+\(span) in \(text.debugDescription): \(trace())")
                }
            }
            let bytes = text.utf8.count
            for start in -1...(bytes + 1) {
                let range = max(0, start)..<max(0, min(bytes + 1, start + 1))
                let expected = Back { () throws(PositionError) in let r = try scan.range(fromUTF8: range, to: encoding); return [r.location, r.length] }
                let got = Back { () throws(PositionError) in let r = try chunks.range(fromUTF8: range, to: encoding); return [r.location, r.length] }
                XCTAssertEqual(got, expected, "\(encoding) from UTF-8 \(range) in \(text.debugDescription): \(trace())")
            }
        }
    }

    func testConversionsThroughEditsAreTheScansOfTheWholeText() {
        var rng = SplitMix64(seed: 27)
        let pieces = ["", "a", "é", "😀", "ab c", "ü😀x", "\n", "漢字"]
        for round in 0..<60 {
            let start = (0..<(3 + round % 7)).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }.joined()
            let pending = TextBeingBuilt(AttributedText(start), chunk: 1 + round % 5)
            var trace = ["round \(round): \(start.debugDescription)"]
            assertSameAsScan(pending, trace.joined(separator: "\n"))
            for _ in 0..<12 {
                // An edit on character boundaries (as the coordinator checks them).
                let scalars = Array(pending.current.string.unicodeScalars)
                let lower = Int(rng.next() % UInt64(scalars.count + 1))
                let upper = min(scalars.count, lower + Int(rng.next() % 4))
                let byteLower = scalars[..<lower].reduce(0) { $0 + UTF8.width($1) }
                let byteUpper = byteLower + scalars[lower..<upper].reduce(0) { $0 + UTF8.width($1) }
                let replacement = pieces[Int(rng.next() % UInt64(pieces.count))]
                trace.append("\(byteLower)..<\(byteUpper) -> \(replacement.debugDescription)")
                _ = pending.record(byteLower..<byteUpper, replacement)
                assertSameAsScan(pending, trace.joined(separator: "\n"))
            }
            if testRun?.failureCount ?? 0 > 0 { break }
        }
    }
}
