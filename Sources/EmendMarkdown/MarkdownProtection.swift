/// The parts of a Markdown document no Writing Tool may change: YAML (`---`) and TOML
/// (`+++`) front matter, fenced and indented code blocks, inline code, block quotes, HTML
/// comments, link destinations and autolinks. Ranges are UTF-8 byte ranges, sorted and
/// disjoint. The rules follow CommonMark closely enough for prose files; where they are
/// unsure they protect (a missed correction costs less than a changed code sample).
public enum MarkdownProtection {
    private struct Line {
        let start: Int
        /// End of the content (before "\n" or "\r\n").
        let end: Int
        /// Start of the next line.
        let next: Int
    }

    public static func protectedRanges(in bytes: [UInt8]) -> [Range<Int>] {
        let lines = splitLines(bytes)
        var ranges: [Range<Int>] = []
        var index = 0
        var paragraph: Range<Int>?
        var previousBlank = true
        var inList = false

        func flushParagraph() {
            if let p = paragraph { ranges += inlineRanges(bytes, p) }
            paragraph = nil
        }

        // Front matter: the very first line is --- (YAML) or +++ (TOML).
        if let first = lines.first {
            let opening = content(bytes, first)
            if opening == "---" || opening == "+++" {
                for k in 1..<max(lines.count, 1) where k < lines.count {
                    let closing = content(bytes, lines[k])
                    if closing == opening || (opening == "---" && closing == "...") {
                        ranges.append(first.start..<lines[k].end)
                        index = k + 1
                        break
                    }
                }
            }
        }

        while index < lines.count {
            let line = lines[index]
            let (indent, firstText) = indentation(bytes, line)
            if firstText >= line.end {   // blank
                flushParagraph()
                previousBlank = true
                index += 1
                continue
            }
            // Fenced code: ``` or ~~~ (three or more), up to the closing fence or the end.
            if let fence = fenceOpening(bytes, from: firstText, to: line.end) {
                flushParagraph()
                var close = index + 1
                while close < lines.count {
                    let (_, text) = indentation(bytes, lines[close])
                    if isFenceClosing(bytes, from: text, to: lines[close].end, fence: fence) { break }
                    close += 1
                }
                let last = min(close, lines.count - 1)
                ranges.append(line.start..<lines[last].end)
                index = last + 1
                previousBlank = false
                continue
            }
            // Indented code: four spaces (or a tab) after a blank line, outside lists.
            if indent >= 4 && previousBlank && paragraph == nil && !inList {
                var last = index
                var k = index + 1
                while k < lines.count {
                    let (kIndent, kText) = indentation(bytes, lines[k])
                    if kText >= lines[k].end { k += 1; continue }
                    guard kIndent >= 4 else { break }
                    last = k
                    k += 1
                }
                ranges.append(line.start..<lines[last].end)
                index = last + 1
                previousBlank = false
                continue
            }
            // Block quote: > at up to three spaces of indentation; consecutive lines join.
            if indent < 4 && bytes[firstText] == UInt8(ascii: ">") {
                flushParagraph()
                var last = index
                while last + 1 < lines.count {
                    let (nIndent, nText) = indentation(bytes, lines[last + 1])
                    guard nText < lines[last + 1].end, nIndent < 4, bytes[nText] == UInt8(ascii: ">") else { break }
                    last += 1
                }
                ranges.append(firstText..<lines[last].end)
                index = last + 1
                previousBlank = false
                continue
            }
            // HTML comment opening a block: protected up to its end.
            if indent < 4 && startsWith(bytes, at: firstText, "<!--") {
                flushParagraph()
                let end = find(bytes, "-->", from: firstText + 4, to: bytes.count).map { $0 + 3 } ?? bytes.count
                ranges.append(firstText..<end)
                while index < lines.count && lines[index].start < end { index += 1 }
                previousBlank = false
                continue
            }
            // Link reference definition: [label]: destination "title"
            if indent < 4, let destination = referenceDefinition(bytes, from: firstText, to: line.end) {
                flushParagraph()
                ranges.append(destination)
                index += 1
                previousBlank = false
                continue
            }
            if indent < 4 && isListMarker(bytes, from: firstText, to: line.end) {
                inList = true
            } else if indent == 0 && previousBlank {
                inList = false
            }
            // Headings end where they start; other lines gather into a paragraph.
            let isHeading = indent < 4 && bytes[firstText] == UInt8(ascii: "#")
            if isHeading {
                flushParagraph()
                ranges += inlineRanges(bytes, line.start..<line.end)
            } else {
                paragraph = (paragraph?.lowerBound ?? line.start)..<line.end
            }
            previousBlank = false
            index += 1
        }
        flushParagraph()
        return normalized(ranges)
    }

    // MARK: Inline

    /// Inline code, HTML comments, autolinks, link destinations and bare URLs in a paragraph.
    private static func inlineRanges(_ b: [UInt8], _ span: Range<Int>) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var i = span.lowerBound
        let end = span.upperBound
        while i < end {
            let c = b[i]
            if c == UInt8(ascii: "\\") { i += 2; continue }
            if c == UInt8(ascii: "`") {
                var n = 0
                while i + n < end && b[i + n] == UInt8(ascii: "`") { n += 1 }
                if let close = closingBackticks(b, count: n, from: i + n, to: end) {
                    ranges.append(i..<close + n)
                    i = close + n
                } else {
                    i += n
                }
                continue
            }
            if c == UInt8(ascii: "<") {
                if startsWith(b, at: i, "<!--") {
                    let close = find(b, "-->", from: i + 4, to: end).map { $0 + 3 } ?? end
                    ranges.append(i..<close)
                    i = close
                    continue
                }
                if let close = autolinkEnd(b, from: i, to: end) {
                    ranges.append(i..<close)
                    i = close
                    continue
                }
            }
            if c == UInt8(ascii: "]") && i + 1 < end && b[i + 1] == UInt8(ascii: "(") {
                var depth = 0
                var k = i + 1
                while k < end {
                    if b[k] == UInt8(ascii: "(") { depth += 1 }
                    if b[k] == UInt8(ascii: ")") { depth -= 1; if depth == 0 { break } }
                    k += 1
                }
                if k < end {
                    ranges.append(i + 2..<k)
                    i = k + 1
                    continue
                }
            }
            if (c == UInt8(ascii: "h") || c == UInt8(ascii: "w")) && (i == span.lowerBound || !isWordByte(b[i - 1])),
               startsWith(b, at: i, "http://") || startsWith(b, at: i, "https://") || startsWith(b, at: i, "www.") {
                var k = i
                while k < end && !isSpace(b[k]) && b[k] != UInt8(ascii: ">") && b[k] != UInt8(ascii: ")") { k += 1 }
                // A sentence's final punctuation is not part of the URL.
                while k > i && [UInt8(ascii: "."), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: ":")].contains(b[k - 1]) { k -= 1 }
                ranges.append(i..<k)
                i = k
                continue
            }
            i += 1
        }
        return ranges
    }

    private static func closingBackticks(_ b: [UInt8], count n: Int, from start: Int, to end: Int) -> Int? {
        var i = start
        while i < end {
            if b[i] == UInt8(ascii: "`") {
                var run = 0
                while i + run < end && b[i + run] == UInt8(ascii: "`") { run += 1 }
                if run == n { return i }
                i += run
            } else {
                i += 1
            }
        }
        return nil
    }

    /// `<scheme:...>` or `<user@host>`: the end after `>`, or nil.
    private static func autolinkEnd(_ b: [UInt8], from start: Int, to end: Int) -> Int? {
        var k = start + 1
        var sawColonOrAt = false
        while k < end {
            let c = b[k]
            if c == UInt8(ascii: ">") { return sawColonOrAt && k > start + 1 ? k + 1 : nil }
            if isSpace(c) || c == UInt8(ascii: "<") { return nil }
            if c == UInt8(ascii: ":") || c == UInt8(ascii: "@") { sawColonOrAt = true }
            k += 1
        }
        return nil
    }

    // MARK: Blocks

    private struct Fence {
        let character: UInt8
        let count: Int
    }

    private static func fenceOpening(_ b: [UInt8], from start: Int, to end: Int) -> Fence? {
        guard start < end, b[start] == UInt8(ascii: "`") || b[start] == UInt8(ascii: "~") else { return nil }
        let c = b[start]
        var n = 0
        while start + n < end && b[start + n] == c { n += 1 }
        guard n >= 3 else { return nil }
        if c == UInt8(ascii: "`") && b[(start + n)..<end].contains(UInt8(ascii: "`")) { return nil }
        return Fence(character: c, count: n)
    }

    private static func isFenceClosing(_ b: [UInt8], from start: Int, to end: Int, fence: Fence) -> Bool {
        var n = 0
        while start + n < end && b[start + n] == fence.character { n += 1 }
        guard n >= fence.count else { return false }
        return b[(start + n)..<end].allSatisfy(isSpace)
    }

    /// `[label]: destination`: the destination (and title) range.
    private static func referenceDefinition(_ b: [UInt8], from start: Int, to end: Int) -> Range<Int>? {
        guard b[start] == UInt8(ascii: "["), let close = find(b, "]:", from: start + 1, to: end), close > start + 1 else { return nil }
        var k = close + 2
        while k < end && isSpace(b[k]) { k += 1 }
        guard k < end else { return nil }
        return k..<end
    }

    private static func isListMarker(_ b: [UInt8], from start: Int, to end: Int) -> Bool {
        let c = b[start]
        if c == UInt8(ascii: "-") || c == UInt8(ascii: "*") || c == UInt8(ascii: "+") {
            return start + 1 >= end || isSpace(b[start + 1])
        }
        var k = start
        while k < end && k - start < 9 && b[k] >= UInt8(ascii: "0") && b[k] <= UInt8(ascii: "9") { k += 1 }
        guard k > start, k < end, b[k] == UInt8(ascii: ".") || b[k] == UInt8(ascii: ")") else { return false }
        return k + 1 >= end || isSpace(b[k + 1])
    }

    // MARK: Bytes

    private static func splitLines(_ b: [UInt8]) -> [Line] {
        var lines: [Line] = []
        var start = 0
        var i = 0
        while i < b.count {
            if b[i] == 0x0A {
                let end = i > start && b[i - 1] == 0x0D ? i - 1 : i
                lines.append(Line(start: start, end: end, next: i + 1))
                start = i + 1
            }
            i += 1
        }
        if start < b.count { lines.append(Line(start: start, end: b.count, next: b.count)) }
        return lines
    }

    /// Columns of leading whitespace (a tab counts to the next multiple of four) and where
    /// the text starts.
    private static func indentation(_ b: [UInt8], _ line: Line) -> (Int, Int) {
        var columns = 0
        var i = line.start
        while i < line.end {
            if b[i] == UInt8(ascii: " ") { columns += 1 } else if b[i] == 0x09 { columns += 4 - columns % 4 } else { break }
            i += 1
        }
        return (columns, i)
    }

    private static func content(_ b: [UInt8], _ line: Line) -> String {
        var end = line.end
        while end > line.start && isSpace(b[end - 1]) { end -= 1 }
        return String(decoding: b[line.start..<end], as: UTF8.self)
    }

    private static func startsWith(_ b: [UInt8], at i: Int, _ s: StaticString) -> Bool {
        let count = s.utf8CodeUnitCount
        guard i + count <= b.count else { return false }
        return s.withUTF8Buffer { pattern in
            for k in 0..<count where b[i + k] != pattern[k] { return false }
            return true
        }
    }

    private static func find(_ b: [UInt8], _ s: StaticString, from start: Int, to end: Int) -> Int? {
        var i = start
        while i + s.utf8CodeUnitCount <= end {
            if startsWith(b, at: i, s) { return i }
            i += 1
        }
        return nil
    }

    private static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0D || c == 0x0A }
    private static func isWordByte(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c >= 0x80
    }

    /// Sorted, without empty ranges, overlapping or touching ranges merged.
    private static func normalized(_ ranges: [Range<Int>]) -> [Range<Int>] {
        var merged: [Range<Int>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) where !range.isEmpty {
            if let last = merged.last, range.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return merged
    }
}
