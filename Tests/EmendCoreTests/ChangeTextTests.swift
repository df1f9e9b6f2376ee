import XCTest
@testable import EmendCore
import EmendText

/// A change of the ledger that grows at its end (a streamed result) keeps its text in pieces
/// (`ChangeText`): nothing held is copied when a part goes in or a restoring piece goes out,
/// and whatever reads the text whole reads what one string would hold.
final class ChangeTextTests: XCTestCase {
    func testPiecesReadAsOneText() {
        var text = ChangeText(AttributedText("Head. "))
        var expected = "Head. "
        let parts = (0..<40).map { String(repeating: "Part \($0) goes on. ", count: 400 + $0 * 37) }
        for part in parts {
            text.append(part)
            expected += part
        }
        XCTAssertTrue(text.isInPieces, "a long text grown at its end is held in pieces")
        XCTAssertEqual(text.utf8Count, expected.utf8.count)
        XCTAssertTrue(text.text.string == expected, "joined, the pieces are the text")
        var forward: [UInt8] = [], backward: [[UInt8]] = []
        text.forEachRun { forward += $0; return true }
        text.forEachRunFromEnd { backward.append(Array($0)); return true }
        XCTAssertEqual(forward, Array(expected.utf8))
        XCTAssertEqual(Array(backward.reversed().joined()), Array(expected.utf8))
        for offset in [0, 5, 6, 70_000, expected.utf8.count - 1] {
            XCTAssertEqual(text.byte(at: offset), Array(expected.utf8)[offset])
        }
        // Taken off the end across pieces, then into the head.
        for count in [3, 65_536, 100_001, 1] {
            text.removeLast(count)
            expected = String(expected.dropLast(count))
            XCTAssertTrue(text.text.string == expected, "\(count) bytes taken off the end")
        }
        text.removeLast(text.utf8Count - 2)
        XCTAssertEqual(text.text.string, "He")
        XCTAssertFalse(text.isInPieces)
    }

    /// A slice (what a merge of a delivery with a long change takes of its start or end) reads
    /// only the pieces it covers and equals the same slice of the joined text, styling too.
    func testASliceEqualsTheJoinedTextsSlice() {
        let headText = "Bold head. "
        var text = ChangeText(AttributedText(headText, attributeRuns: [AttributeRun(range: 0..<4, key: "bold", value: "1")]))
        for index in 0..<12 { text.append(String(repeating: "Piece \(index) é. ", count: 900 + index * 311)) }
        XCTAssertTrue(text.isInPieces)
        let whole = text.text
        let count = text.utf8Count
        let bytes = Array(whole.string.utf8)
        // Character boundaries spread over the head, piece edges and the end.
        let cuts = [0, 2, headText.utf8.count, headText.utf8.count + 1, 65_536, 65_540, 131_072, count - 3, count]
            .map { cut in (cut...count).first { $0 == count || bytes[$0] & 0xC0 != 0x80 }! }
        for lower in cuts {
            for upper in cuts where upper >= lower {
                XCTAssertEqual(text.slice(lower..<upper), whole.slice(lower..<upper), "\(lower)..<\(upper)")
            }
        }
    }

    /// The ledger's one growing change: parts appended at its end, tails taken off again, its
    /// end trimmed where it shares bytes with its base; the ledger reads as if it held strings.
    func testAStreamedChangeGrowsAndShrinksInPlace() {
        let ledger = EditLedger()
        let original = "The text is short. "
        // The first part takes the original sentence's place; it shares "Th" and ". " with it.
        let first = "This goes on. "
        ledger.recordDelivery(0..<original.utf8.count, old: AttributedText(original), new: AttributedText(first))
        XCTAssertEqual(ledger.count, 1)
        XCTAssertEqual(ledger.hunk(0).baseText.string, "e text is short")
        var text = "is goes on"
        for index in 0..<60 {
            let part = String(repeating: "Part \(index) goes on. ", count: 4_000)
            let end = ledger.currentSpan(0).upperBound
            ledger.recordDelivery(end..<end, old: AttributedText(""), new: AttributedText(part))
            text += part
            XCTAssertEqual(ledger.count, 1, "one change")
        }
        var hunk = ledger.hunk(0)
        XCTAssertTrue(hunk.current.isInPieces, "its text is held in pieces")
        // The change's text is what went in; ". " still goes with the next part's start.
        XCTAssertEqual(hunk.textCount, ledger.currentSpan(0).count)
        XCTAssertTrue(hunk.text.string == text, "the change's text is what went in")
        XCTAssertEqual(hunk.baseText.string, "e text is short")
        // A part ending as the base does: the shared end is trimmed off both, in place.
        let end = ledger.currentSpan(0).upperBound
        ledger.recordDelivery(end..<end, old: AttributedText(""), new: AttributedText("and short"))
        hunk = ledger.hunk(0)
        XCTAssertEqual(hunk.baseText.string, "e text is", "the shared end left the base")
        XCTAssertTrue(hunk.text.string == text + "and", "and the change's text")
        XCTAssertEqual(hunk.base, 2..<11)
        text += "and"
        // Restoring pieces from the end: each takes a tail off the change's text; what the
        // text left then shares at its end with the base is trimmed off both.
        while ledger.count == 1, ledger.currentSpan(0).count > RestoringPiece.longest {
            let before = ledger.hunk(0), span = ledger.currentSpan(0)
            let current = Array(before.text.string.utf8)
            let cut = current.count - RestoringPiece.longest
            ledger.recordDelivery((span.lowerBound + cut)..<span.upperBound,
                                  old: AttributedText(String(decoding: current[cut...], as: UTF8.self)), new: AttributedText(""))
            let after = ledger.hunk(0)
            let trimmed = before.baseText.utf8Count - after.baseText.utf8Count
            XCTAssertTrue(before.baseText.string.hasPrefix(after.baseText.string), "the base only loses its end")
            XCTAssertTrue(Array(after.text.string.utf8) == Array(current[..<(cut - trimmed)]), "the text is what it was, its tail off")
            XCTAssertEqual(after.base, before.base.lowerBound..<(before.base.upperBound - trimmed))
        }
        // The last replace puts the base back: nothing is left of the change.
        ledger.recordDelivery(ledger.currentSpan(0), old: ledger.hunk(0).text, new: ledger.hunk(0).baseText)
        XCTAssertTrue(ledger.isEmpty, "the change is gone once its base is back")
    }

    /// A long base put back a piece at a time after the change's text (`RestoringPiece.baseTail`):
    /// the tail both share is trimmed off in place, and the change is the rest of the base.
    func testABaseTailPutBackShortensTheChange() {
        let ledger = EditLedger()
        let original = String(repeating: "Words go on and on. ", count: 40_000)
        let sentence = "The text is short. "
        ledger.recordDelivery(0..<original.utf8.count, old: AttributedText(original), new: AttributedText(sentence))
        var base = Array(ledger.hunk(0).baseText.string.utf8)
        var restored = 0
        while ledger.count == 1, ledger.hunk(0).base.count > RestoringPiece.longest {
            let tail = RestoringPiece.baseTail(count: base.count, avoiding: nil) { base[$0] }
            let end = ledger.currentSpan(0).upperBound
            ledger.recordDelivery(end..<end, old: AttributedText(""),
                                  new: AttributedText(String(decoding: base[tail], as: UTF8.self)))
            restored += tail.count
            let hunk = ledger.hunk(0)
            XCTAssertLessThanOrEqual(hunk.base.count, base.count - tail.count, "the piece left the change's base")
            XCTAssertTrue(Array(hunk.baseText.string.utf8) == Array(base[..<hunk.base.count]), "what is left is the base's start")
            base = Array(hunk.baseText.string.utf8)
        }
        XCTAssertGreaterThan(restored, 8 * RestoringPiece.longest)
        XCTAssertEqual(ledger.count, 1)
    }
}
