import XCTest
@testable import EmendCore
import EmendText

/// The ledger that tells Emend's changes from the engine's: the base it computes is always
/// the original with the engine's edits.
final class EditLedgerTests: XCTestCase {
    /// A text with a ledger, changed by "Emend" (deliver) and by "the engine" (type).
    private struct Document {
        var current: AttributedText
        let ledger = EditLedger()

        init(_ text: String) { current = AttributedText(text) }

        mutating func deliver(_ range: Range<Int>, _ text: String) {
            let old = current.slice(range)
            current.replace(range, with: text)
            ledger.recordDelivery(range, old: old, new: current.slice(range.lowerBound..<(range.lowerBound + text.utf8.count)))
        }

        mutating func type(_ range: Range<Int>, _ text: String, inChanges changes: [Range<Int>] = [], holdingEdges: [Range<Int>] = []) {
            let old = current.slice(range)
            current.replace(range, with: text)
            ledger.recordEngineEdit(range, old: old, new: current.slice(range.lowerBound..<(range.lowerBound + text.utf8.count)),
                                    changes: changes, holdingEdges: holdingEdges)
        }

        var base: String { ledger.baseSlice(of: 0..<current.utf8Count, in: current).string }

        func range(of needle: String) -> Range<Int> { byteRange(of: needle, in: current.string)! }

        /// "I do not think it is ready." with Emend's "do not" → "don't" delivered: the
        /// document the tests of edits beside and over a delivery start from.
        static func contracted() -> Document {
            var doc = Document("I do not think it is ready.")
            doc.deliver(doc.range(of: "do not"), "don't")
            return doc
        }
    }

    func testDeliveriesAreUndoneByTheBase() {
        var doc = Document.contracted()
        doc.deliver(doc.range(of: "it is"), "it's")
        XCTAssertEqual(doc.current.string, "I don't think it's ready.")
        XCTAssertEqual(doc.base, "I do not think it is ready.")
        XCTAssertEqual(doc.ledger.hunks.count, 2)
    }

    /// `hasChanges(inside:)` says what `changes(inside:)` would (a run's start takes the copy
    /// of its region as its base when it says no): every range of a text with two changes.
    func testHasChangesInsideAgreesWithTheChangesInside() {
        var doc = Document("one two three four five")
        doc.deliver(doc.range(of: "two"), "2")
        doc.deliver(doc.range(of: "four"), "4")
        let count = doc.current.utf8Count
        var some = 0
        for lower in 0...count {
            for upper in lower...count {
                let inside = !doc.ledger.changes(inside: lower..<upper).isEmpty
                XCTAssertEqual(doc.ledger.hasChanges(inside: lower..<upper), inside, "\(lower)..<\(upper)")
                if inside { some += 1 }
            }
        }
        XCTAssertGreaterThan(some, 0)
        XCTAssertTrue(doc.ledger.hasChanges(inside: 0..<count))
        XCTAssertFalse(doc.ledger.hasChanges(inside: doc.range(of: "three")))
    }

    func testADeliveryBackToTheBaseLeavesNoHunk() {
        var doc = Document("a cat sat")
        doc.deliver(doc.range(of: "cat"), "dog")
        doc.deliver(doc.range(of: "dog"), "cat")
        XCTAssertTrue(doc.ledger.isEmpty)
    }

    func testTouchingDeliveriesMerge() {
        var doc = Document("one two three")
        doc.deliver(doc.range(of: "one"), "1")
        doc.deliver(doc.range(of: " two"), " 2")
        doc.deliver(0..<doc.current.utf8Count, "all new")
        XCTAssertEqual(doc.ledger.hunks.count, 1)
        XCTAssertEqual(doc.base, "one two three")
    }

    func testEngineEditsBesideEmendsGoToTheBase() {
        var doc = Document.contracted()
        doc.type(0..<1, "You")                              // before
        doc.type(doc.range(of: "ready"), "done")            // after
        doc.type(doc.range(of: "think"), "believe")         // between
        XCTAssertEqual(doc.current.string, "You don't believe it is done.")
        XCTAssertEqual(doc.base, "You do not believe it is done.")
    }

    func testAnEditOfEmendsTextMakesItTheEngines() {
        var doc = Document.contracted()
        doc.type(doc.range(of: "'"), "\u{2019}")
        XCTAssertEqual(doc.current.string, "I don\u{2019}t think it is ready.")
        XCTAssertEqual(doc.base, "I don\u{2019}t think it is ready.")
        XCTAssertTrue(doc.ledger.isEmpty)
        doc.type(2..<3, "w")
        XCTAssertEqual(doc.base, "I won\u{2019}t think it is ready.")
    }

    func testADeletionOverEmendsDeletionDropsIt() {
        var doc = Document("see the the cat")
        doc.deliver(doc.range(of: "the the").lowerBound..<(doc.range(of: "the the").lowerBound + 4), "")
        XCTAssertEqual(doc.current.string, "see the cat")
        XCTAssertEqual(doc.base, "see the the cat")
        // The user deletes "see the " around the point where "the " was removed: it stays gone.
        doc.type(0..<8, "")
        XCTAssertEqual(doc.current.string, "cat")
        XCTAssertEqual(doc.base, "cat")
    }

    func testTypingWhereEmendRemovedTextKeepsTheRemovedTextInTheBase() {
        var doc = Document("a b c")
        doc.deliver(2..<3, "")
        doc.type(2..<2, "x")
        XCTAssertEqual(doc.current.string, "a x c")
        XCTAssertEqual(doc.base, "a bx c", "the removed word was never the engine's to lose")
    }

    func testTypingAtTheEdgeOfEmendsTextIsNotAnEditOfIt() {
        var doc = Document("a cat")
        doc.deliver(doc.range(of: "cat"), "dog")
        doc.type(5..<5, "s")
        doc.type(2..<2, "big ")
        XCTAssertEqual(doc.current.string, "a big dogs")
        XCTAssertEqual(doc.base, "a big cats")
        XCTAssertEqual(doc.ledger.hunks.count, 1)
    }

    func testAChangeHoldingItsEdgesTakesTheDeletionThereAlong() {
        // A review change "ab " whose deletion of "cd " lies at its end: typing in it makes
        // the deletion the engine's too; a change that does not hold its edges leaves it.
        var held = Document("ab cd ef")
        held.deliver(3..<6, "")
        held.type(0..<1, "X", inChanges: [0..<3], holdingEdges: [0..<3])
        XCTAssertEqual(held.current.string, "Xb ef")
        XCTAssertEqual(held.base, "Xb ef")
        XCTAssertTrue(held.ledger.hunks.isEmpty)
        var beside = Document("ab cd ef")
        beside.deliver(3..<6, "")
        beside.type(0..<1, "X", inChanges: [0..<3])
        XCTAssertEqual(beside.base, "Xb cd ef")
        XCTAssertEqual(beside.ledger.hunks.count, 1)
        // At the change's start as well.
        var before = Document("ab cd ef")
        before.deliver(0..<3, "")
        before.type(1..<2, "X", inChanges: [0..<3], holdingEdges: [0..<3])
        XCTAssertEqual(before.current.string, "cX ef")
        XCTAssertEqual(before.base, "cX ef")
        // A deletion one space before the change, held (the change widened over the space).
        var left = Document("xx ab cd")
        left.deliver(0..<2, "")
        left.type(2..<3, "X", inChanges: [1..<3], holdingEdges: [0..<3])
        XCTAssertEqual(left.current.string, " aX cd")
        XCTAssertEqual(left.base, " aX cd")
        XCTAssertTrue(left.ledger.hunks.isEmpty)
    }

    func testSavedChangesRebaseThroughEngineEdits() {
        var doc = Document("one two three")
        let saved = [LedgerHunk(base: 0..<3, baseText: AttributedText("one"), text: AttributedText("1")),
                     LedgerHunk(base: 8..<13, baseText: AttributedText("three"), text: AttributedText("3"))]
        let mark = doc.ledger.baseEdits.count
        doc.type(4..<7, "TWO")               // between: both move (by 0)
        doc.type(0..<0, ">> ")               // before the first: both move
        doc.type(doc.range(of: "three"), "drei")   // over the second: it is dropped
        let rebased = doc.ledger.rebase(saved, since: mark)
        XCTAssertEqual(rebased.map(\.base), [3..<6])
        XCTAssertEqual(EditLedger.applying(rebased, to: doc.current, at: 0..<doc.current.utf8Count).string, ">> 1 TWO drei")
    }

    /// A saved change the engine's edit drops while it reaches beyond the edit takes text
    /// outside the edit with it: `keepShownVersionTrue` then compares the whole region, not a
    /// window around the edit (a version split otherwise than the ledger: "abcd" and
    /// "efghij" saved, the ledger's change "abcdef" adopted by a keystroke in it).
    func testADroppedChangeReachingBeyondTheEditIsTold() {
        let saved = [LedgerHunk(base: 10..<14, baseText: AttributedText("abcd"), text: AttributedText("ABCD")),
                     LedgerHunk(base: 14..<20, baseText: AttributedText("efghij"), text: AttributedText("EFghiJ"))]
        var adopting = BaseEdit(range: 10..<16, length: 7)
        adopting.adopted = true
        XCTAssertTrue(EditLedger.dropsBeyondItself(adopting, from: saved))
        XCTAssertEqual(EditLedger.rebase(saved, through: adopting).count, 0)
        // An edit that takes only changes within its own bytes, or none, drops nothing beyond.
        var within = BaseEdit(range: 10..<20, length: 3)
        within.adopted = true
        XCTAssertFalse(EditLedger.dropsBeyondItself(within, from: saved))
        XCTAssertFalse(EditLedger.dropsBeyondItself(BaseEdit(range: 0..<2, length: 5), from: saved))
        XCTAssertFalse(EditLedger.dropsBeyondItself(BaseEdit(range: 20..<20, length: 1), from: saved))
    }

    /// Random deliveries and engine edits of whole words: the base is exactly the original
    /// with the engine's edits (an engine edit of a word Emend changed makes the engine's
    /// word the base's), whatever the order.
    func testRandomEditsKeepTheBase() {
        var rng = SplitMix64(seed: 42)
        for _ in 0..<500 {
            let count = 3 + Int(rng.next() % 10)
            var current = (0..<count).map { "w\($0)" }
            var base = current
            var doc = Document(current.joined(separator: " "))
            var trace: [String] = []
            for step in 0..<12 {
                let index = Int(rng.next() % UInt64(count))
                let start = current[..<index].reduce(0) { $0 + $1.utf8.count + 1 }
                let range = start..<(start + current[index].utf8.count)
                // Emend never empties a word here (typing into text Emend removed is covered above).
                let emend = rng.next() % 2 == 0
                let word = (!emend && rng.next() % 3 == 0 ? "" : "n\(step)")
                trace.append("\(emend ? "emend" : "engine") \(index) \(current[index]) -> \(word) base \(base[index]) hunks \(doc.ledger.hunks.map { "\($0.base) \($0.baseText.string)->\($0.text.string)" })")
                if emend {
                    doc.deliver(range, word)
                } else {
                    doc.type(range, word)
                    base[index] = word
                }
                current[index] = word
                XCTAssertEqual(doc.current.string, current.joined(separator: " "))
            }
            XCTAssertEqual(doc.base, base.joined(separator: " "), trace.joined(separator: "\n"))
            if doc.base != base.joined(separator: " ") { break }
        }
    }

    /// Emend's replaces anywhere (inside a change, at its ends, across several, appending to
    /// one part after part as streaming does): the base stays the original, and the changes
    /// stay sorted, apart and each a real change.
    func testRandomDeliveriesKeepTheOriginalAsTheBase() {
        var rng = SplitMix64(seed: 7)
        let original = "The quick brown fox jumps over the lazy dog and runs far away."
        let pieces = ["", "a", "xy", " ", "quick", "THE ", "zz zz", "over the"]
        for round in 0..<2_000 {
            var doc = Document(original)
            var trace: [String] = []
            for _ in 0..<16 {
                let count = doc.current.utf8Count
                var range: Range<Int>
                if rng.next() % 3 == 0, let span = doc.ledger.currentSpans.randomElement(using: &rng) {
                    // Inside or at an end of one of Emend's changes.
                    let lower = span.lowerBound + Int(rng.next() % UInt64(span.count + 1))
                    range = lower..<(lower + Int(rng.next() % UInt64(span.upperBound - lower + 1)))
                } else {
                    let lower = Int(rng.next() % UInt64(count + 1))
                    range = lower..<(lower + Int(rng.next() % UInt64(min(12, count - lower) + 1)))
                }
                let text = pieces.randomElement(using: &rng)!
                trace.append("\(range) -> \(text.debugDescription): \(doc.current.string.debugDescription)")
                doc.deliver(range, text)
                let spans = doc.ledger.currentSpans
                XCTAssertTrue(zip(spans, spans.dropFirst()).allSatisfy { $0.upperBound < $1.lowerBound }, "\(spans)")
                XCTAssertFalse(doc.ledger.hunks.contains { $0.baseText == $0.text })
            }
            XCTAssertEqual(doc.base, original, "round \(round):\n" + trace.joined(separator: "\n"))
            if doc.base != original { break }
        }
    }

    /// A region Emend has not changed reads back as itself, styling included, and a saved
    /// version without changes applies as the base (`PlainSplice` hands the text back uncopied).
    func testTheBaseOfAnUnchangedRegionIsItsText() {
        let styled = AttributedText("Bold and plain. Caf\u{E9}!", attributeRuns: [AttributeRun(range: 0..<4, key: "bold", value: "1")],
                                    protectedRanges: [9..<14])
        let ledger = EditLedger()
        XCTAssertEqual(ledger.baseSlice(of: 0..<styled.utf8Count, in: styled), styled)
        XCTAssertEqual(ledger.baseSlice(of: 5..<14, in: styled), styled.slice(5..<14))
        XCTAssertEqual(EditLedger.applying([], to: styled, at: 0..<styled.utf8Count), styled)
        XCTAssertEqual(PlainSplice.splicing(styled, []), styled)
        // With a change, the splice still puts the base back.
        var doc = Document("I do not think it is ready.")
        XCTAssertEqual(doc.base, "I do not think it is ready.")
        doc.deliver(doc.range(of: "do not"), "don't")
        XCTAssertEqual(doc.current.string, "I don't think it is ready.")
        XCTAssertEqual(doc.base, "I do not think it is ready.")
    }

    /// The base under a range of a plain document is written straight from its rope and the
    /// changes' base texts: the same text as the base of the same range read from a copy,
    /// wherever the range starts and ends (around, inside and between changes).
    func testTheBaseReadFromTheRopeIsTheBaseReadFromACopy() {
        var rng = SplitMix64(seed: 11)
        let words = ["a", "é", "日本", "😀", "word", "x"]
        let chosen = (0..<400).map { _ in words[Int(rng.next() % UInt64(words.count))] }
        var doc = Document(chosen.joined(separator: " "))
        let original = doc.current.string
        // Every fifth word changes (from the last, so the offsets before stay), some by nothing.
        var starts: [Int] = [], offset = 0
        for word in chosen { starts.append(offset); offset += word.utf8.count + 1 }
        for index in stride(from: 395, through: 0, by: -5) {
            let range = starts[index]..<(starts[index] + chosen[index].utf8.count)
            doc.deliver(range, ["", "ZZ", "ö!", "🙂 x"][index % 4])
        }
        XCTAssertGreaterThan(doc.ledger.count, 3)
        let document = DocumentText(doc.current)
        let bounds = (0...doc.current.utf8Count).filter { $0 == doc.current.utf8Count || doc.current.string.utf8[doc.current.string.utf8.index(doc.current.string.utf8.startIndex, offsetBy: $0)] & 0xC0 != 0x80 }
        XCTAssertEqual(doc.ledger.baseSlice(of: 0..<document.utf8Count, in: document), AttributedText(original))
        for _ in 0..<300 {
            let x = bounds[Int(rng.next() % UInt64(bounds.count))], y = bounds[Int(rng.next() % UInt64(bounds.count))]
            let range = min(x, y)..<max(x, y)
            XCTAssertEqual(doc.ledger.baseSlice(of: range, in: document), doc.ledger.baseSlice(of: range, in: doc.current), "\(range)")
        }
    }

    /// A change made with a long base says so for as long as it lives, however much of the
    /// base is put back in place (its storage may still be long: it is let go of elsewhere),
    /// and equality does not look at it.
    func testAChangeMadeWithALongBaseSaysSoWhileItShrinks() {
        let long = String(repeating: "Words go on. ", count: (LedgerHunk.longBytes / 13) + 1)
        var doc = Document(long)
        let whole = 0..<long.utf8.count
        doc.deliver(whole, "Short. ")
        XCTAssertEqual(doc.ledger.hunks.count, 1)
        XCTAssertTrue(doc.ledger.hunks[0].heldLong, "made with a megabyte of base")
        // The base's tail put back after the change's text: the change shrinks in place.
        let tail = String(doc.ledger.hunks[0].baseText.string.utf8.suffix(4096))!
        let end = doc.ledger.currentSpan(0).upperBound
        doc.deliver(end..<end, tail)
        XCTAssertEqual(doc.ledger.hunks.count, 1)
        XCTAssertLessThan(doc.ledger.hunks[0].baseText.utf8Count, long.utf8.count)
        XCTAssertTrue(doc.ledger.hunks[0].heldLong, "still said after shrinking")
        let short = LedgerHunk(base: 0..<3, baseText: AttributedText("abc"), text: AttributedText("x"))
        XCTAssertFalse(short.heldLong)
        let same = LedgerHunk(base: doc.ledger.hunks[0].base, baseText: doc.ledger.hunks[0].baseText, text: doc.ledger.hunks[0].text)
        XCTAssertEqual(same, doc.ledger.hunks[0], "equality looks at the texts, not at how long the base was")
    }
}
