/// The lines of a Markdown source as cmark counts them (1-based; a line ends at "\n", "\r\n"
/// or a lone "\r"), so that cmark's line and column (a 1-based byte column) become byte offsets.
struct SourceLines {
    let bytes: [UInt8]
    /// Byte offset where each line starts; index 0 is line 1.
    private let starts: [Int]
    /// Byte offset where each line's content ends (before its line break).
    private let ends: [Int]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var starts = [0]
        var ends: [Int] = []
        var i = 0
        while i < bytes.count {
            let c = bytes[i]
            if c == 0x0A || c == 0x0D {
                ends.append(i)
                if c == 0x0D && i + 1 < bytes.count && bytes[i + 1] == 0x0A { i += 1 }
                starts.append(i + 1)
            }
            i += 1
        }
        ends.append(bytes.count)
        self.starts = starts
        self.ends = ends
    }

    var count: Int { starts.count }

    /// Clamps a cmark line number to the lines there are.
    private func index(_ line: Int) -> Int { min(max(line, 1), starts.count) - 1 }

    func start(_ line: Int) -> Int { starts[index(line)] }
    func contentEnd(_ line: Int) -> Int { ends[index(line)] }
    /// Where the next line starts (the end of the text after the last line).
    func next(_ line: Int) -> Int { line >= starts.count ? bytes.count : starts[index(line + 1)] }

    /// The first byte of the line that is neither a space nor a tab (its end if none is).
    func firstNonSpace(_ line: Int) -> Int {
        var i = start(line)
        let end = contentEnd(line)
        while i < end && (bytes[i] == 0x20 || bytes[i] == 0x09) { i += 1 }
        return i
    }

    func isBlank(_ line: Int) -> Bool { firstNonSpace(line) == contentEnd(line) }

    /// The byte at cmark's (line, column), clamped to the line.
    func offset(line: Int, column: Int) -> Int {
        min(start(line) + max(column - 1, 0), contentEnd(line))
    }

    /// The last line a block whose cmark end is (line, column) really covers: cmark ends some
    /// blocks (indented code, lists) at column 0 of the line after them.
    func lastLine(line: Int, column: Int) -> Int { column <= 0 && line > 1 ? line - 1 : line }

    func newlines(in range: Range<Int>) -> Int {
        var count = 0
        var i = range.lowerBound
        while i < range.upperBound {
            if bytes[i] == 0x0A || (bytes[i] == 0x0D && !(i + 1 < bytes.count && bytes[i + 1] == 0x0A)) { count += 1 }
            i += 1
        }
        return count
    }
}
