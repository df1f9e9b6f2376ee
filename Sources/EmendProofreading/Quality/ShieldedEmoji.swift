/// Emoji shortcodes, as GitHub, Slack and many READMEs write them: `:tada:`, `:rocket:`,
/// `:+1:`, `:white_check_mark:`. Why: the name between the colons is an identifier from an
/// emoji table, not prose (`:tada:` → "taxa"), and it renders as a picture.
extension ShieldedText {
    /// Ranges of `:name:` where the name is lower-case letters, digits, `_`, `+` and `-` with
    /// at least one letter or a leading sign (`:+1:`), and the colons are not glued to other words (`localhost:8000`,
    /// `12:30:45` and `std::io` are not shortcodes).
    static func emojiShortcodes(_ b: [UInt8]) -> [Range<Int>] {
        let colon = UInt8(ascii: ":")
        func isNameByte(_ c: UInt8) -> Bool {
            (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z")) || isDigit(c) || "_+-".utf8.contains(c)
        }
        var result: [Range<Int>] = []
        var i = 0
        while i < b.count {
            guard b[i] == colon, i == 0 || !isWordByte(b[i - 1]) && b[i - 1] != colon else { i += 1; continue }
            var end = i + 1
            while end < b.count, isNameByte(b[end]) { end += 1 }
            if end < b.count, b[end] == colon, end > i + 1, b[(i + 1)..<end].contains(where: isLetter) || "+-".utf8.contains(b[i + 1]),
               end + 1 == b.count || !isWordByte(b[end + 1]) && b[end + 1] != colon {
                result.append(i..<(end + 1))
                i = end + 1
            } else {
                i += 1
            }
        }
        return result
    }
}
