import XCTest
@testable import EmendCore
import EmendText

/// The engine's text while its rope is built is kept as the original and the pieces the edits
/// inserted (`PieceText`): every read, in one piece or across several, and the whole text,
/// must be what one string edited the same way holds.
final class PieceTextTests: XCTestCase {
    func testReadsAreThoseOfAStringEditedTheSameWay() {
        var rng = SplitMix64(seed: 5)
        let pieces = ["", "a", "é", "😀", "ab c", "ü😀x", "\n", "漢字", "longer piece of text "]
        for round in 0..<200 {
            let start = (0..<(round % 12)).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }.joined()
            var model = Array(start.utf8)
            var text = PieceText(start)
            for step in 0..<(1 + round % 25) {
                // On character boundaries, as the coordinator checks an edit.
                let boundaries = (0...model.count).filter { $0 == model.count || model[$0] & 0xC0 != 0x80 }
                let first = Int(rng.next() % UInt64(boundaries.count))
                let lower = boundaries[first], upper = boundaries[min(boundaries.count - 1, first + Int(rng.next() % 5))]
                let replacement = pieces[Int(rng.next() % UInt64(pieces.count))]
                text.replace(lower..<upper, with: replacement)
                model.replaceSubrange(lower..<upper, with: Array(replacement.utf8))
                XCTAssertEqual(text.utf8Count, model.count, "round \(round) step \(step)")
                XCTAssertEqual(Array(text.string.utf8), model, "round \(round) step \(step)")
                for _ in 0..<6 {
                    let from = Int(rng.next() % UInt64(model.count + 1))
                    let to = from + Int(rng.next() % UInt64(model.count - from + 1))
                    XCTAssertEqual(text.withBytes(from..<to) { Array($0) }, Array(model[from..<to]), "round \(round) step \(step): \(from)..<\(to)")
                }
            }
            if testRun?.failureCount ?? 0 > 0 { break }
        }
    }

    /// A context being built keeps its text so: the getter of the whole text gives the original
    /// with the engine's edits (styling following them as in the built context), and only
    /// edits that change something are kept.
    func testTheTextBeingBuiltIsTheOriginalWithTheEnginesEdits() {
        let original = AttributedText("Hello wörld, and more.", attributeRuns: [AttributeRun(range: 6..<12, key: "b", value: "1")])
        let pending = TextBeingBuilt(original)
        XCTAssertFalse(pending.record(0..<5, "Hello"), "no change, no edit")
        XCTAssertTrue(pending.record(0..<5, "Hi"))
        XCTAssertEqual(pending.current.string, "Hi wörld, and more.")
        XCTAssertTrue(pending.record(pending.utf8Count..<pending.utf8Count, " End."))
        XCTAssertTrue(pending.record(3..<3, "big "))
        var expected = original
        expected.replace(0..<5, with: "Hi")
        expected.replace(expected.utf8Count..<expected.utf8Count, with: " End.")
        expected.replace(3..<3, with: "big ")
        XCTAssertEqual(pending.current, expected)
        XCTAssertEqual(pending.utf8Count, expected.utf8Count)
        XCTAssertEqual(pending.edits.count, 3)
        XCTAssertEqual(original.string, "Hello wörld, and more.", "the original is left as it came")
    }
}
