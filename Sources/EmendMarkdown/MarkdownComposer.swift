/// Writes the blocks the segmentation found as Markdown: paragraphs, headings, lists,
/// tables, fenced code and quotes, separated by blank lines (list items and table rows by
/// single newlines).
struct MarkdownComposer {
    let source: SourceText
    /// Style runs of the whole written part, by scalar indices.
    let runs: [StyleRun]
    var numbering: PlaceholderNumbering

    mutating func compose(_ blocks: [WriterBlock]) -> String {
        var markdown = ""
        var list = ListLayout()
        var previous: WriterBlock?
        var index = 0
        while index < blocks.count {
            let block = blocks[index]
            var text: String
            var separator = "\n\n"
            switch block.kind {
            case .paragraph:
                text = lines(block.range, .paragraph).joined(separator: "\n")
                if text.isEmpty { index += 1; continue }
            case .heading(let level):
                let content = lines(block.range, .heading).joined()
                text = String(repeating: "#", count: level) + (content.isEmpty ? "" : " " + content)
            case .listItem(let depth, let ordinal):
                let continues: Bool
                if case .listItem? = previous?.kind { continues = block.gap == .newline } else { continues = false }
                if !continues {
                    var previousWasList = false
                    if case .listItem? = previous?.kind { previousWasList = true }
                    list = ListLayout(alternate: previousWasList && !list.alternate)
                }
                let content = lines(block.range, .paragraph)
                let placement = list.place(depth: depth, ordinal: ordinal, isEmpty: content == [""])
                text = listItem(content, placement)
                if continues && !placement.blankLineBefore { separator = "\n" }
            case .tableCell:
                var end = index + 1
                while end < blocks.count, case .tableCell = blocks[end].kind, blocks[end].gap == .tab || blocks[end].gap == .newline {
                    end += 1
                }
                text = table(Array(blocks[index..<end]))
                index = end - 1
            case .codeBlock:
                text = codeBlock(block.range)
            case .blockQuote:
                text = lines(block.range, .paragraph).map { $0.isEmpty ? ">" : "> " + $0 }.joined(separator: "\n")
            }
            if previous != nil { markdown += separator }
            markdown += text
            previous = blocks[index]
            index += 1
        }
        return markdown
    }

    /// The inline Markdown of a range, as lines.
    private mutating func lines(_ range: Range<Int>, _ context: InlineContext) -> [String] {
        let atoms = numbering.atoms(of: range, in: source)
        let pieces = InlineComposition(context: context).pieces(atoms, runs: blockRuns(range))
        return InlineEscaping(context: context).lines(pieces)
    }

    /// The runs over `range`, clipped to it; emphasis, strong and strikethrough without
    /// spaces at their ends (Markdown delimiters cannot stand next to them).
    private func blockRuns(_ range: Range<Int>) -> [StyleRun] {
        runs.compactMap { run in
            var lower = max(run.range.lowerBound, range.lowerBound), upper = min(run.range.upperBound, range.upperBound)
            switch run.style {
            case .emphasis, .strong, .strikethrough:
                while lower < upper, source.scalars[lower].properties.isWhitespace { lower += 1 }
                while lower < upper, source.scalars[upper - 1].properties.isWhitespace { upper -= 1 }
            case .code, .link: break
            }
            return lower < upper ? StyleRun(style: run.style, range: lower..<upper) : nil
        }
    }

    private func listItem(_ lines: [String], _ placement: ListLayout.Placement) -> String {
        let indent = String(repeating: " ", count: placement.indent)
        let continuation = String(repeating: " ", count: placement.contentColumn)
        var text = indent + placement.marker + (lines[0].isEmpty ? "" : " " + lines[0])
        for line in lines.dropFirst() { text += "\n" + continuation + line }
        return text
    }

    /// A GFM table: the first row is the header, rows padded to the widest.
    private mutating func table(_ cells: [WriterBlock]) -> String {
        var rows: [[String]] = []
        var currentRow: Int?
        for cell in cells {
            guard case .tableCell(let row, _) = cell.kind else { continue }
            if rows.isEmpty || cell.gap == .newline || row != currentRow { rows.append([]) }
            currentRow = row
            rows[rows.count - 1].append(lines(cell.range, .cell).joined())
        }
        let columns = rows.map(\.count).max() ?? 0
        let line = { (cells: [String]) -> String in
            "|" + (cells + Array(repeating: "", count: columns - cells.count)).map { $0.isEmpty ? " |" : " " + $0 + " |" }.joined()
        }
        var text = [line(rows[0]), "|" + String(repeating: " --- |", count: columns)]
        text += rows.dropFirst().map(line)
        return text.joined(separator: "\n")
    }

    /// A fenced code block with a fence longer than any backtick run in the code.
    private mutating func codeBlock(_ range: Range<Int>) -> String {
        let code = numbering.atoms(of: range, in: source).map(\.text).joined()
        let fence = String(repeating: "`", count: max(3, Backticks.longestRun(in: code) + 1))
        return fence + "\n" + (code.isEmpty ? "" : code + "\n") + fence
    }
}
