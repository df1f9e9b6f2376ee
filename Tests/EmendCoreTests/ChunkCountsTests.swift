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

    /// Counting eight bytes a step gives what counting each character gives, wherever the
    /// range starts and ends (words of ASCII, of several-byte characters, and mixed).
    func testTallyIsTheCountOfEachCharacter() {
        var rng = SplitMix64(seed: 16)
        let pieces = ["a", "bcdefghij", "é", "😀", "漢", "\u{7FF}", "\u{800}", "\u{FFFF}", "\u{10000}", " ", "\u{10FFFF}"]
        for round in 0..<300 {
            // Up to about 9 KB: many 32-byte steps, and more than the 63 summed at a time.
            let text = (0..<(round % 90 + (round % 7 == 0 ? 2_000 : 0))).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }.joined()
            let scalars = Array(text.unicodeScalars)
            let lower = scalars.isEmpty ? 0 : Int(rng.next() % UInt64(scalars.count + 1))
            let upper = lower + Int(rng.next() % UInt64(scalars.count - lower + 1))
            let byteLower = scalars[..<lower].reduce(0) { $0 + UTF8.width($1) }
            let byteUpper = byteLower + scalars[lower..<upper].reduce(0) { $0 + UTF8.width($1) }
            let part = scalars[lower..<upper]
            let expected = ChunkCounts.Tally(units: part.reduce(0) { $0 + UTF16.width($1) }, scalars: part.count)
            var copy = text
            let got = copy.withUTF8 { ChunkCounts.tally($0, byteLower..<byteUpper) }
            XCTAssertEqual(got, expected, "round \(round): \(byteLower)..<\(byteUpper) of \(text.debugDescription)")
            XCTAssertEqual(ChunkCounts.tally(of: text), ChunkCounts.Tally(units: text.utf16.count, scalars: scalars.count))
        }
    }

    /// The counts of the original, made on the thread that builds the rope, come in after the
    /// engine reported edits (they were made before them): those edits are replayed into them,
    /// and every conversion after is the scan's. Counts already made here (a call needed them
    /// first) are kept, and edits after go into them.
    func testCountsOfTheOriginalTakeTheEditsRecordedMeanwhile() {
        var rng = SplitMix64(seed: 61)
        let pieces = ["", "a", "é", "😀", "ab c", "ü😀x", "\n", "漢字"]
        for round in 0..<60 {
            let start = (0..<(3 + round % 7)).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }.joined()
            let chunk = 1 + round % 5
            let pending = TextBeingBuilt(AttributedText(start), chunk: chunk)
            let elsewhere = ChunkCounts(of: start, chunk: chunk)
            var trace = ["round \(round): \(start.debugDescription)"]
            let before = round % 3 == 2 ? 0 : 1 + round % 6
            func edit() {
                let scalars = Array(pending.current.string.unicodeScalars)
                let lower = Int(rng.next() % UInt64(scalars.count + 1))
                let upper = min(scalars.count, lower + Int(rng.next() % 4))
                let byteLower = scalars[..<lower].reduce(0) { $0 + UTF8.width($1) }
                let byteUpper = byteLower + scalars[lower..<upper].reduce(0) { $0 + UTF8.width($1) }
                let replacement = pieces[Int(rng.next() % UInt64(pieces.count))]
                trace.append("\(byteLower)..<\(byteUpper) -> \(replacement.debugDescription)")
                _ = pending.record(byteLower..<byteUpper, replacement)
            }
            for _ in 0..<before { edit() }
            XCTAssertFalse(pending.hasCounts, "nothing asked for the counts yet")
            pending.take(countsOfOriginal: elsewhere)
            XCTAssertTrue(pending.hasCounts)
            assertSameAsScan(pending, trace.joined(separator: "\n"))
            for _ in 0..<4 {
                edit()
                assertSameAsScan(pending, trace.joined(separator: "\n"))
            }
            // Counts that come in late (these were made here first) change nothing.
            pending.take(countsOfOriginal: elsewhere)
            trace.append("late counts of the original")
            assertSameAsScan(pending, trace.joined(separator: "\n"))
            if testRun?.failureCount ?? 0 > 0 { break }
        }
    }

    /// A place said by a mapping (a chunk's work, no copy of the text) reads as the place said
    /// from the whole text, in every encoding, for positions and for offsets that are none.
    func testAPlaceSaidByAMappingIsThePlaceSaidFromTheText() {
        let text = "😀 Café: see you tomorow. 漢字 ü😀x"
        let bytes = text.utf8.count
        for positions in [BuildingPositions(counting: text) as any PositionMapping, RopePositions(TextRope(text))] {
            for lower in 0...(bytes + 1) {
                for upper in [lower, lower + 1, lower + 3] {
                    let kind: TextPlace.Kind = upper == lower ? .offset : .range
                    let fromText = TextPlace(kind, lower..<upper, in: text)
                    let fromMapping = TextPlace(kind, lower..<upper, positions: positions)
                    for encoding in PositionEncoding.allCases {
                        XCTAssertEqual(fromMapping.description(in: encoding), fromText.description(in: encoding),
                                       "\(kind) \(lower)..<\(upper) in \(encoding)")
                    }
                }
            }
        }
    }
}
