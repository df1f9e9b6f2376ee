/// Where the inline content of one leaf block (paragraph, heading, table cell) lies in the
/// source, so that cmark's inline positions become byte offsets.
///
/// Why not read cmark-gfm 0.29's inline positions as they are: they are right on a block's
/// first line only. On later lines the column counts from the line's content (after the
/// container's marks and the leading spaces cmark strips) plus the block's start column;
/// after a code span or inline HTML that spans lines, the line number stays behind and the
/// column runs on past the line's end; link reference definitions that open a paragraph are
/// removed without moving its start. This type models exactly that: the content is the
/// block's lines joined, each from its content start, and a position is an offset into it
/// from the start of an anchor line the caller keeps (`InlineProtection` moves it at each
/// line break and by the line breaks inside the spans it has located). Every range found this
/// way is checked against the source by the caller, which protects the whole block if one
/// does not match (a missed correction costs less than a changed link).
struct LeafContent {
    let lines: SourceLines
    /// First and last line of the content.
    let first: Int
    let last: Int
    /// The block's start column, which cmark adds to every inline column.
    let baseColumn: Int
    /// Where each line's content starts (index: line - first).
    private var contentStarts: [Int] = []
    /// The content offset each line starts at, plus the total (count: lines + 1).
    private var offsets: [Int] = []

    init(lines: SourceLines, first: Int, last: Int, firstStart: Int, baseColumn: Int) {
        self.lines = lines
        self.first = first
        self.last = max(first, last)
        self.baseColumn = baseColumn
        var total = 0
        for line in first...self.last {
            let start = line == first ? firstStart : lines.firstNonSpace(line)
            contentStarts.append(start)
            offsets.append(total)
            total += max(lines.next(line) - start, 0)
        }
        offsets.append(total)
    }

    /// The byte at cmark's inline column `column` reported while the inline parser was on the
    /// content line `anchor`; nil outside the content.
    func byte(anchor: Int, column: Int) -> Int? {
        guard anchor >= first, anchor <= last, column >= 1 else { return nil }
        let offset = offsets[anchor - first] + column - baseColumn
        guard offset >= 0, offset < offsets[offsets.count - 1] else { return nil }
        var k = anchor - first
        while offsets[k + 1] <= offset { k += 1 }
        return contentStarts[k] + offset - offsets[k]
    }
}
