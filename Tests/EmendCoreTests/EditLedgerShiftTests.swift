import XCTest
@testable import EmendCore
import EmendText

/// The ledger keeps the engine's moves of its changes' bases per block of changes
/// (`EditLedger.blockShift`) instead of writing each into every later change. A ledger of
/// blocks of two or three changes must answer every query exactly as one whose single block
/// holds every change (each move written into each change: the computation before blocks),
/// through random deliveries and engine edits, with moves left pending between queries.
final class EditLedgerShiftTests: XCTestCase {
    /// One text, edited alike through two ledgers.
    private struct Pair {
        var current: AttributedText
        let blocked: EditLedger
        let whole = EditLedger(blockSize: 1 << 40)

        init(_ text: String, blockSize: Int) {
            current = AttributedText(text)
            blocked = EditLedger(blockSize: blockSize)
        }

        var ledgers: [EditLedger] { [blocked, whole] }

        mutating func deliver(_ range: Range<Int>, _ text: String) {
            let old = current.slice(range)
            current.replace(range, with: text)
            let new = current.slice(range.lowerBound..<(range.lowerBound + text.utf8.count))
            for ledger in ledgers { ledger.recordDelivery(range, old: old, new: new, current: current) }
        }

        mutating func type(_ range: Range<Int>, _ text: String, changes: [Range<Int>]) -> [Bool] {
            let old = current.slice(range)
            current.replace(range, with: text)
            let new = current.slice(range.lowerBound..<(range.lowerBound + text.utf8.count))
            return ledgers.map { $0.recordEngineEdit(range, old: old, new: new, changes: changes) }
        }
    }

    private func randomRange(_ count: Int, _ rng: inout SplitMix64, maxLength: Int = 6) -> Range<Int> {
        let start = Int(rng.next() % UInt64(count + 1))
        let length = min(count - start, Int(rng.next() % UInt64(maxLength + 1)))
        return start..<(start + length)
    }

    /// Every query, without writing pending moves into the changes (`hunk(_:)` reads one
    /// change as it is today).
    private func assertSameAnswers(_ pair: Pair, _ rng: inout SplitMix64, _ trace: @autoclosure () -> String,
                                   file: StaticString = #filePath, line: UInt = #line) {
        let (a, b) = (pair.blocked, pair.whole)
        XCTAssertEqual(a.count, b.count, trace(), file: file, line: line)
        guard a.count == b.count else { return }
        for index in 0..<a.count {
            XCTAssertEqual(a.hunk(index), b.hunk(index), trace(), file: file, line: line)
            XCTAssertEqual(a.currentSpan(index), b.currentSpan(index), trace(), file: file, line: line)
        }
        XCTAssertEqual(a.baseEdits, b.baseEdits, trace(), file: file, line: line)
        let count = pair.current.utf8Count
        for _ in 0..<6 {
            let range = randomRange(count, &rng)
            XCTAssertEqual(a.baseRange(ofEngineEdit: range), b.baseRange(ofEngineEdit: range), trace(), file: file, line: line)
            XCTAssertEqual(a.baseRange(ofCurrent: range), b.baseRange(ofCurrent: range), trace(), file: file, line: line)
            XCTAssertEqual(a.isDelivered(range), b.isDelivered(range), trace(), file: file, line: line)
            XCTAssertEqual(a.changes(inside: range).map(\.span), b.changes(inside: range).map(\.span), trace(), file: file, line: line)
            XCTAssertEqual(a.baseSlice(of: range, in: pair.current), b.baseSlice(of: range, in: pair.current), trace(), file: file, line: line)
            let base = randomRange(count, &rng)
            XCTAssertEqual(a.currentSpan(ofBase: base), b.currentSpan(ofBase: base), trace(), file: file, line: line)
            XCTAssertEqual(a.currentRange(ofBase: base), b.currentRange(ofBase: base), trace(), file: file, line: line)
            let shown = LedgerHunk(base: base, baseText: AttributedText("q"), text: AttributedText("qq"))
            XCTAssertEqual(a.currentSpan(ofShown: shown), b.currentSpan(ofShown: shown), trace(), file: file, line: line)
        }
    }

    /// Random deliveries and engine edits anywhere (beside Emend's changes, over them, inside
    /// the reported changes), many changes per block: every answer is the one-block ledger's,
    /// and the base is the same text.
    func testBlockedShiftsAnswerAsWrittenShifts() {
        var rng = SplitMix64(seed: 27)
        let pieces = ["", "b", "zz", " ", "a x ", "q q"]
        for round in 0..<300 {
            var pair = Pair(String(repeating: "a x ", count: 24), blockSize: 2 + round % 3)
            // Many small changes first, so that there are many blocks.
            for word in stride(from: 0, to: 24, by: 1 + round % 3) { pair.deliver((4 * word)..<(4 * word + 1), "b") }
            var trace = ["round \(round)"]
            for step in 0..<30 {
                let range = randomRange(pair.current.utf8Count, &rng)
                let text = pieces[Int(rng.next() % UInt64(pieces.count))]
                if rng.next() % 3 == 0 {
                    trace.append("\(step): deliver \(range) \"\(text)\"")
                    pair.deliver(range, text)
                } else {
                    let changes = rng.next() % 4 == 0 ? [randomRange(pair.current.utf8Count, &rng)] : []
                    trace.append("\(step): type \(range) \"\(text)\" in \(changes)")
                    let adopted = pair.type(range, text, changes: changes)
                    XCTAssertEqual(adopted[0], adopted[1], trace.joined(separator: "\n"))
                }
                assertSameAnswers(pair, &rng, trace.joined(separator: "\n"))
                if step % 7 == 6 {
                    // Reading them whole writes every pending move in.
                    XCTAssertEqual(pair.blocked.hunks, pair.whole.hunks, trace.joined(separator: "\n"))
                }
            }
            let all = 0..<pair.current.utf8Count
            XCTAssertEqual(pair.blocked.baseSlice(of: all, in: pair.current), pair.whole.baseSlice(of: all, in: pair.current),
                           trace.joined(separator: "\n"))
            if testRun?.failureCount ?? 0 > 0 { break }
        }
    }

    /// An engine edit before every change moves each change's base (what revert and the saved
    /// versions read), pending in all but the first block: the bases read today are moved.
    func testAnEditBeforeEveryChangeMovesEveryBase() {
        var pair = Pair(String(repeating: "a x ", count: 10), blockSize: 2)
        for word in 0..<10 { pair.deliver((4 * word)..<(4 * word + 1), "b") }
        _ = pair.type(0..<0, "zz ", changes: [])
        XCTAssertEqual((0..<10).map { pair.blocked.hunk($0).base }, (0..<10).map { (4 * $0 + 3)..<(4 * $0 + 4) })
        XCTAssertEqual(pair.blocked.hunks.map(\.base), (0..<10).map { (4 * $0 + 3)..<(4 * $0 + 4) })
        XCTAssertEqual(pair.blocked.baseSlice(of: 0..<pair.current.utf8Count, in: pair.current).string,
                       "zz " + String(repeating: "a x ", count: 10))
    }

    /// An engine edit inside the first change makes it the engine's: it leaves the ledger (a
    /// block of its own is changed, the later blocks only move their sums), every other change
    /// stays where it was, and the base keeps the engine's text there.
    func testAnEditInsideTheFirstChangeTakesItAloneOutOfManyBlocks() {
        var pair = Pair(String(repeating: "a x ", count: 10), blockSize: 2)
        for word in 0..<10 { pair.deliver((4 * word)..<(4 * word + 1), "b") }
        XCTAssertEqual(pair.type(0..<1, "cc", changes: []), [true, true])
        XCTAssertEqual(pair.blocked.count, 9)
        XCTAssertEqual((0..<9).map { pair.blocked.hunk($0).base }, (1..<10).map { (4 * $0 + 1)..<(4 * $0 + 2) })
        XCTAssertEqual((0..<9).map { pair.blocked.currentSpan($0) }, (1..<10).map { (4 * $0 + 1)..<(4 * $0 + 2) })
        XCTAssertEqual(pair.blocked.hunks, pair.whole.hunks)
        XCTAssertEqual(pair.blocked.baseSlice(of: 0..<pair.current.utf8Count, in: pair.current).string,
                       "cc x " + String(repeating: "a x ", count: 9))
        // Every block emptied one by one (the last change of each block taken): none is left.
        while pair.blocked.count > 0 {
            let span = pair.blocked.currentSpan(pair.blocked.count - 1)
            XCTAssertEqual(pair.type(span, "d", changes: []), [true, true])
            XCTAssertEqual(pair.blocked.hunks, pair.whole.hunks)
        }
        XCTAssertTrue(pair.blocked.isEmpty)
    }
}
