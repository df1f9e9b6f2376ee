import XCTest
import EmendText

/// AttributedText.replace keeps runs, block intents and protected ranges on the text they cover.
final class AttributedTextReplaceTests: XCTestCase {
    // "Hello bold world" — bold on "bold" (6..<10), link on "world" (11..<16).
    private func sample() -> AttributedText {
        AttributedText("Hello bold world",
                       attributeRuns: [AttributeRun(range: 6..<10, key: "bold", value: "1"),
                                       AttributeRun(range: 11..<16, key: "link", value: "https://example.org")],
                       blockIntents: [BlockIntent(range: 0..<16, kind: .heading, level: 2),
                                      BlockIntent(range: 11..<16, kind: .listItem, level: 1, ordinal: 3)],
                       protectedRanges: [11..<16])
    }

    private func run(_ text: AttributedText, _ key: String) -> AttributeRun? {
        text.attributeRuns.first { $0.key == key }
    }

    func testEditBeforeMovesEverythingAfterIt() {
        var text = sample()
        text.replace(0..<5, with: "Goodbye, dear")   // 5 bytes become 13
        XCTAssertEqual(text.string, "Goodbye, dear bold world")
        XCTAssertEqual(run(text, "bold")?.range, 14..<18)
        XCTAssertEqual(text.substring(run(text, "bold")!.range), "bold")
        XCTAssertEqual(run(text, "link")?.range, 19..<24)
        XCTAssertEqual(run(text, "link")?.value, "https://example.org")
        XCTAssertEqual(text.protectedRanges, [19..<24])
        XCTAssertEqual(text.substring(text.protectedRanges[0]), "world")
        XCTAssertEqual(text.blockIntents[0].range, 0..<24)
        XCTAssertEqual(text.blockIntents[0].kind, .heading)
        XCTAssertEqual(text.blockIntents[0].level, 2)
        XCTAssertEqual(text.blockIntents[1].range, 19..<24)
        XCTAssertEqual(text.blockIntents[1].ordinal, 3)
    }

    func testEditAfterLeavesEarlierRangesAlone() {
        var text = sample()
        text.replace(16..<16, with: "!!")
        XCTAssertEqual(text.string, "Hello bold world!!")
        XCTAssertEqual(run(text, "bold")?.range, 6..<10)
        XCTAssertEqual(run(text, "link")?.range, 11..<16)   // insertion at its end does not grow it
        XCTAssertEqual(text.protectedRanges, [11..<16])
        XCTAssertEqual(text.blockIntents[0].range, 0..<16)
    }

    func testInsertionInsideARunGrowsIt() {
        var text = sample()
        text.replace(8..<8, with: "ld and bo")       // "bo|ld" -> "bold and bold"
        XCTAssertEqual(text.string, "Hello bold and bold world")
        XCTAssertEqual(run(text, "bold")?.range, 6..<19)
        XCTAssertEqual(run(text, "link")?.range, 20..<25)
    }

    func testEditOverlappingARunClipsIt() {
        var text = sample()
        text.replace(8..<13, with: "X")              // "bo[ld wo]rld" -> "boXrld"
        XCTAssertEqual(text.string, "Hello boXrld")
        XCTAssertEqual(run(text, "bold")?.range, 6..<8)
        XCTAssertEqual(text.substring(run(text, "bold")!.range), "bo")
        XCTAssertEqual(run(text, "link")?.range, 9..<12)
        XCTAssertEqual(text.substring(run(text, "link")!.range), "rld")
        XCTAssertEqual(text.protectedRanges, [9..<12])
    }

    func testEditSwallowingARunRemovesIt() {
        var text = sample()
        text.replace(5..<11, with: "")               // " bold " goes
        XCTAssertEqual(text.string, "Helloworld")
        XCTAssertNil(run(text, "bold"))
        XCTAssertEqual(run(text, "link")?.range, 5..<10)
        XCTAssertEqual(text.blockIntents.map(\.range), [0..<10, 5..<10])
    }

    func testMultibyteReplacementCountsBytes() {
        var text = sample()
        text.replace(0..<5, with: "日本語😀")          // 5 bytes become 13
        XCTAssertEqual(text.string, "日本語😀 bold world")
        XCTAssertEqual(text.utf8Count, 24)
        XCTAssertEqual(text.substring(run(text, "bold")!.range), "bold")
        XCTAssertEqual(text.substring(text.protectedRanges[0]), "world")
    }

    func testAttachmentsAreProtectedAndFollowEdits() {
        var text = AttributedText("see \u{FFFC} here \u{FFFC}")
        XCTAssertEqual(text.attachmentRanges, [4..<7, 13..<16])
        XCTAssertEqual(text.allProtectedRanges, [4..<7, 13..<16])
        text.replace(0..<3, with: "look at")
        XCTAssertEqual(text.attachmentRanges, [8..<11, 17..<20])
        XCTAssertEqual(text.substring(8..<11), "\u{FFFC}")
        XCTAssertTrue(text.touchesProtectedText(8..<11))
        XCTAssertTrue(text.touchesProtectedText(7..<11))
        XCTAssertTrue(text.touchesProtectedText(0..<text.utf8Count))
        XCTAssertFalse(text.touchesProtectedText(0..<8))
        XCTAssertFalse(text.touchesProtectedText(11..<17))
        // Insertions at the edges of an attachment are fine.
        XCTAssertFalse(text.touchesProtectedText(8..<8))
        XCTAssertFalse(text.touchesProtectedText(11..<11))
    }

    func testDeclaredProtectedRangesAreTouchedByOverlapsAndInnerInsertions() {
        let text = AttributedText("keep `code` here", protectedRanges: [5..<11])
        XCTAssertTrue(text.touchesProtectedText(4..<6))
        XCTAssertTrue(text.touchesProtectedText(10..<12))
        XCTAssertTrue(text.touchesProtectedText(7..<7))
        XCTAssertFalse(text.touchesProtectedText(5..<5))
        XCTAssertFalse(text.touchesProtectedText(11..<11))
        XCTAssertFalse(text.touchesProtectedText(0..<5))
        XCTAssertFalse(text.touchesProtectedText(11..<16))
    }

    func testProtectedRangesAndAttachmentsAreSortedTogether() {
        let text = AttributedText("a \u{FFFC} b code", protectedRanges: [8..<12, 0..<1])
        XCTAssertEqual(text.allProtectedRanges, [0..<1, 2..<5, 8..<12])
        XCTAssertEqual(text.substring(8..<12), "code")
    }

    /// A replace edits the text in its own storage when nothing else holds it: the ledger's
    /// change of a refused 16 MB rewrite, taken back 64 KB a replace, was copied whole by each
    /// replace (a view of the string was held across it).
    func testAReplaceEditsAnUnsharedTextInPlace() {
        var text = AttributedText(String(repeating: "This sentence goes on and on. ", count: 40_000))
        func storage() -> UnsafePointer<UInt8>? { text.string.utf8.withContiguousStorageIfAvailable { $0.baseAddress } ?? nil }
        let before = storage()
        XCTAssertNotNil(before)
        let count = text.utf8Count
        text.replace((count - 65_536)..<count, with: "")
        text.replace(10..<20, with: "")
        XCTAssertEqual(storage(), before, "copied into new storage")
        XCTAssertEqual(text.utf8Count, count - 65_536 - 10)
    }
}
