import EmendCore

/// A unified diff (`diff -u`, `git apply`, `patch -p1`) of a text and the same text with
/// edits applied. The edits come from the session (its suggestions); this only lays them
/// out as hunks of whole lines with three lines of context.
struct UnifiedDiff {
    let oldName: String
    let newName: String
    let bytes: [UInt8]
    let palette: Palette
    var contextLines = 3

    /// `edits`: UTF-8 ranges of the original text and their replacements, in order and not
    /// overlapping.
    func render(_ edits: [TextEdit]) -> String {
        guard !edits.isEmpty else { return "" }
        let lines = lineStarts()
        func lineIndex(_ offset: Int) -> Int {
            // Last line whose start <= offset.
            var low = 0, high = lines.count - 1
            while low < high {
                let mid = (low + high + 1) / 2
                if lines[mid] <= offset { low = mid } else { high = mid - 1 }
            }
            return low
        }
        // Blocks of whole lines that edits change, with the new text of those lines.
        struct Block { var first: Int; var last: Int; var edits: [TextEdit] }
        var blocks: [Block] = []
        for edit in edits.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
            let first = lineIndex(edit.range.lowerBound)
            let last = edit.range.isEmpty ? first : lineIndex(max(edit.range.lowerBound, edit.range.upperBound - 1))
            if var block = blocks.last, first <= block.last + 1 {
                block.last = max(block.last, last)
                block.edits.append(edit)
                blocks[blocks.count - 1] = block
            } else {
                blocks.append(Block(first: first, last: last, edits: [edit]))
            }
        }
        func lineEnd(_ index: Int) -> Int { index + 1 < lines.count ? lines[index + 1] : bytes.count }
        func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }

        var out = palette.bold("--- a/\(oldName)") + "\n" + palette.bold("+++ b/\(newName)") + "\n"
        var lineDelta = 0
        var b = 0
        while b < blocks.count {
            // Blocks close enough to share context go in one hunk.
            var e = b
            while e + 1 < blocks.count && blocks[e + 1].first - blocks[e].last - 1 <= 2 * contextLines { e += 1 }
            let start = max(0, blocks[b].first - contextLines)
            let end = min(lines.count - 1, blocks[e].last + contextLines)
            var body = ""
            var oldCount = 0, newCount = 0
            var line = start
            for block in blocks[b...e] {
                while line < block.first {
                    body += " " + withNewline(text(lines[line]..<lineEnd(line)))
                    oldCount += 1; newCount += 1; line += 1
                }
                let oldRange = lines[block.first]..<lineEnd(block.last)
                let shifted = block.edits.map {
                    TextEdit(range: ($0.range.lowerBound - oldRange.lowerBound)..<($0.range.upperBound - oldRange.lowerBound),
                             replacement: $0.replacement)
                }
                let oldText = text(oldRange)
                let newText = TextEdit.apply(shifted, to: oldText)
                for old in splitLines(oldText) {
                    body += palette.red("-" + old.text) + "\n" + (old.hasNewline ? "" : "\\ No newline at end of file\n")
                    oldCount += 1
                }
                for new in splitLines(newText) {
                    body += palette.green("+" + new.text) + "\n" + (new.hasNewline ? "" : "\\ No newline at end of file\n")
                    newCount += 1
                }
                line = block.last + 1
            }
            while line <= end {
                body += " " + withNewline(text(lines[line]..<lineEnd(line)))
                oldCount += 1; newCount += 1; line += 1
            }
            let oldStart = oldCount == 0 ? start : start + 1
            let newStart = newCount == 0 ? start + lineDelta : start + 1 + lineDelta
            out += palette.cyan("@@ -\(oldStart),\(oldCount) +\(newStart),\(newCount) @@") + "\n" + body
            lineDelta += newCount - oldCount
            b = e + 1
        }
        return out
    }

    private func withNewline(_ line: String) -> String {
        line.hasSuffix("\n") ? line : line + "\n\\ No newline at end of file\n"
    }

    /// Byte offsets where lines start (one entry for an empty text).
    private func lineStarts() -> [Int] {
        var starts = [0]
        for (i, c) in bytes.enumerated() where c == 0x0A && i + 1 < bytes.count { starts.append(i + 1) }
        return starts
    }

    private func splitLines(_ text: String) -> [(text: String, hasNewline: Bool)] {
        guard !text.isEmpty else { return [] }
        var result: [(String, Bool)] = []
        var current = ""
        for scalar in text.unicodeScalars {
            if scalar == "\n" {
                result.append((current, true))
                current = ""
            } else {
                current.unicodeScalars.append(scalar)
            }
        }
        if !current.isEmpty { result.append((current, false)) }
        return result
    }
}
