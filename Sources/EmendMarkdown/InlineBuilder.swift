/// Collects one block's inline text and the spans opened and closed while walking it.
struct InlineBuilder {
    private(set) var text = ""
    private(set) var spans: [InlineSpan] = []
    /// Open spans with their start; nil style for containers that give no span (images).
    private var open: [(style: InlineStyle?, start: Int)] = []

    var isEmpty: Bool { text.isEmpty }

    mutating func append(_ literal: String) { text += literal }

    /// Appends `literal` with `style` over it.
    mutating func append(_ literal: String, style: InlineStyle) {
        let start = text.utf8.count
        text += literal
        addSpan(style, start..<text.utf8.count)
    }

    mutating func open(_ style: InlineStyle?) { open.append((style, text.utf8.count)) }

    mutating func close() {
        guard let last = open.popLast(), let style = last.style else { return }
        addSpan(style, last.start..<text.utf8.count)
    }

    /// Appends another block's text and spans, after `separator` when this one has text.
    mutating func append(contentsOf other: InlineBuilder, separator: String) {
        if !text.isEmpty { text += separator }
        let shift = text.utf8.count
        text += other.text
        for span in other.spans {
            spans.append(InlineSpan(style: span.style, range: (span.range.lowerBound + shift)..<(span.range.upperBound + shift)))
        }
    }

    private mutating func addSpan(_ style: InlineStyle, _ range: Range<Int>) {
        if !range.isEmpty { spans.append(InlineSpan(style: style, range: range)) }
    }
}
