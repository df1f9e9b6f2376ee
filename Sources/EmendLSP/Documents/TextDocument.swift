import EmendText

/// One open document as the client last described it: its UTF-8 bytes, line index, language
/// and version. Positions come in the negotiated encoding and are turned into byte offsets
/// here, the only place that knows both.
public struct TextDocument: Sendable {
    public let uri: String
    public var languageID: String
    public var version: Int
    public private(set) var bytes: [UInt8]
    private(set) var lines: LineIndex

    public init(uri: String, languageID: String, version: Int, text: [UInt8]) {
        self.uri = uri
        self.languageID = languageID
        self.version = version
        self.bytes = text
        self.lines = LineIndex(text)
    }

    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// End of line `line`'s content (before its break).
    private func contentEnd(ofLine line: Int) -> Int {
        let next = line + 1 < lines.lineCount ? lines.starts[line + 1] : bytes.count
        var end = next
        if end > lines.starts[line] && bytes[end - 1] == 0x0A { end -= 1 }
        if end > lines.starts[line] && bytes[end - 1] == 0x0D { end -= 1 }
        return end
    }

    /// The byte offset of `position`. A line past the end is an error; a character past the
    /// end of its line means the line's end (LSP 3.17: "defaults back to the line length");
    /// a character inside a UTF-8 sequence or between the halves of a surrogate pair is an
    /// error, since it names no place in the text.
    public func offset(of position: LSPPosition, encoding: PositionEncoding) throws(ResponseError) -> Int {
        if position.line == lines.lineCount && position.character == 0 { return bytes.count }
        guard position.line < lines.lineCount else {
            throw .invalidParams("line \(position.line) is past the end of the document (\(lines.lineCount) lines)")
        }
        let start = lines.starts[position.line]
        let end = contentEnd(ofLine: position.line)
        var offset = start
        var units = 0
        while offset < end && units < position.character {
            let width = TextDocument.sequenceWidth(bytes[offset])
            units += encoding == .utf8 ? width : encoding == .utf16 ? (width == 4 ? 2 : 1) : 1
            offset += width
        }
        if units > position.character {
            throw .invalidParams("character \(position.character) of line \(position.line) falls inside a character (\(PositionEncodingKind.name(of: encoding)))")
        }
        return min(offset, end)
    }

    /// The position of byte `offset` (on a character boundary, within the text).
    public func position(of offset: Int, encoding: PositionEncoding) -> LSPPosition {
        let offset = max(0, min(offset, bytes.count))
        let line = lines.line(containing: offset)
        var i = lines.starts[line]
        var units = 0
        while i < offset {
            let width = TextDocument.sequenceWidth(bytes[i])
            units += encoding == .utf8 ? width : encoding == .utf16 ? (width == 4 ? 2 : 1) : 1
            i += width
        }
        return LSPPosition(line: line, character: units)
    }

    public func byteRange(of range: LSPRange, encoding: PositionEncoding) throws(ResponseError) -> Range<Int> {
        let start = try offset(of: range.start, encoding: encoding)
        let end = try offset(of: range.end, encoding: encoding)
        return start..<max(start, end)
    }

    public func lspRange(of range: Range<Int>, encoding: PositionEncoding) -> LSPRange {
        LSPRange(start: position(of: range.lowerBound, encoding: encoding), end: position(of: range.upperBound, encoding: encoding))
    }

    /// Replaces `range` (bytes) with `text`.
    public mutating func replace(_ range: Range<Int>, with text: [UInt8]) {
        bytes.replaceSubrange(range, with: text)
        lines.replace(range, newCount: text.count, in: bytes)
    }

    public mutating func replaceAll(with text: [UInt8]) {
        bytes = text
        lines = LineIndex(text)
    }

    /// Bytes in a UTF-8 sequence by its lead byte (a stray continuation byte counts one; the
    /// text was validated when it arrived).
    static func sequenceWidth(_ lead: UInt8) -> Int {
        if lead < 0x80 { return 1 }
        if lead >= 0xF0 { return 4 }
        if lead >= 0xE0 { return 3 }
        if lead >= 0xC0 { return 2 }
        return 1
    }
}
