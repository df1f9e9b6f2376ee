import CCmarkGFM

/// The protected inline parts of one leaf block (paragraph, heading, table cell) from
/// cmark-gfm's inline tree: code spans with their backticks, inline HTML (comments included),
/// autolinks, bare URLs the GFM autolink extension found, and the destination part of links
/// and images (`url "title"` inside the parentheses, or `[label]`; the whole link when its
/// text is its label:
/// `[label]` and `[label][]`). Link text and image descriptions stay prose. Link reference
/// definitions that open a paragraph are protected whole.
///
/// Each position is mapped through `LeafContent` and checked against the source (a code span
/// sits between equal backtick runs, inline HTML between `<` and `>`, a link starts with `[`);
/// if any does not check out, the whole block is protected instead.
struct InlineProtection {
    private let lines: SourceLines
    private var bytes: [UInt8] { lines.bytes }
    private let content: LeafContent
    private let blockEnd: Int
    private var ranges: [Range<Int>] = []
    /// The content line cmark's inline parser counts from (see `LeafContent`).
    private var anchor: Int
    /// Line breaks inside located spans since the last line break node: cmark does not count
    /// them, so the anchor moves by them at the next break.
    private var pendingNewlines = 0
    /// The end of the last span located; the search for the next starts here.
    private var cursor: Int
    /// The start of each link or image entered and not yet left.
    private var openLinks: [Int] = []

    /// The protected ranges of `leaf`, a paragraph, heading or table cell.
    static func ranges(of leaf: OpaquePointer, isParagraph: Bool, lines: SourceLines) -> [Range<Int>] {
        let startLine = Int(cmark_node_get_start_line(leaf))
        let startColumn = Int(cmark_node_get_start_column(leaf))
        let endLine = min(max(Int(cmark_node_get_end_line(leaf)), startLine), lines.count)
        guard startLine >= 1, startLine <= lines.count else { return [] }
        let blockStart = lines.offset(line: startLine, column: startColumn)
        let blockEnd = lines.contentEnd(min(endLine, lines.count))
        var protected: [Range<Int>] = []
        var first = startLine
        var firstStart = blockStart
        if isParagraph, blockStart < lines.bytes.count, lines.bytes[blockStart] == UInt8(ascii: "[") {
            let consumed = ReferenceDefinitions.leadingLines(lines: lines, first: startLine, last: endLine, firstStart: blockStart)
            if consumed > 0 {
                protected.append(blockStart..<lines.contentEnd(startLine + consumed - 1))
                first = startLine + consumed
                firstStart = lines.firstNonSpace(first)
            }
        }
        let content = LeafContent(lines: lines, first: first, last: endLine, firstStart: firstStart, baseColumn: startColumn)
        var walk = InlineProtection(lines: lines, content: content, blockEnd: blockEnd, anchor: first, cursor: firstStart)
        if walk.run(leaf) {
            protected += walk.ranges
        } else {
            protected.append(firstStart..<blockEnd)
        }
        return protected
    }

    private init(lines: SourceLines, content: LeafContent, blockEnd: Int, anchor: Int, cursor: Int) {
        self.lines = lines
        self.content = content
        self.blockEnd = blockEnd
        self.anchor = anchor
        self.cursor = cursor
    }

    /// Walks the leaf's inlines; false if a position did not check out.
    private mutating func run(_ leaf: OpaquePointer) -> Bool {
        guard let iterator = cmark_iter_new(leaf) else { return false }
        defer { cmark_iter_free(iterator) }
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { return true }
            guard let node = cmark_iter_get_node(iterator), node != leaf else { continue }
            let located: Bool
            switch (CmarkNodeKind(node), event == CMARK_EVENT_ENTER) {
            case (.softBreak, true), (.lineBreak, true):
                anchor += 1 + pendingNewlines
                pendingNewlines = 0
                located = true
            case (.code, true):
                located = codeSpan(node)
            case (.htmlInline, true):
                located = html(node)
            case (.link, true), (.image, true):
                switch enterLink(node, isImage: CmarkNodeKind(node) == .image) {
                case .entered: located = true
                case .whole: located = true; cmark_iter_reset(iterator, node, CMARK_EVENT_EXIT)
                case .failed: located = false
                }
            case (.link, false), (.image, false):
                located = exitLink(node)
            default:
                located = true
            }
            if !located { return false }
        }
    }

    private func start(_ node: OpaquePointer) -> Int? {
        guard cmark_node_get_start_line(node) > 0 else { return nil }
        return content.byte(anchor: anchor, column: Int(cmark_node_get_start_column(node)))
    }

    /// The byte after the node's last one.
    private func end(_ node: OpaquePointer) -> Int? {
        guard cmark_node_get_end_line(node) > 0 else { return nil }
        return content.byte(anchor: anchor, column: Int(cmark_node_get_end_column(node))).map { $0 + 1 }
    }

    private mutating func protect(_ range: Range<Int>) {
        ranges.append(range)
        pendingNewlines += lines.newlines(in: range)
        cursor = max(cursor, range.upperBound)
    }

    /// cmark reports a code span's content (between the backtick runs).
    private mutating func codeSpan(_ node: OpaquePointer) -> Bool {
        let tick = UInt8(ascii: "`")
        guard let inner = start(node), let innerEnd = end(node), inner >= 1, inner <= innerEnd, innerEnd < bytes.count,
              bytes[inner - 1] == tick, bytes[innerEnd] == tick else { return false }
        var open = inner - 1
        while open > 0 && bytes[open - 1] == tick { open -= 1 }
        var close = innerEnd
        while close < bytes.count && bytes[close] == tick { close += 1 }
        guard inner - open == close - innerEnd else { return false }
        protect(open..<close)
        return true
    }

    private mutating func html(_ node: OpaquePointer) -> Bool {
        guard let low = start(node), let high = end(node), low < high, high <= bytes.count,
              bytes[low] == UInt8(ascii: "<"), bytes[high - 1] == UInt8(ascii: ">") else { return false }
        protect(low..<high)
        return true
    }

    private enum LinkStep { case entered, whole, failed }

    private mutating func enterLink(_ node: OpaquePointer, isImage: Bool) -> LinkStep {
        if let low = start(node), low < bytes.count {
            if !isImage && bytes[low] == UInt8(ascii: "<") {
                guard let high = end(node), high > low, high <= bytes.count, bytes[high - 1] == UInt8(ascii: ">") else { return .failed }
                protect(low..<high)
                return .whole
            }
            let opensLink = isImage ? low + 1 < bytes.count && bytes[low] == UInt8(ascii: "!") && bytes[low + 1] == UInt8(ascii: "[")
                : bytes[low] == UInt8(ascii: "[")
            if opensLink {
                openLinks.append(low)
                return .entered
            }
        }
        // The GFM autolink extension's links (bare URLs, www., e-mail addresses) carry no or
        // wrong positions: their text is found in the source after the last located span.
        guard !isImage, let text = cmark_node_first_child(node), let literal = cmark_node_get_literal(text) else { return .failed }
        let needle = Array(String(cString: literal).utf8)
        guard let found = search(needle, from: cursor, to: blockEnd) else { return .failed }
        protect(found..<(found + needle.count))
        return .whole
    }

    /// Protects the part after the link text's `]`, or the whole link when that part is empty
    /// or `[]` (the text is the reference label).
    private mutating func exitLink(_ node: OpaquePointer) -> Bool {
        guard let low = openLinks.popLast(), let high = end(node), high > low, high <= bytes.count,
              bytes[high - 1] == UInt8(ascii: ")") || bytes[high - 1] == UInt8(ascii: "]") else { return false }
        var bracket = max(cursor, low + 1)
        while bracket < high {
            if bytes[bracket] == UInt8(ascii: "]") && bytes[bracket - 1] != UInt8(ascii: "\\")
                && (bracket + 1 == high || bytes[bracket + 1] == UInt8(ascii: "(") || bytes[bracket + 1] == UInt8(ascii: "[")) { break }
            bracket += 1
        }
        guard bracket < high else { return false }
        let rest = (bracket + 1)..<high
        let isLabel = rest.isEmpty || (rest.count == 2 && bytes[rest.lowerBound] == UInt8(ascii: "["))
        if isLabel {
            protect(low..<high)
        } else if bytes[rest.lowerBound] == UInt8(ascii: "(") {
            // What the parentheses hold (as the rules before cmark did; the parentheses
            // themselves say nothing a tool would change).
            protect((rest.lowerBound + 1)..<(rest.upperBound - 1))
            cursor = high
        } else {
            protect(rest)
        }
        return true
    }

    private func search(_ needle: [UInt8], from start: Int, to end: Int) -> Int? {
        guard !needle.isEmpty, start >= 0, end <= bytes.count, end - start >= needle.count else { return nil }
        var i = start
        while i + needle.count <= end {
            if bytes[i] == needle[0] && bytes[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }
}
