import EmendMarkdown

/// Cuts a document into the units diagnostics are computed for: paragraphs (separated by
/// blank lines) of plain text and Markdown, comments and string literals of source code.
/// Units with nothing to check (all protected, no letter) are left out.
public enum CheckUnits {
    public static func units(of bytes: [UInt8], kind: DocumentKind) -> [CheckUnit] {
        switch kind {
        case .plainText: return paragraphs(of: bytes, protected: [])
        case .markdown: return paragraphs(of: bytes, protected: MarkdownProtection.protectedRanges(in: bytes))
        case .latex: return paragraphs(of: bytes, protected: LaTeXProtection.protectedRanges(in: bytes))
        case .source(let syntax): return SourceProse.units(of: bytes, syntax: syntax)
        case .unchecked: return []
        }
    }

    /// What a selection tool may not change: Markdown's code, quotes, links and front
    /// matter; LaTeX's commands, math, comments and non-prose environments; in source files everything but the prose of comments and strings (and their
    /// markers), so a rewrite over a function changes its comments and nothing else.
    public static func protectedRanges(of bytes: [UInt8], kind: DocumentKind) -> [Range<Int>] {
        switch kind {
        case .plainText, .unchecked: return []
        case .markdown: return MarkdownProtection.protectedRanges(in: bytes)
        case .latex: return LaTeXProtection.protectedRanges(in: bytes)
        case .source(let syntax):
            var ranges: [Range<Int>] = []
            var end = 0
            for unit in SourceProse.units(of: bytes, syntax: syntax) {
                if unit.offset > end { ranges.append(end..<unit.offset) }
                ranges += unit.key.protected.map { ($0.lowerBound + unit.offset)..<($0.upperBound + unit.offset) }
                end = unit.range.upperBound
            }
            if end < bytes.count { ranges.append(end..<bytes.count) }
            return ranges
        }
    }

    /// Paragraphs: runs of lines that are not blank; `protected` (sorted, disjoint, document
    /// bytes) is clipped to each.
    static func paragraphs(of bytes: [UInt8], protected: [Range<Int>]) -> [CheckUnit] {
        var units: [CheckUnit] = []
        var guardIndex = 0
        var lineStart = 0
        var paragraphStart: Int?
        var paragraphEnd = 0
        func flush() {
            guard let start = paragraphStart else { return }
            paragraphStart = nil
            let range = start..<paragraphEnd
            while guardIndex < protected.count && protected[guardIndex].upperBound <= range.lowerBound { guardIndex += 1 }
            var local: [Range<Int>] = []
            var k = guardIndex
            while k < protected.count && protected[k].lowerBound < range.upperBound {
                let clipped = max(protected[k].lowerBound, range.lowerBound)..<min(protected[k].upperBound, range.upperBound)
                if !clipped.isEmpty { local.append((clipped.lowerBound - start)..<(clipped.upperBound - start)) }
                k += 1
            }
            if let unit = make(bytes: bytes, range: range, protected: local) { units.append(unit) }
        }
        while lineStart < bytes.count {
            var end = lineStart
            var blank = true
            while end < bytes.count && bytes[end] != 0x0A {
                let c = bytes[end]
                if c != 0x20 && c != 0x09 && c != 0x0D { blank = false }
                end += 1
            }
            if blank {
                flush()
            } else {
                if paragraphStart == nil { paragraphStart = lineStart }
                paragraphEnd = end > lineStart && bytes[end - 1] == 0x0D ? end - 1 : end
            }
            lineStart = end + 1
        }
        flush()
        return units
    }

    /// A unit over `range`, unless nothing in it could be checked.
    static func make(bytes: [UInt8], range: Range<Int>, protected: [Range<Int>]) -> CheckUnit? {
        var k = 0
        var hasLetter = false
        var i = range.lowerBound
        while i < range.upperBound {
            let local = i - range.lowerBound
            while k < protected.count && protected[k].upperBound <= local { k += 1 }
            if k < protected.count && protected[k].contains(local) {
                i = protected[k].upperBound + range.lowerBound
                continue
            }
            let c = bytes[i]
            if (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c >= 0xC0 { hasLetter = true; break }
            i += 1
        }
        guard hasLetter else { return nil }
        return CheckUnit(offset: range.lowerBound, key: UnitKey(text: Array(bytes[range]), protected: protected))
    }
}
