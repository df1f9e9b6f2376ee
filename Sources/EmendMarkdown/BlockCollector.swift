/// Turns cmark's enter and exit events into the flat block list of a MarkdownDocument.
///
/// A list item's own text (its paragraphs up to a nested list, joined by "\n") is one block;
/// text inside a block quote becomes block-quote blocks, but lists and tables inside a
/// quote keep their kinds. Thematic breaks give no block.
struct BlockCollector {
    private(set) var blocks: [MarkdownBlock] = []
    private var containers: [Container] = []
    private var leaf: (builder: InlineBuilder, kind: LeafKind)?
    private var groupCount = 0

    private enum Container {
        case list(ordered: Bool, start: Int, items: Int, group: Int)
        case item(Item)
        case quote
        case table(group: Int, row: Int, column: Int)
    }

    private struct Item {
        var depth: Int
        var ordinal: Int
        var group: Int
        var content = InlineBuilder()
        var flushed = false
    }

    private enum LeafKind {
        case paragraph, heading(Int), codeBlock, tableCell(row: Int, column: Int, group: Int)
    }

    mutating func enter(_ node: CmarkNode) {
        switch node.kind {
        case .blockQuote: containers.append(.quote)
        case .list: enterList(node)
        case .item: enterItem()
        case .paragraph: leaf = (InlineBuilder(), .paragraph)
        case .heading: leaf = (InlineBuilder(), .heading(node.headingLevel))
        case .codeBlock:
            var code = InlineBuilder()
            code.append(dropFinalNewline(node.literal), style: .code)
            deliver(code, .codeBlock)
        case .htmlBlock:
            var html = InlineBuilder()
            html.append(dropFinalNewline(node.literal))
            deliver(html, .paragraph)
        case .table:
            flushOpenItems()
            containers.append(.table(group: newGroup(), row: -1, column: -1))
        case .tableRow: updateTable { $1 += 1; $2 = -1 }
        case .tableCell:
            var cell: LeafKind?
            updateTable { group, row, column in
                column += 1
                cell = .tableCell(row: row, column: column, group: group)
            }
            if let cell { leaf = (InlineBuilder(), cell) }
        case .text, .htmlInline: leaf?.builder.append(node.literal)
        case .softBreak, .lineBreak: leaf?.builder.append("\n")
        case .code: leaf?.builder.append(node.literal, style: .code)
        case .emphasis: leaf?.builder.open(.emphasis)
        case .strong: leaf?.builder.open(.strong)
        case .strikethrough: leaf?.builder.open(.strikethrough)
        case .link: leaf?.builder.open(.link(url: node.url))
        case .image: leaf?.builder.open(nil)
        case .document, .thematicBreak, .other: break
        }
    }

    mutating func exit(_ node: CmarkNode) {
        switch node.kind {
        case .blockQuote, .list, .table: containers.removeLast()
        case .item:
            flushOpenItems()
            containers.removeLast()
        case .paragraph, .heading, .tableCell:
            if let (builder, kind) = leaf { deliver(builder, kind) }
            leaf = nil
        case .emphasis, .strong, .strikethrough, .link, .image: leaf?.builder.close()
        default: break
        }
    }

    private mutating func enterList(_ node: CmarkNode) {
        flushOpenItems()
        let group = containers.reversed().lazy.compactMap { container -> Int? in
            if case .list(_, _, _, let group) = container { return group }
            return nil
        }.first ?? newGroup()
        // Ordinal 0 means a bullet: an ordered list that starts at 0 is numbered from 1.
        let ordered = node.isOrderedList
        containers.append(.list(ordered: ordered, start: ordered ? max(node.listStart, 1) : 0, items: 0, group: group))
    }

    private mutating func enterItem() {
        guard case .list(let ordered, let start, let items, let group)? = containers.last else { return }
        containers[containers.count - 1] = .list(ordered: ordered, start: start, items: items + 1, group: group)
        let depth = containers.filter { if case .list = $0 { return true } else { return false } }.count
        containers.append(.item(Item(depth: depth, ordinal: ordered ? start + items : 0, group: group)))
    }

    /// Puts a finished leaf block where it belongs: into the open list item whose text it
    /// is, or into the block list.
    private mutating func deliver(_ builder: InlineBuilder, _ kind: LeafKind) {
        if case .tableCell(let row, let column, let group) = kind {
            append(MarkdownBlock(kind: .tableCell(row: row, column: column), text: builder.text, spans: builder.spans, group: group))
            return
        }
        let nearest = containers.indices.last { index in
            switch containers[index] { case .item, .quote: return true; default: return false }
        }
        var group: Int?
        if let nearest, case .item(var item) = containers[nearest] {
            if !item.flushed {
                item.content.append(contentsOf: builder, separator: "\n")
                containers[nearest] = .item(item)
                return
            }
            group = item.group
        }
        let inQuote = nearest.map { if case .quote = containers[$0] { return true } else { return false } } ?? false
        let blockKind: MarkdownBlock.Kind
        switch kind {
        case _ where inQuote: blockKind = .blockQuote
        case _ where group != nil: blockKind = .paragraph
        case .heading(let level): blockKind = .heading(level: level)
        case .codeBlock: blockKind = .codeBlock
        case .paragraph, .tableCell: blockKind = .paragraph
        }
        // A code block needs no code span of its own: the block says it.
        let spans = blockKind == .codeBlock ? [] : builder.spans
        append(MarkdownBlock(kind: blockKind, text: builder.text, spans: spans, group: group))
    }

    /// Emits the text of list items still open, outermost first, so that what follows
    /// (a nested list, a quote, a table) comes after it.
    private mutating func flushOpenItems() {
        for index in containers.indices {
            guard case .item(var item) = containers[index], !item.flushed else { continue }
            item.flushed = true
            containers[index] = .item(item)
            blocks.append(MarkdownBlock(kind: .listItem(depth: item.depth, ordinal: item.ordinal),
                                        text: item.content.text, spans: item.content.spans, group: item.group))
        }
    }

    private mutating func append(_ block: MarkdownBlock) {
        flushOpenItems()
        blocks.append(block)
    }

    private mutating func updateTable(_ change: (Int, inout Int, inout Int) -> Void) {
        guard let index = containers.indices.last(where: { if case .table = containers[$0] { return true } else { return false } }),
              case .table(let group, var row, var column) = containers[index] else { return }
        change(group, &row, &column)
        containers[index] = .table(group: group, row: row, column: column)
    }

    private mutating func newGroup() -> Int {
        groupCount += 1
        return groupCount
    }

    private func dropFinalNewline(_ literal: String) -> String {
        var scalars = literal.unicodeScalars
        if scalars.last == "\n" { scalars.removeLast() }
        return String(scalars)
    }
}
