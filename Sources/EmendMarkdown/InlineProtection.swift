import CCmarkGFM

/// The protected inline parts of one leaf block (paragraph, heading, table cell) from
/// cmark-gfm's inline tree: code spans with their backticks, inline HTML (comments included),
/// autolinks, bare URLs the GFM autolink extension found, and the destination part of links
/// and images (`url "title"` inside the parentheses, or `[label]`; the whole link when its
/// text is its label: `[label]` and `[label][]`). Link text and image descriptions stay
/// prose. Link reference definitions that open a paragraph are protected whole.
///
/// Why cmark-gfm 0.29's inline positions are not read as they are: they are exact on a
/// block's first line only. On later lines a column counts from the line's content as cmark
/// keeps it (after the container's marks, and after the leading spaces only on lines that are
/// not lazy continuations) plus the block's start column; after a code span or inline HTML
/// that runs over lines, the line number stays behind and the column runs on; reference
/// definitions that open a paragraph are removed without moving its start; the GFM autolink
/// extension's links have no positions. So columns are read relative to a reference point:
/// after a line break the next inline starts at the line's first non-space byte (cmark skips
/// the spaces), and after each located span its end is the new reference. Every range is
/// checked against the source (a code span between equal backtick runs, inline HTML equal to
/// its literal, a link opening with `[`); if one does not check out, the whole block is
/// protected instead: a missed correction costs less than a changed link.
struct InlineProtection {
    private let lines: SourceLines
    private var bytes: [UInt8] { lines.bytes }
    private let blockEnd: Int
    private var ranges: [Range<Int>] = []
    /// A cmark column and the source byte it stands for, on the line cmark's inline parser is
    /// on; nil right after a line break, until the next inline gives it.
    private var reference: (column: Int, byte: Int)?
    /// The source line the inline parser is on.
    private var line: Int
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
        let blockEnd = lines.contentEnd(endLine)
        var protected: [Range<Int>] = []
        var walk = InlineProtection(lines: lines, blockEnd: blockEnd, line: startLine, cursor: blockStart)
        walk.reference = (startColumn, blockStart)
        if isParagraph, blockStart < lines.bytes.count, lines.bytes[blockStart] == UInt8(ascii: "[") {
            let consumed = ReferenceDefinitions.leadingLines(lines: lines, first: startLine, last: endLine, firstStart: blockStart)
            if consumed > 0 {
                protected.append(blockStart..<lines.contentEnd(startLine + consumed - 1))
                walk.line = startLine + consumed
                walk.cursor = lines.firstNonSpace(walk.line)
                walk.reference = nil
            }
        }
        let contentStart = walk.cursor
        if walk.run(leaf) {
            protected += walk.ranges
        } else {
            protected.append(contentStart..<blockEnd)
        }
        return protected
    }

    private init(lines: SourceLines, blockEnd: Int, line: Int, cursor: Int) {
        self.lines = lines
        self.blockEnd = blockEnd
        self.line = line
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
            let kind = CmarkNodeKind(node)
            let entering = event == CMARK_EVENT_ENTER
            if kind == .softBreak || kind == .lineBreak {
                line += 1
                reference = nil
                continue
            }
            if entering && reference == nil { calibrate(node) }
            let located: Bool
            switch (kind, entering) {
            case (.code, true):
                located = codeSpan(node)
            case (.htmlInline, true):
                located = html(node)
            case (.link, true), (.image, true):
                switch enterLink(node, isImage: kind == .image) {
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

    /// The first inline after a line break starts at the line's first non-space byte.
    private mutating func calibrate(_ node: OpaquePointer) {
        let start = line <= lines.count ? lines.firstNonSpace(line) : blockEnd
        if cmark_node_get_start_line(node) > 0 {
            reference = (Int(cmark_node_get_start_column(node)), start)
        } else {
            // An extension link with no position: on a line that is not a lazy continuation
            // cmark's columns count from the first non-space byte, after the block's column.
            reference = (Int(cmark_node_get_start_column(cmark_node_parent(node) ?? node)), start)
        }
    }

    private func byte(column: Int) -> Int? {
        guard let reference, column >= 1 else { return nil }
        let byte = reference.byte + column - reference.column
        return byte >= 0 && byte < bytes.count ? byte : nil
    }

    private func start(_ node: OpaquePointer) -> Int? {
        guard cmark_node_get_start_line(node) > 0 else { return nil }
        return byte(column: Int(cmark_node_get_start_column(node)))
    }

    /// The byte after the node's last one.
    private func end(_ node: OpaquePointer) -> Int? {
        guard cmark_node_get_end_line(node) > 0 else { return nil }
        return byte(column: Int(cmark_node_get_end_column(node))).map { $0 + 1 }
    }

    /// Records a located span; its last byte becomes the reference for the node's end column.
    private mutating func protect(_ range: Range<Int>, endOf node: OpaquePointer?) {
        ranges.append(range)
        line += lines.newlines(in: range)
        cursor = max(cursor, range.upperBound)
        if let node, cmark_node_get_end_line(node) > 0 {
            reference = (Int(cmark_node_get_end_column(node)), range.upperBound - 1)
        }
    }

    /// cmark reports a code span's content (between the backtick runs); the span ends at the
    /// next backtick run as long as the opening one.
    private mutating func codeSpan(_ node: OpaquePointer) -> Bool {
        let tick = UInt8(ascii: "`")
        guard let inner = start(node), inner >= 1, bytes[inner - 1] == tick else { return false }
        var open = inner - 1
        while open > 0 && bytes[open - 1] == tick { open -= 1 }
        // A backslash before the run escapes its first backtick, which is text.
        if open > 0 && bytes[open - 1] == UInt8(ascii: "\\") { open += 1 }
        let width = inner - open
        var i = inner
        while i < blockEnd {
            guard bytes[i] == tick else { i += 1; continue }
            var run = 0
            while i + run < bytes.count && bytes[i + run] == tick { run += 1 }
            if run == width {
                ranges.append(open..<(i + run))
                line += lines.newlines(in: open..<i)
                cursor = max(cursor, i + run)
                // cmark's end column is the content's last byte.
                if cmark_node_get_end_line(node) > 0 { reference = (Int(cmark_node_get_end_column(node)), i - 1) }
                return true
            }
            i += run
        }
        return false
    }

    private mutating func html(_ node: OpaquePointer) -> Bool {
        guard let low = start(node), bytes[low] == UInt8(ascii: "<"), let literal = cmark_node_get_literal(node),
              let high = matchLiteral(literal, at: low) else { return false }
        protect(low..<high, endOf: node)
        return true
    }

    /// Where `literal` (cmark's copy of source text, whose lines after the first may have
    /// lost leading spaces) ends if it starts at `start`; nil if the source differs.
    private func matchLiteral(_ literal: UnsafePointer<CChar>, at start: Int) -> Int? {
        var i = 0
        var j = start
        var afterBreak = false
        while literal[i] != 0 {
            let expected = UInt8(bitPattern: literal[i])
            guard j < bytes.count else { return nil }
            let actual = bytes[j]
            if actual == expected {
                afterBreak = expected == 0x0A
                i += 1
                j += 1
            } else if actual == 0x0D && expected == 0x0A {
                j += 1
            } else if afterBreak && (actual == 0x20 || actual == 0x09) {
                j += 1
            } else {
                return nil
            }
        }
        return j
    }

    private enum LinkStep { case entered, whole, failed }

    private mutating func enterLink(_ node: OpaquePointer, isImage: Bool) -> LinkStep {
        if let low = start(node) {
            if !isImage && bytes[low] == UInt8(ascii: "<") {
                guard let high = end(node), high > low, high <= bytes.count, bytes[high - 1] == UInt8(ascii: ">") else { return .failed }
                protect(low..<high, endOf: node)
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
        protect(found..<(found + needle.count), endOf: nil)
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
            protect(low..<high, endOf: node)
        } else if bytes[rest.lowerBound] == UInt8(ascii: "(") {
            // What the parentheses hold (as the rules before cmark did; the parentheses
            // themselves say nothing a tool would change).
            protect((rest.lowerBound + 1)..<(rest.upperBound - 1), endOf: nil)
            cursor = high
            if cmark_node_get_end_line(node) > 0 { reference = (Int(cmark_node_get_end_column(node)), high - 1) }
        } else {
            protect(rest, endOf: node)
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
