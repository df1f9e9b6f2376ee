import XCTest
@testable import EmendCore
import EmendText

final class TextAlignmentTests: XCTestCase {
    // MARK: - Helpers

    private static let pieces = [
        "the", "cat", "sat", "on", "a", "mat", "and", "then", "it", "slept", "Their", "They're", "don't",
        "It’s", "café", "cafe\u{301}", "naïve", "e\u{301}", "👩‍👩‍👧", "👍🏽", "🇯🇵", "日本語", "を", "話す", "。",
        "3.14", "e.g.", "Dr.", ",", ".", "!", "?", "…", "\"quoted\"", "(paren)", "x\u{308}\u{301}",
    ]
    private static let separators = [" ", " ", " ", " ", "  ", "\n", "\n\n", ". ", "! ", "\r\n", "\t", ""]

    private func utf8(_ s: String) -> [UInt8] { Array(s.utf8) }

    private func substring(_ s: String, _ range: Range<Int>) -> String {
        String(decoding: utf8(s)[range], as: UTF8.self)
    }

    /// Byte offsets where characters (grapheme clusters) of `s` start, plus its end.
    private func characterBoundaries(_ s: String) -> Set<Int> {
        var result: Set<Int> = [s.utf8.count]
        for index in s.indices { result.insert(s.utf8.distance(from: s.utf8.startIndex, to: index)) }
        return result
    }

    /// Aligns and checks every property `TextAlignment.edits` promises; returns the edits.
    @discardableResult
    private func checkedEdits(_ original: String, _ proposed: String, _ granularity: AlignmentGranularity,
                              file: StaticString = #filePath, line: UInt = #line) -> [TextEdit] {
        let edits = TextAlignment.edits(from: original, to: proposed, granularity: granularity)
        let applied = TextEdit.apply(edits, to: original)
        XCTAssertEqual(utf8(applied), utf8(proposed),
                       "round trip of \(original.debugDescription) → \(proposed.debugDescription)",
                       file: file, line: line)
        let boundaries = characterBoundaries(original)
        var previousEnd = -1
        for edit in edits {
            XCTAssertGreaterThan(edit.range.lowerBound, previousEnd, "edits sorted and separated",
                                 file: file, line: line)
            XCTAssertLessThanOrEqual(edit.range.upperBound, original.utf8.count, file: file, line: line)
            XCTAssertTrue(boundaries.contains(edit.range.lowerBound) && boundaries.contains(edit.range.upperBound),
                          "edit \(edit) splits a character of \(original.debugDescription)", file: file, line: line)
            XCTAssertNotEqual(utf8(substring(original, edit.range)), utf8(edit.replacement),
                              "edit changes nothing", file: file, line: line)
            previousEnd = edit.range.upperBound
        }
        if utf8(original) == utf8(proposed) { XCTAssertEqual(edits, [], file: file, line: line) }
        return edits
    }

    private func randomText(_ rng: inout SplitMix64, pieces count: Int) -> [String] {
        var parts: [String] = []
        for _ in 0..<count {
            parts.append(rng.pick(Self.pieces))
            parts.append(rng.pick(Self.separators))
        }
        return parts
    }

    private func mutated(_ parts: [String], _ rng: inout SplitMix64) -> [String] {
        var parts = parts
        for _ in 0..<(1 + rng.below(6)) {
            let index = parts.isEmpty ? 0 : rng.below(parts.count)
            switch rng.below(5) {
            case 0 where !parts.isEmpty: parts[index] = rng.pick(Self.pieces)
            case 1: parts.insert(rng.pick(Self.pieces) + " ", at: index)
            case 2 where !parts.isEmpty: parts.remove(at: index)
            case 3 where !parts.isEmpty: parts[index] = rng.pick(Self.separators)
            case 4 where !parts.isEmpty:
                var characters = Array(parts[index])
                let inserted: [Character] = ["x", "\u{301}", "é", "語", "👍"]
                characters.insert(rng.pick(inserted), at: rng.below(characters.count + 1))
                parts[index] = String(characters)
            default: break
            }
        }
        return parts
    }

    // MARK: - Round trip

    func testRoundTripOnGeneratedPairs() {
        var rng = SplitMix64(seed: 2024)
        for _ in 0..<400 {
            let parts = randomText(&rng, pieces: rng.below(40))
            let original = parts.joined()
            let proposed = mutated(parts, &rng).joined()
            checkedEdits(original, proposed, .word)
            checkedEdits(original, proposed, .character)
        }
    }

    /// Long shared starts and ends are left out of the alignment (cut at whitespace in both
    /// texts): the edits still turn one text into the other, touch only the changed middle,
    /// and a result that grew by a sentence at its end costs the sentence, not the text.
    func testLongSharedEndsAreLeftOutAndTheRoundTripHolds() {
        let long = String(repeating: "word ", count: 2_000)
        let grown = checkedEdits(long + "end.", long + "end. Done.", .word)
        XCTAssertEqual(grown.count, 1)
        XCTAssertGreaterThanOrEqual(grown[0].range.lowerBound, long.utf8.count)
        var rng = SplitMix64(seed: 77)
        for _ in 0..<200 {
            let parts = randomText(&rng, pieces: rng.below(12))
            let head = String(repeating: "Ünïcode wörds here. ", count: 300), tail = String(repeating: " and more text", count: 400)
            checkedEdits(head + parts.joined() + tail, head + mutated(parts, &rng).joined() + tail, .word)
            // Shared ends that stop inside a word in one text and not the other.
            checkedEdits(head + "x" + parts.joined() + tail, head + "y" + mutated(parts, &rng).joined() + "z" + tail, .character)
        }
    }

    func testRoundTripOnUnrelatedTexts() {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<100 {
            let original = randomText(&rng, pieces: rng.below(30)).joined()
            let proposed = randomText(&rng, pieces: rng.below(30)).joined()
            checkedEdits(original, proposed, .word)
            checkedEdits(original, proposed, .character)
        }
    }

    func testEachChangedWordOfALargeDocumentIsItsOwnEdit() {
        var rng = SplitMix64(seed: 99)
        let vocabulary = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa"]
        var words: [String] = []
        var separators: [String] = []
        for i in 0..<6_000 {
            words.append(rng.pick(vocabulary))
            separators.append(i % 13 == 12 ? ". " : (i % 61 == 60 ? ".\n\n" : " "))
        }
        var changed = words
        var expected: [TextEdit] = []
        var offset = 0
        var index = 0
        for i in 0..<words.count {
            if i == index {
                var replacement = rng.pick(vocabulary)
                while replacement == words[i] { replacement = rng.pick(vocabulary) }
                changed[i] = replacement
                expected.append(TextEdit(range: offset..<(offset + words[i].utf8.count), replacement: replacement))
                index += 3 + rng.below(200)
            }
            offset += words[i].utf8.count + separators[i].utf8.count
        }
        let original = zip(words, separators).map { $0 + $1 }.joined()
        let proposed = zip(changed, separators).map { $0 + $1 }.joined()
        XCTAssertEqual(checkedEdits(original, proposed, .word), expected)
    }

    // MARK: - Minimality

    func testUnchangedWordsBetweenChangesStayOutsideEdits() {
        let edits = checkedEdits("Their going too the party", "They're going to the party", .word)
        XCTAssertEqual(edits, [TextEdit(range: 0..<5, replacement: "They're"),
                               TextEdit(range: 12..<15, replacement: "to")])
    }

    func testChangesInSeparateSentencesAreSeparateEdits() {
        let original = "First sentence is fine. Second has a eror. Third is fine too. Fourth has anoter one."
        let proposed = "First sentence is fine. Second has an error. Third is fine too. Fourth has another one."
        let edits = checkedEdits(original, proposed, .word)
        XCTAssertEqual(edits.map { substring(original, $0.range) }, ["a", "eror", "anoter"])
        XCTAssertEqual(edits.map(\.replacement), ["an", "error", "another"])
    }

    func testInsertedSentenceIsOneInsertion() {
        let edits = checkedEdits("One. Two. Three.", "One. Inserted here. Two. Three.", .word)
        XCTAssertEqual(edits, [TextEdit(range: 5..<5, replacement: "Inserted here. ")])
    }

    func testDeletedWordTakesOneSpaceWithIt() {
        let original = "I really like it"
        let edits = checkedEdits(original, "I like it", .word)
        XCTAssertEqual(edits.count, 1)
        XCTAssertEqual(edits.first?.replacement, "")
        XCTAssertTrue(["really ", " really"].contains(substring(original, edits[0].range)))
    }

    func testWhitespaceOnlyChange() {
        XCTAssertEqual(checkedEdits("a  b", "a b", .word), [TextEdit(range: 1..<3, replacement: " ")])
    }

    // MARK: - Granularity

    func testWordGranularityReplacesTheWholeWord() {
        XCTAssertEqual(checkedEdits("See you tomorow.", "See you tomorrow.", .word),
                       [TextEdit(range: 8..<15, replacement: "tomorrow")])
    }

    func testCharacterGranularityNarrowsToTheDifference() {
        XCTAssertEqual(checkedEdits("See you tomorow.", "See you tomorrow.", .character),
                       [TextEdit(range: 13..<13, replacement: "r")])
        XCTAssertEqual(checkedEdits("Their going", "They're going", .character),
                       [TextEdit(range: 3..<5, replacement: "y're")])
    }

    func testCharacterGranularityNeverSplitsAGraphemeCluster() {
        // Only the last person of the family differs, but the emoji is one character.
        let family = "We 👩‍👩‍👧 here"
        XCTAssertEqual(checkedEdits(family, "We 👩‍👩‍👦 here", .character),
                       [TextEdit(range: 3..<21, replacement: "👩‍👩‍👦")])
        // Adding a combining accent changes the character "e", it is not an insertion after it.
        XCTAssertEqual(checkedEdits("cafe au lait", "cafe\u{301} au lait", .character),
                       [TextEdit(range: 3..<4, replacement: "e\u{301}")])
    }

    func testCanonicallyEquivalentTextsStillGetByteEdits() {
        // "é" precomposed and "e" + combining acute are equal as Swift strings, but not as bytes.
        XCTAssertEqual(checkedEdits("cafe\u{301} noir", "caf\u{E9} noir", .word),
                       [TextEdit(range: 0..<6, replacement: "caf\u{E9}")])
        XCTAssertEqual(checkedEdits("cafe\u{301} noir", "caf\u{E9} noir", .character),
                       [TextEdit(range: 3..<6, replacement: "\u{E9}")])
    }

    func testEmojiAndCJKAreWholeTokens() {
        XCTAssertEqual(checkedEdits("I ❤️ it", "I 👍 it", .word), [TextEdit(range: 2..<8, replacement: "👍")])
        // CJK has no spaces: each ideograph or kana is a token of its own.
        XCTAssertEqual(checkedEdits("日本語を話します。", "日本語を話しました。", .word),
                       [TextEdit(range: 21..<24, replacement: "した")])
    }

    // MARK: - Edge cases

    func testIdenticalAndEmptyTexts() {
        XCTAssertEqual(checkedEdits("", "", .word), [])
        XCTAssertEqual(checkedEdits("Same text. Twice.", "Same text. Twice.", .character), [])
        XCTAssertEqual(checkedEdits("", "Hello", .word), [TextEdit(range: 0..<0, replacement: "Hello")])
        XCTAssertEqual(checkedEdits("Hello", "", .character), [TextEdit(range: 0..<5, replacement: "")])
    }

    func testApplyUsesOriginalOffsetsAndSortsEdits() {
        let edits = [TextEdit(range: 6..<11, replacement: "there"), TextEdit(range: 0..<5, replacement: "Hi")]
        XCTAssertEqual(TextEdit.apply(edits, to: "Hello world"), "Hi there")
        XCTAssertEqual(TextEdit.apply([], to: "unchanged"), "unchanged")
        XCTAssertEqual(TextEdit.apply([TextEdit(range: 5..<99, replacement: "!")], to: "Hello world"), "Hello!")
    }

    // MARK: - Internals: bounded work

    func testExhaustedBudgetFallsBackToOneHunkPerPiece() {
        // Periodic middles have no unique ids or runs; without budget the middle becomes one hunk.
        let a: [Int32] = [9] + Array(repeating: [1, 2], count: 40).flatMap { $0 } + [9]
        let b: [Int32] = [9] + Array(repeating: [2, 1, 1], count: 30).flatMap { $0 } + [9]
        var none = 0
        XCTAssertEqual(SequenceDiff.hunks(a, b, anchorsFirst: true, budget: &none), [DiffHunk(a: 1..<81, b: 1..<91)])
        var plenty = 1_000_000
        let exact = SequenceDiff.hunks(a, b, anchorsFirst: true, budget: &plenty)
        XCTAssertGreaterThan(exact.count, 1, "with budget, Myers finds matches inside")
        XCTAssertLessThan(plenty, 1_000_000, "Myers work is charged to the budget")
        // Small pieces always get the exact shortest script.
        let small = SequenceDiff.hunks([9, 1, 2, 1, 2, 1, 2, 9], [9, 2, 1, 2, 1, 1, 9],
                                       anchorsFirst: false, budget: &none)
        XCTAssertEqual(small.reduce(0) { $0 + $1.a.count + $1.b.count }, 3, "shortest script: 3 edits")
    }

    func testUniqueAnchorsSplitLargePiecesWithoutMyers() {
        var none = 0
        // 100 distinct ids, two of them replaced: anchors isolate the two changes.
        let a = (0..<100).map { Int32($0) }
        var b = a
        b[20] = 500
        b[70] = 600
        XCTAssertEqual(SequenceDiff.hunks(a, b, anchorsFirst: true, budget: &none),
                       [DiffHunk(a: 20..<21, b: 20..<21), DiffHunk(a: 70..<71, b: 70..<71)])
        // Ids that repeat everywhere still anchor on unique runs of eight.
        var rng = SplitMix64(seed: 5)
        let c = (0..<400).map { _ in Int32(rng.below(5)) }
        var d = c
        d[200] = 9
        XCTAssertEqual(SequenceDiff.hunks(c, d, anchorsFirst: true, budget: &none),
                       [DiffHunk(a: 200..<201, b: 200..<201)])
    }
}
