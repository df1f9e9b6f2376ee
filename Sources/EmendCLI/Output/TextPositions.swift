import EmendText

/// A place in the text: 1-based line and column, and the offset from the start, both
/// counted in the chosen encoding's units.
struct TextPosition: Equatable {
    let line: Int
    let column: Int
    let offset: Int
    /// UTF-8 offset of the start of the line.
    let lineStart: Int
}

/// Turns UTF-8 byte offsets into lines, columns and offsets in an encoding, walking the text
/// once for offsets asked in increasing order (a 10 MB file with thousands of suggestions
/// stays linear).
struct TextPositions {
    let bytes: [UInt8]
    let encoding: PositionEncoding
    private var byte = 0
    private var line = 1
    private var units = 0
    private var lineStartByte = 0
    private var lineStartUnits = 0

    init(_ bytes: [UInt8], encoding: PositionEncoding) {
        self.bytes = bytes
        self.encoding = encoding
    }

    /// Units of `encoding` that the UTF-8 byte `c` adds.
    static func units(of c: UInt8, in encoding: PositionEncoding) -> Int {
        switch encoding {
        case .utf8: return 1
        case .codePoint: return c & 0xC0 == 0x80 ? 0 : 1
        case .utf16: return c & 0xC0 == 0x80 ? 0 : (c >= 0xF0 ? 2 : 1)
        }
    }

    mutating func position(of target: Int) -> TextPosition {
        if target < byte {
            byte = 0; line = 1; units = 0; lineStartByte = 0; lineStartUnits = 0
        }
        while byte < target && byte < bytes.count {
            let c = bytes[byte]
            units += TextPositions.units(of: c, in: encoding)
            byte += 1
            if c == 0x0A {
                line += 1
                lineStartByte = byte
                lineStartUnits = units
            }
        }
        return TextPosition(line: line, column: units - lineStartUnits + 1, offset: units, lineStart: lineStartByte)
    }

    /// The end of the line that starts at `lineStart` (before its "\n" or "\r\n").
    func lineEnd(from lineStart: Int) -> Int {
        var i = lineStart
        while i < bytes.count && bytes[i] != 0x0A { i += 1 }
        if i > lineStart && bytes[i - 1] == 0x0D { i -= 1 }
        return i
    }

    /// Length of `range` of the text in the encoding's units.
    func length(of range: Range<Int>) -> Int {
        var n = 0
        for i in range where i < bytes.count { n += TextPositions.units(of: bytes[i], in: encoding) }
        return n
    }
}
