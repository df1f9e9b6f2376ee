/// Paragraph boundaries on UTF-8 bytes: every line break ends a paragraph, which also takes the
/// blank (whitespace-only) lines after it and, at the end of the text, trailing whitespace.
enum ParagraphScanner {
    /// Length of the line break starting at `i` (CR LF counts as one), or 0.
    @inline(__always)
    static func lineBreakLength(at i: Int, in bytes: [UInt8]) -> Int {
        let b = bytes[i]
        if b < 0x80 {
            if b == 0x0D { return i + 1 < bytes.count && bytes[i + 1] == 0x0A ? 2 : 1 }
            return b >= 0x0A && b <= 0x0C ? 1 : 0
        }
        let (v, len) = UTF8Scan.scalar(at: i, in: bytes)
        return ScalarTraits.isLineBreak(v) ? len : 0
    }

    /// Whether a line break ends just before byte `i`.
    static func followsLineBreak(_ i: Int, in bytes: [UInt8]) -> Bool {
        guard i > 0 else { return false }
        if i < bytes.count && bytes[i] == 0x0A && bytes[i - 1] == 0x0D { return false }
        let start = UTF8Scan.scalarStart(before: i, in: bytes)
        let (v, len) = UTF8Scan.scalar(at: start, in: bytes)
        return start + len == i && ScalarTraits.isLineBreak(v)
    }

    /// The end of the blank lines starting at `p` (`p` itself when the line at `p` has text).
    static func blankLinesEnd(from p: Int, in bytes: [UInt8]) -> Int {
        var p = p
        let n = bytes.count
        while p < n {
            var k = p
            while k < n {
                let breakLength = lineBreakLength(at: k, in: bytes)
                if breakLength > 0 { k += breakLength; break }
                let (v, len) = UTF8Scan.scalar(at: k, in: bytes)
                if !ScalarTraits.isWhitespace(v) { return p }
                k += len
            }
            p = k
        }
        return p
    }

    /// All paragraphs, in order, covering the text.
    static func paragraphs(in bytes: [UInt8]) -> [Range<Int>] {
        var result: [Range<Int>] = []
        let n = bytes.count
        var start = 0
        var i = 0
        while i < n {
            let breakLength = lineBreakLength(at: i, in: bytes)
            if breakLength > 0 {
                let end = blankLinesEnd(from: i + breakLength, in: bytes)
                result.append(start..<end)
                start = end
                i = end
            } else {
                i += bytes[i] < 0x80 ? 1 : UTF8Scan.scalar(at: i, in: bytes).length
            }
        }
        if start < n { result.append(start..<n) }
        return result
    }

    /// Whether a paragraph starts at byte `q` (0 < q < count).
    static func isParagraphStart(_ q: Int, in bytes: [UInt8]) -> Bool {
        followsLineBreak(q, in: bytes) && blankLinesEnd(from: q, in: bytes) == q
    }

    /// The paragraph that contains byte `p` (`0 <= p < count`).
    static func paragraph(containing p: Int, in bytes: [UInt8]) -> Range<Int> {
        var start = p
        while start > 0 && !isParagraphStart(start, in: bytes) { start -= 1 }
        var i = p
        let n = bytes.count
        while i < n {
            let breakLength = lineBreakLength(at: i, in: bytes)
            if breakLength > 0 { return start..<blankLinesEnd(from: i + breakLength, in: bytes) }
            i += 1
        }
        return start..<n
    }
}
