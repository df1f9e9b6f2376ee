/// YAML (`---` … `---` or `...`) or TOML (`+++` … `+++`) front matter at the very start of a
/// Markdown file. CommonMark does not know it (cmark would read `---` as a rule or a heading
/// underline), so it is found by its lines before the parse.
enum FrontMatter {
    /// The front matter's byte range (from the opening line to the end of the closing line,
    /// without its line break) and its last line, or nil if the text has none.
    static func find(in lines: SourceLines) -> (range: Range<Int>, lastLine: Int)? {
        guard lines.count >= 2 else { return nil }
        let opening = trimmed(lines, 1)
        guard opening == "---" || opening == "+++" else { return nil }
        for line in 2...lines.count {
            let closing = trimmed(lines, line)
            if closing == opening || (opening == "---" && closing == "...") {
                return (0..<lines.contentEnd(line), line)
            }
        }
        return nil
    }

    private static func trimmed(_ lines: SourceLines, _ line: Int) -> String {
        var end = lines.contentEnd(line)
        let start = lines.start(line)
        while end > start && (lines.bytes[end - 1] == 0x20 || lines.bytes[end - 1] == 0x09) { end -= 1 }
        guard end - start <= 3 else { return "" }
        return String(decoding: lines.bytes[start..<end], as: UTF8.self)
    }
}
