import XCTest
import EmendText

/// A rope's snapshot keeps the bytes as they were when it was taken, whatever the rope's
/// edits after (in one chunk, across chunks, a chunk split or merged, the whole text), and
/// a snapshot read on another thread while the rope is edited reads the same.
final class TextRopeSnapshotTests: XCTestCase {
    /// Several chunks of text, each line numbered.
    private static let text = (0..<600).map { "Line \($0) has words é and more.\n" }.joined()

    private func bytes(_ string: String) -> [UInt8] { Array(string.utf8) }

    func testASnapshotKeepsTheTextAsItWasThroughEveryKindOfEdit() {
        let length = Self.text.utf8.count
        let ranges = [0..<length, 100..<9_000, 4_000..<4_010, 0..<0, (length - 50)..<length]
        let edits: [(Range<Int>, String)] = [
            (4_002..<4_003, "X"),                      // in place, one chunk
            (0..<0, String(repeating: "grown ", count: 600)),   // a chunk split
            (3_000..<7_000, ""),                       // across chunks, merged
            (0..<1_000, "whole"),
        ]
        for range in ranges {
            let rope = TextRope(Self.text)
            let snapshot = rope.snapshot(range)
            let before = rope.substring(range)
            var expected = Self.text
            for (edited, replacement) in edits {
                let clamped = min(edited.lowerBound, rope.utf8Count)..<min(edited.upperBound, rope.utf8Count)
                rope.replace(clamped, with: replacement.utf8)
                var utf8 = Array(expected.utf8)
                utf8.replaceSubrange(clamped, with: Array(replacement.utf8))
                expected = String(decoding: utf8, as: UTF8.self)
                XCTAssertEqual(bytes(snapshot.string), bytes(before), "\(range) after replacing \(clamped)")
            }
            XCTAssertEqual(snapshot.count, range.count)
            XCTAssertEqual(bytes(rope.string), bytes(expected), "the rope took every edit")
        }
    }

    func testASnapshotReadOnAnotherThreadWhileTheRopeIsEditedReadsTheTextAsItWas() throws {
        let text = String(repeating: "plain words only ", count: 1_000)   // ASCII: any offset is a boundary
        let rope = TextRope(text)
        let snapshot = rope.snapshot(0..<rope.utf8Count)
        final class Box: @unchecked Sendable { var read: [String] = [] }
        let box = Box()
        let reader = Thread { for _ in 0..<20 { box.read.append(snapshot.string) } }
        reader.start()
        // Every chunk edited in place while the reader copies.
        for round in 0..<20 {
            for offset in stride(from: 0, to: rope.utf8Count - 8, by: 500) { rope.replace(offset..<(offset + 1), with: Array("\(round % 10)".utf8)) }
        }
        while !reader.isFinished { usleep(1_000) }
        XCTAssertEqual(box.read.count, 20)
        for read in box.read { XCTAssertEqual(bytes(read), bytes(text)) }
        XCTAssertNotEqual(bytes(rope.string), bytes(text))
    }
}
