import EmendText

/// Positions of offsets taken in (mostly) increasing order, each counted on from the last
/// instead of from its line's start: a paragraph is often one long line, and a publish of a
/// large document turns thousands of offsets into positions.
struct PositionCursor {
    let document: TextDocument
    let encoding: PositionEncoding
    private var offset = 0
    private var line = 0
    private var character = 0

    init(document: TextDocument, encoding: PositionEncoding) {
        self.document = document
        self.encoding = encoding
    }

    mutating func position(of target: Int) -> LSPPosition {
        let target = max(0, min(target, document.bytes.count))
        let starts = document.lines.starts
        if target < offset || (line + 1 < starts.count && starts[line + 1] <= target) {
            line = document.lines.line(containing: target)
            offset = starts[line]
            character = 0
        }
        let bytes = document.bytes
        while offset < target {
            let width = TextDocument.sequenceWidth(bytes[offset])
            character += encoding == .utf8 ? width : encoding == .utf16 ? (width == 4 ? 2 : 1) : 1
            offset += width
        }
        return LSPPosition(line: line, character: character)
    }
}
