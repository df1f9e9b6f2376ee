import EmendText

/// Cuts the written part of a text into blocks: one per block intent, and the text between
/// intents into paragraphs at each paragraph separator.
struct BlockSegmentation {
    let source: SourceText
    let separator: [Unicode.Scalar]
    /// Protected scalar ranges; no separator inside one splits it.
    let protected: [Range<Int>]

    func blocks(intents: [BlockIntent]) -> [WriterBlock] {
        var blocks: [WriterBlock] = []
        var cursor = 0
        var hasPrevious = false
        for (kind, range) in acceptedIntents(intents) {
            let gap = gapBlocks(cursor..<range.lowerBound, hasPrevious: hasPrevious, hasNext: true)
            blocks += gap.paragraphs.enumerated().map { index, paragraph in
                WriterBlock(kind: .paragraph, range: paragraph, gap: index == 0 && !hasPrevious ? .start : .paragraph)
            }
            let gapKind: WriterBlock.Gap = hasPrevious && gap.paragraphs.isEmpty ? gap.kind : (blocks.isEmpty ? .start : .paragraph)
            blocks.append(WriterBlock(kind: kind, range: range, gap: gapKind))
            cursor = range.upperBound
            hasPrevious = true
        }
        let tail = gapBlocks(cursor..<source.count, hasPrevious: hasPrevious, hasNext: false)
        blocks += tail.paragraphs.map { WriterBlock(kind: .paragraph, range: $0, gap: blocks.isEmpty ? .start : .paragraph) }
        return blocks
    }

    /// Intents clipped to the part, as scalar ranges in order; one that overlaps an earlier
    /// (or longer one at the same start) is left out.
    private func acceptedIntents(_ intents: [BlockIntent]) -> [(WriterBlock.Kind, Range<Int>)] {
        let first = source.offsets[0], last = source.offsets[source.count]
        let clipped = intents.compactMap { intent -> (WriterBlock.Kind, Range<Int>)? in
            let range = intent.range
            guard range.upperBound >= first, range.lowerBound <= last else { return nil }
            let indices = source.indices(ofBytes: max(range.lowerBound, first)..<min(range.upperBound, last))
            guard !indices.isEmpty || range.isEmpty else { return nil }
            return (Self.kind(of: intent), indices)
        }.sorted { a, b in
            a.1.lowerBound != b.1.lowerBound ? a.1.lowerBound < b.1.lowerBound : a.1.count > b.1.count
        }
        var accepted: [(WriterBlock.Kind, Range<Int>)] = []
        var end = 0
        for (kind, range) in clipped where range.lowerBound >= end {
            accepted.append((kind, range))
            end = max(end, range.upperBound)
        }
        return accepted
    }

    private static func kind(of intent: BlockIntent) -> WriterBlock.Kind {
        switch intent.kind {
        case .paragraph: return .paragraph
        case .heading: return .heading(level: min(max(intent.level, 1), 6))
        case .listItem: return .listItem(depth: max(intent.level, 1), ordinal: min(max(intent.ordinal, 0), 999_999_999))
        case .tableCell: return .tableCell(row: intent.row, column: intent.column)
        case .codeBlock: return .codeBlock
        case .blockQuote: return .blockQuote
        }
    }

    /// The text between two blocks: exactly a tab, a newline or a separator, or else the
    /// paragraphs it holds once the separators next to the blocks are taken off.
    private func gapBlocks(_ gap: Range<Int>, hasPrevious: Bool, hasNext: Bool) -> (kind: WriterBlock.Gap, paragraphs: [Range<Int>]) {
        if hasPrevious && hasNext {
            if gap.isEmpty || isSeparator(separator, gap) { return (.paragraph, []) }
            if isSeparator(["\t"], gap) { return (.tab, []) }
            if isSeparator(["\n"], gap) { return (.newline, []) }
        }
        var rest = gap
        let edges: [[Unicode.Scalar]] = [separator, ["\n"]]
        if hasPrevious, let edge = edges.first(where: { rest.count >= $0.count && isSeparator($0, at: rest.lowerBound) }) {
            rest = (rest.lowerBound + edge.count)..<rest.upperBound
        }
        if hasNext, let edge = edges.first(where: { rest.count >= $0.count && isSeparator($0, at: rest.upperBound - $0.count) }) {
            rest = rest.lowerBound..<(rest.upperBound - edge.count)
        }
        return (.paragraph, paragraphs(in: rest))
    }

    /// The paragraphs of plain text: split at each separator not inside protected text;
    /// empty paragraphs (extra separators) go to the start of the next paragraph, or at the
    /// end to the end of the last one, so that no text is lost.
    func paragraphs(in range: Range<Int>) -> [Range<Int>] {
        var parts: [Range<Int>] = []
        var start = range.lowerBound
        var index = range.lowerBound
        while index + separator.count <= range.upperBound {
            if isSeparator(separator, at: index) {
                parts.append(start..<index)
                index += separator.count
                start = index
            } else {
                index += 1
            }
        }
        parts.append(start..<range.upperBound)
        var paragraphs: [Range<Int>] = []
        var pendingStart: Int?
        for (number, part) in parts.enumerated() {
            let isLast = number == parts.count - 1
            if part.isEmpty && !isLast {
                pendingStart = pendingStart ?? part.lowerBound
            } else if part.isEmpty {
                if let last = paragraphs.last {
                    paragraphs[paragraphs.count - 1] = last.lowerBound..<range.upperBound
                } else if let pendingStart {
                    paragraphs.append(pendingStart..<range.upperBound)
                }
            } else {
                paragraphs.append((pendingStart ?? part.lowerBound)..<part.upperBound)
                pendingStart = nil
            }
        }
        return paragraphs
    }

    private func isSeparator(_ pattern: [Unicode.Scalar], _ range: Range<Int>) -> Bool {
        range.count == pattern.count && isSeparator(pattern, at: range.lowerBound)
    }

    /// Whether `pattern` occurs at `index` outside protected text.
    private func isSeparator(_ pattern: [Unicode.Scalar], at index: Int) -> Bool {
        guard !pattern.isEmpty, source.matches(pattern, at: index) else { return false }
        let range = index..<(index + pattern.count)
        return !protected.contains { $0.overlaps(range) }
    }
}
