import EmendCore
import EmendText

/// One change of a rewrite as a small hunk: where it is, then its line (a window of it when
/// long) with the change's original (`-`) and with this change alone made (`+`). As in
/// `diff -u`, the line and its position are the original text's: the other changes of the
/// rewrite, kept or still to decide, are not in the hunk (they have hunks of their own).
struct ChangeHunk {
    let fileName: String
    let encoding: PositionEncoding
    let palette: Palette
    /// Characters shown on each side of the change.
    var window = 60

    /// The hunk of `change` (number `number` of `count`), whose original is `range` of
    /// `bytes`, the text before the rewrite (`Finding.from` places a change there).
    func render(_ change: Coordinator.SuggestionInfo, at range: Range<Int>, number: Int, count: Int,
                in bytes: [UInt8]) -> String {
        guard range.upperBound <= bytes.count else { return "" }
        var positions = TextPositions(bytes, encoding: encoding)
        let position = positions.position(of: range.lowerBound)
        let lineEnd = max(positions.lineEnd(from: position.lineStart), range.upperBound)
        var before = String(decoding: bytes[position.lineStart..<range.lowerBound], as: UTF8.self)
        var after = String(decoding: bytes[range.upperBound..<lineEnd], as: UTF8.self)
        if before.count > window { before = "…" + String(before.suffix(window)) }
        if after.count > window { after = String(after.prefix(window)) + "…" }
        let header = palette.cyan("@@ \(fileName):\(position.line):\(position.column): change \(number)/\(count) @@")
        return header + "\n"
            + palette.red("-") + before + palette.red(visible(change.original)) + after + "\n"
            + palette.green("+") + before + palette.green(visible(change.replacement)) + after + "\n"
    }

    /// Line breaks inside a change shown as ⏎, so a hunk stays two lines.
    private func visible(_ text: String) -> String {
        text.contains("\n") ? text.replacingAll("\n", with: "⏎") : text
    }
}

private extension String {
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for c in self { if c == target { out += replacement } else { out.append(c) } }
        return out
    }
}
