import CCmarkGFM

/// Link reference definitions (`[label]: destination "title"`) that open a paragraph. cmark
/// removes them from the paragraph without moving its start, and has no node for them.
enum ReferenceDefinitions {
    /// Reference definitions longer than this many lines are not looked for (each length
    /// tried is one small parse).
    private static let longestRun = 64

    /// How many of the paragraph's lines, from `first`, are reference definitions cmark took
    /// out of it: the most lines that, parsed alone, leave an empty document (definitions
    /// only), short of the whole paragraph (some text is left, or there would be no node).
    static func leadingLines(lines: SourceLines, first: Int, last: Int, firstStart: Int) -> Int {
        var text: [UInt8] = []
        var consumed = 0
        let lastTried = min(last - 1, first + longestRun - 1)
        guard lastTried >= first, opensDefinition(lines.bytes[firstStart..<lines.contentEnd(first)]) else { return 0 }
        for line in first...lastTried {
            let start = line == first ? firstStart : lines.firstNonSpace(line)
            text += lines.bytes[start..<lines.next(line)]
            let empty = text.withUnsafeBufferPointer { buffer in
                CmarkParsing.withDocument(buffer) { cmark_node_first_child($0) == nil }
            } ?? false
            if empty { consumed = line - first + 1 }
        }
        return consumed
    }

    /// Whether a line could open a definition: `[`, and `]:` later (a label on one line; a
    /// label broken over lines is left to the check that protects the whole paragraph).
    private static func opensDefinition(_ line: ArraySlice<UInt8>) -> Bool {
        guard line.first == UInt8(ascii: "[") else { return false }
        var i = line.startIndex
        while i + 1 < line.endIndex {
            if line[i] == UInt8(ascii: "]") && line[i + 1] == UInt8(ascii: ":") { return true }
            i += 1
        }
        return false
    }
}
