import CCmarkGFM

/// Walks cmark-gfm's block tree and collects what `MarkdownProtection` protects: block
/// quotes, code blocks and HTML blocks whole (from their first mark to the end of their last
/// line), table delimiter rows, the inline parts `InlineProtection` finds in paragraphs,
/// headings and table cells, and every non-blank line no block covers (link reference
/// definitions, which cmark keeps as no node).
struct ProtectionWalk {
    let lines: SourceLines
    private(set) var ranges: [Range<Int>] = []
    /// Lines some block covers (index: line - 1).
    private var covered: [Bool]

    init(lines: SourceLines) {
        self.lines = lines
        covered = Array(repeating: false, count: lines.count)
    }

    mutating func walk(_ root: OpaquePointer) -> Bool {
        guard let iterator = cmark_iter_new(root) else { return false }
        defer { cmark_iter_free(iterator) }
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator) else { continue }
            switch CmarkNodeKind(node) {
            case .blockQuote:
                protectWhole(node)
                cmark_iter_reset(iterator, node, CMARK_EVENT_EXIT)
            case .codeBlock, .htmlBlock:
                protectWhole(node)
            case .thematicBreak:
                cover(node)
            case .paragraph, .heading:
                cover(node)
                ranges += InlineProtection.ranges(of: node, isParagraph: CmarkNodeKind(node) == .paragraph, lines: lines)
                cmark_iter_reset(iterator, node, CMARK_EVENT_EXIT)
            case .table:
                cover(node)
                protectDelimiterRow(of: node)
            case .tableCell:
                ranges += InlineProtection.ranges(of: node, isParagraph: false, lines: lines)
                cmark_iter_reset(iterator, node, CMARK_EVENT_EXIT)
            default:
                break
            }
        }
        // Runs of such lines are one range (a definition's title may take a line of its own).
        var run: Range<Int>?
        for line in 1...lines.count {
            if !covered[line - 1] && !lines.isBlank(line) {
                run = (run?.lowerBound ?? lines.firstNonSpace(line))..<lines.contentEnd(line)
            } else if let done = run {
                ranges.append(done)
                run = nil
            }
        }
        if let done = run { ranges.append(done) }
        return true
    }

    /// The lines a block spans, as cmark reports them (nil without a position).
    private func span(_ node: OpaquePointer) -> ClosedRange<Int>? {
        let first = Int(cmark_node_get_start_line(node))
        guard first >= 1, first <= lines.count else { return nil }
        var last = lines.lastLine(line: Int(cmark_node_get_end_line(node)), column: Int(cmark_node_get_end_column(node)))
        if CmarkNodeKind(node) == .htmlBlock, let literal = cmark_node_get_literal(node) {
            // cmark-gfm ends a comment or other HTML block that closes on a later line on its
            // first line; its literal holds all its lines.
            last = max(last, first + Self.lineCount(literal) - 1)
        }
        return first...min(max(first, last), lines.count)
    }

    /// Lines in a NUL-terminated literal (a last line without a break counts).
    private static func lineCount(_ literal: UnsafePointer<CChar>) -> Int {
        var count = 0
        var i = 0
        var lineOpen = false
        while literal[i] != 0 {
            if literal[i] == 0x0A { count += 1; lineOpen = false } else { lineOpen = true }
            i += 1
        }
        return count + (lineOpen ? 1 : 0)
    }

    private mutating func cover(_ node: OpaquePointer) {
        guard let span = span(node) else { return }
        for line in span { covered[line - 1] = true }
    }

    private mutating func protectWhole(_ node: OpaquePointer) {
        guard let span = span(node) else { return }
        cover(node)
        let start = lines.offset(line: span.lowerBound, column: Int(cmark_node_get_start_column(node)))
        ranges.append(start..<lines.contentEnd(span.upperBound))
    }

    /// The `|---|:-:|` line under a table's header row.
    private mutating func protectDelimiterRow(of table: OpaquePointer) {
        guard let header = cmark_node_first_child(table), let span = span(header), span.upperBound < lines.count else { return }
        let line = span.upperBound + 1
        ranges.append(lines.firstNonSpace(line)..<lines.contentEnd(line))
    }
}
