import EmendText

/// Renders blocks for one RichShape: markers or list intents, tab-separated table lines
/// or cell intents, heading/code/quote intents or display runs, inline runs by key.
struct MarkdownRendering {
    let shape: RichShape

    func render(_ blocks: [MarkdownBlock]) -> AttributedText {
        var string = ""
        var runs: [AttributeRun] = []
        var intents: [BlockIntent] = []
        var previous: MarkdownBlock?
        for block in blocks {
            if let previous { string += separator(between: previous, and: block) }
            string += marker(of: block)
            let start = string.utf8.count
            string += block.text
            let range = start..<string.utf8.count
            if let intent = intent(of: block, over: range) { intents.append(intent) }
            runs += blockRuns(of: block, over: range)
            runs += inlineRuns(of: block, at: start)
            previous = block
        }
        return AttributedText(string, attributeRuns: RunMerging.merged(runs), blockIntents: intents)
    }

    /// A tab between cells of a row, a newline within one list or table, else a paragraph break.
    private func separator(between a: MarkdownBlock, and b: MarkdownBlock) -> String {
        guard let group = a.group, group == b.group else { return shape.paragraphSeparator }
        if case .tableCell(let rowA, _) = a.kind, case .tableCell(let rowB, _) = b.kind, rowA == rowB { return "\t" }
        return "\n"
    }

    /// "- " or "N. ", indented two spaces per level beyond 1, when lists are not intents.
    private func marker(of block: MarkdownBlock) -> String {
        guard case .listItem(let depth, let ordinal) = block.kind, !shape.lists else { return "" }
        let indent = String(repeating: "  ", count: max(0, depth - 1))
        return indent + (ordinal == 0 ? "- " : "\(ordinal). ")
    }

    private func intent(of block: MarkdownBlock, over range: Range<Int>) -> BlockIntent? {
        switch block.kind {
        case .listItem(let depth, let ordinal) where shape.lists:
            return BlockIntent(range: range, kind: .listItem, level: depth, ordinal: ordinal)
        case .tableCell(let row, let column) where shape.tables:
            return BlockIntent(range: range, kind: .tableCell, row: row, column: column)
        case .heading(let level) where shape.presentationIntents:
            return BlockIntent(range: range, kind: .heading, level: level)
        case .codeBlock where shape.presentationIntents:
            return BlockIntent(range: range, kind: .codeBlock)
        case .blockQuote where shape.presentationIntents:
            return BlockIntent(range: range, kind: .blockQuote)
        default:
            return nil
        }
    }

    /// Display runs that stand in for a block intent a rich text engine cannot take.
    private func blockRuns(of block: MarkdownBlock, over range: Range<Int>) -> [AttributeRun] {
        guard shape.richText, !shape.presentationIntents else { return [] }
        switch block.kind {
        case .heading: return [AttributeRun(range: range, key: AttributeKey.bold, value: AttributeKey.on)]
        case .codeBlock: return [AttributeRun(range: range, key: AttributeKey.monospace, value: AttributeKey.on)]
        default: return []
        }
    }

    private func inlineRuns(of block: MarkdownBlock, at offset: Int) -> [AttributeRun] {
        guard shape.richText || shape.presentationIntents else { return [] }
        return block.spans.map { span in
            let attribute = span.style.attribute(presentationIntents: shape.presentationIntents)
            let range = (span.range.lowerBound + offset)..<(span.range.upperBound + offset)
            return AttributeRun(range: range, key: attribute.key, value: attribute.value)
        }
    }
}
