import XCTest
import Glibc
@testable import EmendText

/// The rope against a plain byte array: random edits of every size (within a chunk, across
/// chunks, the whole text), marks that follow them, and offsets in every encoding.
final class TextRopeTests: XCTestCase {
    private static let pieces = ["a", "bc", "é", "日本", "😀", " ", "\n", "word ", String(repeating: "x", count: 700),
                                 String(repeating: "ü", count: 400)]

    func testRandomEditsAgreeWithAByteModel() throws {
        var rng = SystemRandomNumberGenerator()
        for round in 0..<20 {
            var model = Array(String((0..<Int.random(in: 0...40, using: &rng)).map { _ in Self.pieces.randomElement(using: &rng)! }.joined()).utf8)
            let rope = TextRope(String(decoding: model, as: UTF8.self))
            var marks: [Int: Int] = [:]
            for step in 0..<600 {
                let bounds = boundaries(model)
                let x = bounds.randomElement(using: &rng)!, y = bounds.randomElement(using: &rng)!
                let range = min(x, y)..<max(x, y)
                switch Int.random(in: 0..<10, using: &rng) {
                case 0...5:
                    let count = Int.random(in: 0...(range.isEmpty ? 6 : 2), using: &rng)
                    let text = Array((0..<count).map { _ in Self.pieces.randomElement(using: &rng)! }.joined().utf8)
                    let delta = text.count - range.count
                    model.replaceSubrange(range, with: text)
                    rope.replace(range, with: text)
                    for (id, p) in marks {
                        marks[id] = p <= range.lowerBound ? p : p >= range.upperBound ? p + delta : range.lowerBound
                    }
                case 6, 7:
                    let id = Int.random(in: 0..<40, using: &rng)
                    rope.setMark(id, at: x)
                    marks[id] = x
                case 8:
                    let id = Int.random(in: 0..<40, using: &rng)
                    rope.removeMark(id)
                    marks[id] = nil
                default:
                    let found = Set(rope.marks(in: range.lowerBound...range.upperBound))
                    XCTAssertEqual(found, Set(marks.filter { range.contains($0.value) || $0.value == range.upperBound }.keys), "round \(round) step \(step)")
                }
                XCTAssertEqual(rope.utf8Count, model.count)
                for (id, p) in marks { XCTAssertEqual(rope.position(ofMark: id), p, "mark \(id), round \(round) step \(step)") }
                if step % 25 == 0 { try checkContents(rope, model) }
            }
            try checkContents(rope, model)
        }
    }

    private func checkContents(_ rope: TextRope, _ model: [UInt8]) throws {
        let text = String(decoding: model, as: UTF8.self)
        XCTAssertEqual(rope.string, text)
        let converter = PositionConverter(text)
        for encoding in PositionEncoding.allCases {
            XCTAssertEqual(rope.length(in: encoding), converter.length(in: encoding))
        }
        let bounds = boundaries(model)
        for offset in bounds.shuffled().prefix(40) {
            for encoding in PositionEncoding.allCases {
                let there = try converter.offset(fromUTF8: offset, to: encoding)
                XCTAssertEqual(try rope.offset(fromUTF8: offset, to: encoding), there)
                XCTAssertEqual(try rope.utf8Offset(there, from: encoding), offset)
            }
            let end = bounds.randomElement()!
            if end >= offset {
                XCTAssertEqual(rope.bytes(offset..<end), Array(model[offset..<end]))
                XCTAssertEqual(rope.substring(offset..<end), String(decoding: model[offset..<end], as: UTF8.self))
                var pieces: [UInt8] = []
                rope.forEachChunk(in: offset..<end) { bytes, at in
                    XCTAssertEqual(at, offset + pieces.count, "each part says where it is")
                    pieces += bytes
                }
                XCTAssertEqual(pieces, Array(model[offset..<end]))
            }
        }
        // Offsets inside a character, and past the end, are refused as the converter refuses them.
        for encoding in PositionEncoding.allCases {
            let length = converter.length(in: encoding)
            for offset in [length + 1, -1] + (0..<min(length, 30)).map({ _ in Int.random(in: 0...max(0, length - 1)) }) {
                let expected = Result { () throws(PositionError) in try converter.utf8Offset(offset, from: encoding) }
                let got = Result { () throws(PositionError) in try rope.utf8Offset(offset, from: encoding) }
                XCTAssertEqual(String(describing: got), String(describing: expected), "\(encoding) \(offset)")
            }
        }
    }

    private func boundaries(_ bytes: [UInt8]) -> [Int] {
        (0...bytes.count).filter { $0 == bytes.count || bytes[$0] & 0xC0 != 0x80 }
    }

    /// Replacements of many chunks (a rewrite delivered whole, the original put back by
    /// revert) are cut straight from their own bytes: contents, marks and offsets in every
    /// encoding stay those of the byte model, wherever they go and whatever their characters.
    func testLongReplacementsAgreeWithAByteModel() throws {
        var rng = SystemRandomNumberGenerator()
        func text(_ count: Int) -> [UInt8] {
            Array((0..<count).map { _ in Self.pieces.randomElement(using: &rng)! }.joined().utf8)
        }
        var model = text(60)
        let rope = TextRope(String(decoding: model, as: UTF8.self))
        var marks: [Int: Int] = [:]
        for id in 0..<20 {
            marks[id] = boundaries(model).randomElement(using: &rng)!
            rope.setMark(id, at: marks[id]!)
        }
        var long = 0
        for step in 0..<40 {
            let bounds = boundaries(model)
            let x = bounds.randomElement(using: &rng)!, y = bounds.randomElement(using: &rng)!
            // Anywhere, at the start, or at the end; the whole text now and then.
            let range = [min(x, y)..<max(x, y), 0..<min(x, y), max(x, y)..<model.count, 0..<model.count][step % 4]
            let replacement = text(Int.random(in: 40...200, using: &rng))
            if replacement.count >= 4 * TextRope.maximumChunk { long += 1 }
            let delta = replacement.count - range.count
            model.replaceSubrange(range, with: replacement)
            if step % 2 == 0 {
                rope.replace(range, with: replacement)
            } else {
                rope.replace(range, with: String(decoding: replacement, as: UTF8.self).utf8)
            }
            for (id, p) in marks { marks[id] = p <= range.lowerBound ? p : p >= range.upperBound ? p + delta : range.lowerBound }
            XCTAssertEqual(rope.utf8Count, model.count)
            for (id, p) in marks { XCTAssertEqual(rope.position(ofMark: id), p, "mark \(id), step \(step)") }
            try checkContents(rope, model)
        }
        XCTAssertGreaterThan(long, 10, "most replacements are cut from their own bytes")
    }

    /// A long replacement cut and counted elsewhere (`PreparedReplacement`, made on the thread
    /// that plans a rewrite's delivery) gives the rope the same contents, marks and offsets in
    /// every encoding as the one cut in the replace, wherever it goes; a short one is not
    /// prepared.
    func testPreparedReplacementsAgreeWithAByteModel() throws {
        var rng = SystemRandomNumberGenerator()
        func text(_ count: Int) -> [UInt8] {
            Array((0..<count).map { _ in Self.pieces.randomElement(using: &rng)! }.joined().utf8)
        }
        XCTAssertNil(PreparedReplacement(Array("short".utf8)), "a replacement of a few chunks is cut in the replace")
        var model = text(60)
        let rope = TextRope(String(decoding: model, as: UTF8.self))
        var marks: [Int: Int] = [:]
        for id in 0..<20 {
            marks[id] = boundaries(model).randomElement(using: &rng)!
            rope.setMark(id, at: marks[id]!)
        }
        var prepared = 0
        for step in 0..<24 {
            let bounds = boundaries(model)
            let x = bounds.randomElement(using: &rng)!, y = bounds.randomElement(using: &rng)!
            let range = [min(x, y)..<max(x, y), 0..<min(x, y), max(x, y)..<model.count, 0..<model.count][step % 4]
            let replacement = text(Int.random(in: 40...200, using: &rng))
            let made = PreparedReplacement(replacement)
            XCTAssertEqual(made == nil, replacement.count < 4 * TextRope.maximumChunk)
            if made != nil { prepared += 1 }
            let delta = replacement.count - range.count
            model.replaceSubrange(range, with: replacement)
            rope.replace(range, with: String(decoding: replacement, as: UTF8.self).utf8, prepared: made)
            for (id, p) in marks { marks[id] = p <= range.lowerBound ? p : p >= range.upperBound ? p + delta : range.lowerBound }
            XCTAssertEqual(rope.utf8Count, model.count)
            for (id, p) in marks { XCTAssertEqual(rope.position(ofMark: id), p, "mark \(id), step \(step)") }
            try checkContents(rope, model)
            // Small edits after it land in the prepared chunks as in any other.
            let at = boundaries(model).randomElement(using: &rng)!
            let typed = text(1)
            model.replaceSubrange(at..<at, with: typed)
            rope.replace(at..<at, with: typed)
            for (id, p) in marks where p > at { marks[id] = p + typed.count }
            try checkContents(rope, model)
        }
        XCTAssertGreaterThan(prepared, 6, "most replacements are prepared")
    }

    /// Replaces that reach the text's end (a result streamed in at the end of the document)
    /// take the index's last entries off and put the new chunks' on instead of rebuilding it:
    /// offsets in every encoding, marks and contents stay those of the byte model.
    func testReplacesAtTheEndKeepTheIndex() throws {
        var rng = SystemRandomNumberGenerator()
        var model = Array("Start é 日本. ".utf8)
        let rope = TextRope(String(decoding: model, as: UTF8.self))
        rope.setMark(0, at: 3)
        var marks: [Int: Int] = [0: 3]
        for step in 0..<300 {
            let bounds = boundaries(model)
            // From somewhere in the last few chunks (or the whole text) to the end.
            let from = bounds.filter { $0 >= max(0, model.count - Int.random(in: 0...5_000, using: &rng)) }.randomElement(using: &rng)!
            let range = from..<model.count
            let count = Int.random(in: 0...12, using: &rng)
            let text = Array((0..<count).map { _ in Self.pieces.randomElement(using: &rng)! }.joined().utf8)
            let delta = text.count - range.count
            model.replaceSubrange(range, with: text)
            rope.replace(range, with: text)
            for (id, p) in marks { marks[id] = p <= range.lowerBound ? p : p >= range.upperBound ? p + delta : range.lowerBound }
            if step % 7 == 0 {
                let id = step % 30 + 1, at = boundaries(model).randomElement(using: &rng)!
                rope.setMark(id, at: at)
                marks[id] = at
            }
            XCTAssertEqual(rope.utf8Count, model.count)
            for (id, p) in marks { XCTAssertEqual(rope.position(ofMark: id), p, "mark \(id), step \(step)") }
            if step % 20 == 0 { try checkContents(rope, model) }
        }
        try checkContents(rope, model)
    }

    /// The prefix sums after values are put on and taken off the end are those of a tree
    /// built from the same values at once.
    func testFenwickAppendAndRemoveLast() {
        var values: [Int] = []
        var tree = FenwickTree([])
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            if !values.isEmpty, Int.random(in: 0..<3, using: &rng) == 0 {
                values.removeLast()
                tree.removeLast()
            } else {
                let value = Int.random(in: 0...50, using: &rng)
                values.append(value)
                tree.append(value)
            }
            let built = FenwickTree(values)
            XCTAssertEqual(tree.count, values.count)
            for n in Set([0, values.count, values.count / 2, Int.random(in: 0...values.count, using: &rng)]) {
                XCTAssertEqual(tree.prefix(n), built.prefix(n))
            }
            let target = Int.random(in: 0...max(0, tree.prefix(values.count)), using: &rng)
            XCTAssertEqual(tree.search(target).index, built.search(target).index)
        }
    }

    func testAnEmptyTextAndDeletingEverything() {
        let rope = TextRope(String(repeating: "abc ", count: 2_000))
        rope.setMark(0, at: 4_000)
        rope.replace(0..<8_000, with: [])
        XCTAssertEqual(rope.string, "")
        XCTAssertEqual(rope.position(ofMark: 0), 0)
        rope.replace(0..<0, with: Array("new".utf8))
        XCTAssertEqual(rope.string, "new")
        XCTAssertEqual(rope.position(ofMark: 0), 0)
    }
}

extension TextRopeTests {
    /// A replace that takes out many chunks hands them to `letGoOfRemoved` (where an owner
    /// frees them on a thread of its own); one that takes out a few frees them itself. The
    /// text and the marks are the same either way, and stay so once the chunks handed over
    /// are freed on another thread.
    func testAReplaceHandsTheManyChunksItTakesOut() throws {
        let line = "Words go on and on. "
        let original = String(repeating: line, count: 40_000)   // 800 KB: hundreds of chunks
        let rope = TextRope(original)
        var handed: [TextRope.RemovedChunks] = []
        rope.letGoOfRemoved = { handed.append($0) }
        rope.setMark(0, at: 20)
        rope.setMark(1, at: original.utf8.count - 20)
        rope.setMark(2, at: 400_000)   // inside what goes: to the replace's start
        // A few chunks out: freed in the replace.
        rope.replace(100..<2_100, with: Array("short".utf8))
        XCTAssertTrue(handed.isEmpty)
        var model = Array(original.utf8)
        model.replaceSubrange(100..<2_100, with: Array("short".utf8))
        // Most of the text out: its chunks are handed over.
        let end = model.count - 1_000
        rope.replace(200..<end, with: Array("The text is short.".utf8))
        model.replaceSubrange(200..<end, with: Array("The text is short.".utf8))
        XCTAssertEqual(handed.count, 1)
        let removed = try XCTUnwrap(handed.first)
        XCTAssertGreaterThanOrEqual(removed.count, TextRope.removedLetGoAt)
        try Self.onAThreadOfItsOwn { removed.letGo() }
        handed = []
        XCTAssertEqual(Array(rope.string.utf8), model)
        XCTAssertEqual(rope.position(ofMark: 0), 20)
        XCTAssertEqual(rope.position(ofMark: 2), 200)
        XCTAssertEqual(rope.position(ofMark: 1), model.count - 20)
        // The rope edits on as before (the chunks around the edit are its own).
        rope.replace(150..<250, with: Array("again".utf8))
        model.replaceSubrange(150..<250, with: Array("again".utf8))
        XCTAssertEqual(Array(rope.string.utf8), model)
    }

    /// Runs `body` on a thread of its own and waits for it.
    private static func onAThreadOfItsOwn(_ body: @escaping () -> Void) throws {
        final class Box { let body: () -> Void; init(_ body: @escaping () -> Void) { self.body = body } }
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { raw in
            Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue().body()
            return nil
        }, box)
        guard started == 0 else { return XCTFail("no thread: \(started)") }
        pthread_join(thread, nil)
    }
}
