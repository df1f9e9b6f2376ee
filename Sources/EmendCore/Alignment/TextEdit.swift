/// One replacement in a text: `range` (UTF-8 byte offsets into the text it applies to) becomes `replacement`.
public struct TextEdit: Equatable, Hashable, Sendable {
    public var range: Range<Int>
    public var replacement: String

    public init(range: Range<Int>, replacement: String) {
        self.range = range
        self.replacement = replacement
    }
}

extension TextEdit {
    /// Applies sorted, non-overlapping edits to `text`, returning the new text. Every range refers to
    /// the original `text`; ranges are clamped to the text, and a range that overlaps an earlier edit
    /// starts where that edit ended.
    public static func apply(_ edits: [TextEdit], to text: String) -> String {
        guard !edits.isEmpty else { return text }
        let source = Array(text.utf8)
        let sorted = edits.enumerated().sorted {
            ($0.element.range.lowerBound, $0.offset) < ($1.element.range.lowerBound, $1.offset)
        }
        var result: [UInt8] = []
        result.reserveCapacity(source.count + edits.reduce(0) { $0 + $1.replacement.utf8.count })
        var cursor = 0
        for (_, edit) in sorted {
            let lower = min(max(edit.range.lowerBound, cursor), source.count)
            let upper = min(max(edit.range.upperBound, lower), source.count)
            result.append(contentsOf: source[cursor..<lower])
            result.append(contentsOf: edit.replacement.utf8)
            cursor = upper
        }
        result.append(contentsOf: source[cursor...])
        return String(decoding: result, as: UTF8.self)
    }
}
