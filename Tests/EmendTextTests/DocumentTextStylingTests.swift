import XCTest
@testable import EmendText

/// A document's styling kept in `SpanList`s against the flat arrays of `AttributedText`:
/// random plain and styled replaces (inside, across and around runs, long runs over
/// everything, insertions at edges), then slices, protection checks and the whole styling
/// compared. Blocks are small here (many runs), so moving, mapping, splitting and emptying
/// blocks all happen.
final class DocumentTextStylingTests: XCTestCase {
    /// Sorted, empty ranges left out (they style nothing; `DocumentText` drops them).
    private func sorted<T: Spanned & Hashable>(_ elements: [T]) -> [T] {
        elements.filter { !$0.range.isEmpty }.sorted { ($0.range.lowerBound, $0.range.upperBound, $0.hashValue) < ($1.range.lowerBound, $1.range.upperBound, $1.hashValue) }
    }

    private func ordered(_ ranges: [Range<Int>]) -> [Range<Int>] {
        ranges.filter { !$0.isEmpty }.sorted { ($0.lowerBound, $0.upperBound) < ($1.lowerBound, $1.upperBound) }
    }

    private func assertSame(_ document: DocumentText, _ reference: AttributedText, _ trace: @autoclosure () -> String,
                            file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(document.string, reference.string, trace(), file: file, line: line)
        XCTAssertEqual(sorted(document.attributeRuns), sorted(reference.attributeRuns), trace(), file: file, line: line)
        XCTAssertEqual(sorted(document.blockIntents), sorted(reference.blockIntents), trace(), file: file, line: line)
        XCTAssertEqual(ordered(document.protectedRanges), ordered(reference.protectedRanges), trace(), file: file, line: line)
    }

    func testRandomReplacesAgreeWithAttributedText() {
        var rng = SplitMix64(seed: UInt64(ProcessInfo.processInfo.environment["EMEND_STYLING_SEED"] ?? "") ?? 11)
        let keys = ["bold", "italic", "font", "link"]
        for round in 0..<300 {
            let length = Int.random(in: 0...400, using: &rng)
            let text = String((0..<length).map { _ in Character(UnicodeScalar(UInt8.random(in: 97...122, using: &rng))) })
            func randomRange(_ count: Int, maxLength: Int) -> Range<Int> {
                let lower = Int.random(in: 0...count, using: &rng)
                return lower..<(lower + Int.random(in: 0...min(maxLength, count - lower), using: &rng))
            }
            var runs = (0..<Int.random(in: 0...300, using: &rng)).map { _ in
                AttributeRun(range: randomRange(length, maxLength: 12), key: keys.randomElement(using: &rng)!, value: "\(Int.random(in: 0..<3, using: &rng))")
            }
            if Bool.random(using: &rng) { runs.append(AttributeRun(range: 0..<length, key: "font", value: "serif")) }
            let intents = (0..<Int.random(in: 0...40, using: &rng)).map { _ in
                BlockIntent(range: randomRange(length, maxLength: 30), kind: .listItem, level: 1, ordinal: Int.random(in: 0..<5, using: &rng))
            }
            let protected = (0..<Int.random(in: 0...20, using: &rng)).map { _ in randomRange(length, maxLength: 8) }
            var reference = AttributedText(text, attributeRuns: runs, blockIntents: intents, protectedRanges: protected)
            let document = DocumentText(reference, styleBlockSize: Int.random(in: 1...8, using: &rng))
            var trace = ["round \(round)"]
            assertSame(document, reference, trace.joined(separator: "\n"))
            for _ in 0..<60 {
                let count = reference.utf8Count
                let range = randomRange(count, maxLength: Bool.random(using: &rng) ? 6 : count)
                let newLength = Int.random(in: 0...8, using: &rng)
                let replacement = String(repeating: "Z", count: newLength)
                if Bool.random(using: &rng) {
                    trace.append("replace \(range) with \(newLength) bytes")
                    reference.replace(range, with: replacement)
                    document.replace(range, with: replacement)
                } else {
                    let styledRuns = newLength == 0 ? [] : [AttributeRun(range: 0..<Int.random(in: 1...newLength, using: &rng), key: "bold", value: "1")]
                    let styledIntents = newLength == 0 || Bool.random(using: &rng) ? [] : [BlockIntent(range: 0..<newLength, kind: .heading, level: 2)]
                    let styled = AttributedText(replacement, attributeRuns: styledRuns, blockIntents: styledIntents)
                    trace.append("replace \(range) with \(newLength) styled bytes \(styledRuns) \(styledIntents)")
                    reference.replace(range, withStyled: styled)
                    document.replace(range, withStyled: styled)
                }
                if sorted(document.attributeRuns) != sorted(reference.attributeRuns) || sorted(document.blockIntents) != sorted(reference.blockIntents) {
                    let (mine, theirs) = (sorted(document.attributeRuns), sorted(reference.attributeRuns))
                    XCTFail("only mine: \(mine.filter { !theirs.contains($0) }) only theirs: \(theirs.filter { !mine.contains($0) }) counts \(mine.count) \(theirs.count) intents \(document.blockIntents) vs \(reference.blockIntents)\n" + trace.joined(separator: "\n"))
                    return
                }
                let probe = randomRange(reference.utf8Count, maxLength: 20)
                let (mine, theirs) = (document.slice(probe), reference.slice(probe))
                XCTAssertEqual(mine.string, theirs.string)
                XCTAssertEqual(sorted(mine.attributeRuns), sorted(theirs.attributeRuns), "slice \(probe)\n" + trace.joined(separator: "\n"))
                XCTAssertEqual(sorted(mine.blockIntents), sorted(theirs.blockIntents), "slice \(probe)")
                XCTAssertEqual(ordered(mine.protectedRanges), ordered(theirs.protectedRanges))
                XCTAssertEqual(document.touchesProtectedText(probe), reference.touchesProtectedText(probe), "\(probe)")
                XCTAssertEqual(ordered(document.protectedRanges(overlapping: probe)), ordered(reference.protectedRanges(overlapping: probe)), "\(probe)")
            }
            assertSame(document, reference, trace.joined(separator: "\n"))
            if document.string != reference.string || sorted(document.attributeRuns) != sorted(reference.attributeRuns) { break }
        }
    }

    /// Runs far from a replace are not visited: a replace in a document with 100,000 runs
    /// maps only the block it falls in (and the block of a run over everything).
    func testReplacesFarApartKeepEveryRunWhereItBelongs() {
        let text = String(repeating: "abcdefghij", count: 100_000)
        let runs = stride(from: 0, to: text.utf8.count, by: 10).map { AttributeRun(range: $0..<($0 + 5), key: "bold", value: "1") }
        let document = DocumentText(AttributedText(text, attributeRuns: runs + [AttributeRun(range: 0..<text.utf8.count, key: "font", value: "serif")]))
        // Insert 3 bytes at the start of every 1,000th run, from the end (so earlier offsets hold).
        for start in stride(from: text.utf8.count - 10_000, through: 0, by: -10_000) {
            document.replace(start..<start, with: "XYZ")
        }
        let moved = document.attributeRuns.filter { $0.key == "bold" }
        XCTAssertEqual(moved.count, runs.count)
        // The run at byte 10,000 now starts 6 bytes later (its own insertion and the one at 0);
        // the font run moved by the insertion at its start and grew by the 99 inside it.
        XCTAssertEqual(moved[1_000].range, (10_000 + 6)..<(10_005 + 6))
        XCTAssertEqual(moved[999].range, (9_990 + 3)..<(9_995 + 3))
        XCTAssertEqual(document.attributeRuns.first { $0.key == "font" }?.range, 3..<(text.utf8.count + 300))
        XCTAssertEqual(document.slice(10_006..<10_011).attributeRuns.filter { $0.key == "bold" }.map(\.range), [0..<5])
    }
}

