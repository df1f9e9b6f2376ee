/// The tokens ⟦1⟧, ⟦2⟧, ... that stand for protected text in Markdown given to a model.
public enum PlaceholderToken {
    private static let open: [UInt8] = Array("⟦".utf8)
    private static let close: [UInt8] = Array("⟧".utf8)

    /// The token for number `n`.
    public static func make(_ n: Int) -> String { "⟦\(n)⟧" }

    /// Every token in `text`, in order, with its UTF-8 byte range.
    public static func find(in text: String) -> [(number: Int, range: Range<Int>)] {
        let bytes = Array(text.utf8)
        var found: [(number: Int, range: Range<Int>)] = []
        var index = 0
        while index < bytes.count {
            guard starts(bytes, with: open, at: index) else { index += 1; continue }
            var cursor = index + open.count
            var number = 0
            var digits = 0
            while cursor < bytes.count, (0x30...0x39).contains(bytes[cursor]), digits < 18 {
                number = number * 10 + Int(bytes[cursor] - 0x30)
                digits += 1
                cursor += 1
            }
            if digits > 0, starts(bytes, with: close, at: cursor) {
                found.append((number, index..<(cursor + close.count)))
                index = cursor + close.count
            } else {
                index += open.count
            }
        }
        return found
    }

    private static func starts(_ bytes: [UInt8], with prefix: [UInt8], at index: Int) -> Bool {
        guard index + prefix.count <= bytes.count else { return false }
        return bytes[index..<(index + prefix.count)].elementsEqual(prefix)
    }
}
