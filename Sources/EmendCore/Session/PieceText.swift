import EmendText

/// Bytes of a text read a range at a time: a string's own, or a `PieceText`'s.
protocol TextBytes {
    /// The text's length in UTF-8 bytes.
    var utf8Count: Int { get }
    /// Runs `body` with the bytes of `range` (in place where they lie together).
    func withBytes<Value>(_ range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) -> Value) -> Value
}

extension String: TextBytes {
    var utf8Count: Int { utf8.count }

    func withBytes<Value>(_ range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) -> Value) -> Value {
        var text = self
        return text.withUTF8 { body(UnsafeBufferPointer(rebasing: $0[range])) }
    }
}

/// The engine's text while its context's rope is built: the original, shared as it came,
/// and the edits since as pieces of the texts they inserted.
///
/// Why: the text was one string edited in place, and the original's storage is shared with
/// the thread that builds the rope, so the engine's first edit copied the whole text (a 10 MB
/// document: 7 ms of its call) and every edit before its end moved the rest (2 ms). An edit
/// now costs the pieces (two per edit of the window, a handful as a rule); reading a range
/// costs the range. The whole text is made only for a getter of it (`string`).
struct PieceText: TextBytes {
    private enum Source {
        case original
        /// `inserted[index]`
        case inserted(Int)
    }

    private struct Piece {
        var source: Source
        /// Bytes of its source.
        var range: Range<Int>
    }

    private let original: String
    private var inserted: [String] = []
    private var pieces: [Piece]
    private(set) var utf8Count: Int

    init(_ original: String) {
        self.original = original
        utf8Count = original.utf8.count
        pieces = utf8Count == 0 ? [] : [Piece(source: .original, range: 0..<utf8Count)]
    }

    /// Replaces `range` (in bounds) with `text`: the pieces before it, the replacement's, and
    /// those after it (a piece the range is inside becomes two).
    mutating func replace(_ range: Range<Int>, with text: String) {
        var before: [Piece] = [], after: [Piece] = []
        var start = 0
        for piece in pieces {
            let end = start + piece.range.count
            func part(_ part: Range<Int>) -> Piece {
                Piece(source: piece.source, range: (piece.range.lowerBound + part.lowerBound - start)..<(piece.range.lowerBound + part.upperBound - start))
            }
            if start < range.lowerBound { before.append(part(start..<min(end, range.lowerBound))) }
            if end > range.upperBound { after.append(part(max(start, range.upperBound)..<end)) }
            start = end
        }
        if !text.utf8.isEmpty {
            before.append(Piece(source: .inserted(inserted.count), range: 0..<text.utf8.count))
            inserted.append(text)
        }
        pieces = before + after
        utf8Count += text.utf8.count - range.count
    }

    func withBytes<Value>(_ range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) -> Value) -> Value {
        guard !range.isEmpty else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
        var start = 0
        for piece in pieces {
            let end = start + piece.range.count
            if range.lowerBound < end {
                // In one piece: its bytes in place.
                guard range.upperBound <= end else { break }
                let from = piece.range.lowerBound + range.lowerBound - start
                return text(of: piece.source).withBytes(from..<(from + range.count), body)
            }
            start = end
        }
        // Across pieces: copied together.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(range.count)
        start = 0
        for piece in pieces {
            let end = start + piece.range.count
            defer { start = end }
            guard end > range.lowerBound, start < range.upperBound else { continue }
            let from = piece.range.lowerBound + max(range.lowerBound, start) - start
            let to = piece.range.lowerBound + min(range.upperBound, end) - start
            text(of: piece.source).withBytes(from..<to) { bytes.append(contentsOf: $0) }
        }
        return bytes.withUnsafeBufferPointer(body)
    }

    /// The bytes of `range` as a string.
    func substring(_ range: Range<Int>) -> String {
        withBytes(range) { String(decoding: $0, as: UTF8.self) }
    }

    /// The whole text (costs its length: for a getter of the whole text).
    var string: String {
        if pieces.count == 1, case .original = pieces[0].source, pieces[0].range == 0..<original.utf8.count { return original }
        return substring(0..<utf8Count)
    }

    private func text(of source: Source) -> String {
        switch source {
        case .original: original
        case .inserted(let index): inserted[index]
        }
    }
}
