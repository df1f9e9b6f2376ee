/// The parts of a Markdown document no Writing Tool may change, found from cmark-gfm's parse
/// (CommonMark with the GFM table, strikethrough and autolink extensions). One rule set for
/// every front end: the CLI, the language server, the C ABI's
/// `emend_markdown_protected_ranges` (and through it the Neovim plugin).
///
/// Protected:
/// - front matter: YAML (`---` … `---` or `...`) or TOML (`+++` … `+++`) opening the file;
/// - fenced and indented code blocks, whole (fences and info string included);
/// - HTML blocks, whole (HTML comments included): raw HTML is markup a tool cannot tell from
///   its text;
/// - block quotes, whole: a quotation is someone's words, given as they were written (this
///   is what the `emend` command has always done; `--no-protect` checks them);
/// - code spans with their backticks; inline HTML tags and comments (the text between two
///   tags stays prose);
/// - autolinks (`<https://…>`, `<a@b.c>`) and the bare URLs, `www.` links and e-mail
///   addresses GFM links;
/// - a link's or image's destination part: `url "title"` inside its parentheses, or `[label]`; the whole link when
///   its text is its label (`[label]`, `[label][]`), since changing it breaks the link. Link
///   text and image descriptions are prose;
/// - link reference definitions (`[label]: url "title"`), whole;
/// - table delimiter rows (`|---|:-:|`); table cells are prose with their own inline rules.
///
/// Everything else — paragraphs, headings, list items, table cells, emphasis, link text — is
/// prose. Where a position cmark reports cannot be checked against the source, the whole
/// paragraph (or heading or cell) is protected: a missed correction costs less than a changed
/// link. Ranges are UTF-8 byte ranges of `bytes`, sorted, disjoint and not touching (touching
/// ranges are merged), never splitting a character.
public enum MarkdownProtection {
    public static func protectedRanges(in bytes: [UInt8]) -> [Range<Int>] {
        guard !bytes.isEmpty else { return [] }
        let lines = SourceLines(bytes)
        var ranges: [Range<Int>] = []
        var parsed = bytes
        if let front = FrontMatter.find(in: lines) {
            ranges.append(front.range)
            // Blank lines for cmark, so that every later line keeps its number.
            for i in 0..<lines.next(front.lastLine) where parsed[i] != 0x0A && parsed[i] != 0x0D { parsed[i] = 0x20 }
        }
        // cmark reads NUL as U+FFFD (three bytes), which would move every column after it.
        for i in parsed.indices where parsed[i] == 0 { parsed[i] = 0x1A }
        var walk = ProtectionWalk(lines: lines)
        let walked = parsed.withUnsafeBufferPointer { buffer in CmarkParsing.withDocument(buffer) { walk.walk($0) } } ?? false
        // Without a parse (cmark could not allocate) nothing can be told apart: all is protected.
        guard walked else { return [0..<bytes.count] }
        return normalized(ranges + walk.ranges, in: bytes)
    }

    /// Sorted, without empty ranges, overlapping or touching ranges merged, each widened to
    /// whole characters (a check that failed may have stopped inside one).
    private static func normalized(_ ranges: [Range<Int>], in bytes: [UInt8]) -> [Range<Int>] {
        func isContinuation(_ i: Int) -> Bool { i < bytes.count && bytes[i] & 0xC0 == 0x80 }
        var merged: [Range<Int>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) where !range.isEmpty {
            var low = max(0, range.lowerBound)
            var high = min(bytes.count, range.upperBound)
            while low > 0 && isContinuation(low) { low -= 1 }
            while isContinuation(high) { high += 1 }
            guard low < high else { continue }
            if let last = merged.last, low <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, high)
            } else {
                merged.append(low..<high)
            }
        }
        return merged
    }
}
