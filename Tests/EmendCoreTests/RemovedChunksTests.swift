import XCTest
@testable import EmendCore
import EmendText

/// A context's rope hands the chunks a long replace takes out to a thread of their own to be
/// freed (`TextRope.letGoOfRemoved`), whether the rope was built here or elsewhere; the text
/// and the anchors after the replace are as before.
final class RemovedChunksTests: XCTestCase {
    private static let original = String(repeating: "Words go on and on. ", count: 50_000)   // 1 MB
    private static let sentence = "The text is short. "

    func testAContextBuiltHereFreesLongRemovalsElsewhere() throws {
        let description = ContextDescription(text: AttributedText(Self.original), selection: 0..<0)
        try checkLongRemoval(SessionContext(id: 1, description: description))
    }

    func testAContextBuiltElsewhereFreesLongRemovalsElsewhere() throws {
        let description = ContextDescription(text: AttributedText(Self.original), selection: 0..<0)
        let context = SessionContext(id: 1, buildingFrom: description)
        XCTAssertTrue(context.finishBuilding(DocumentText(description.text)).isEmpty)
        try checkLongRemoval(context)
    }

    private func checkLongRemoval(_ context: SessionContext, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertNotNil(context.text.rope.letGoOfRemoved, "the rope frees long removals elsewhere", file: file, line: line)
        let count = Self.original.utf8.count
        let before = context.anchor(0..<5), after = context.anchor((count - 4)..<count)
        let region = 20..<(count - 20)
        context.apply(region, Self.sentence)
        var expected = Array(Self.original.utf8)
        expected.replaceSubrange(region, with: Array(Self.sentence.utf8))
        XCTAssertEqual(Array(context.text.string.utf8), expected, file: file, line: line)
        XCTAssertEqual(before.range, 0..<5, file: file, line: line)
        XCTAssertEqual(after.range, (expected.count - 4)..<expected.count, file: file, line: line)
        // And back: the original byte for byte.
        context.apply(20..<(20 + Self.sentence.utf8.count), String(decoding: Array(Self.original.utf8)[region], as: UTF8.self))
        XCTAssertEqual(context.text.string, Self.original, file: file, line: line)
    }
}
