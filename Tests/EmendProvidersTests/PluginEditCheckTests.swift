import XCTest
import EmendText
@testable import EmendProviders

/// The edit check of one run takes edits in any order (a plugin may emit from the end of the
/// text backwards) and refuses exactly the ones that collide with an edit taken before,
/// whatever the order: checked against a plain model over thousands of edits, in blocks'
/// worth beyond one block (SortedRanges).
final class PluginEditCheckTests: XCTestCase {
    func testEditsInAnyOrderAreTakenAndCollisionsRefused() {
        let words = 5_000
        let text = [UInt8](repeating: 0x61, count: 4 * words)
        // Disjoint edits: a replace of bytes 4i..<4i+2 and an insertion at 4i+3, for each i.
        var edits: [Range<Int>] = []
        for i in 0..<words { edits += [(4 * i)..<(4 * i + 2), (4 * i + 3)..<(4 * i + 3)] }
        var generator = SystemRandomNumberGenerator()
        let orders: [(String, [Range<Int>])] = [("ascending", edits), ("descending", edits.reversed()),
                                                ("shuffled", edits.shuffled(using: &generator))]
        for (name, order) in orders {
            text.withUnsafeBufferPointer { bytes in
                var check = PluginEditCheck(text: bytes, selection: 0..<text.count, protectedText: AttributedText(""))
                for edit in order {
                    XCTAssertNil(check.problem(start: edit.lowerBound, end: edit.upperBound), "\(name): \(edit)")
                    check.accept(edit)
                }
                // Every collision with what was taken is refused; what touches only at an edge is not.
                for i in stride(from: 0, to: words, by: 97) {
                    XCTAssertNotNil(check.problem(start: 4 * i + 1, end: 4 * i + 2), "\(name): overlap")
                    XCTAssertNotNil(check.problem(start: 4 * i + 1, end: 4 * i + 1), "\(name): an insertion inside")
                    XCTAssertNotNil(check.problem(start: 4 * i + 3, end: 4 * i + 3), "\(name): a second insertion there")
                    XCTAssertNotNil(check.problem(start: 4 * i + 2, end: 4 * i + 4), "\(name): across an insertion")
                    XCTAssertNil(check.problem(start: 4 * i + 2, end: 4 * i + 3), "\(name): between, touching at the edges")
                }
            }
        }
    }
}
