/// Telling a poor result from a good one, so that a weak model's output is shown to the user
/// with the reason instead of being applied as if it were good.
enum ResultQuality {
    /// Why `result` of `tool` on `source` is poor, or nil.
    static func problem(tool: WritingTool, source: String, result: String) -> String? {
        let words = normalizedWords(result)
        if words.isEmpty { return "The result is empty." }
        if tool.isRewrite, result.trimmingSpaces == source.trimmingSpaces {
            return "The rewrite is the same as the original text: nothing was changed."
        }
        if tool == .summary, result.utf8.count >= source.utf8.count, normalizedWords(source).count > 1 {
            return "The summary (\(result.utf8.count) bytes) is not shorter than the text it summarizes (\(source.utf8.count) bytes)."
        }
        if tool == .keyPoints || tool == .list || tool == .table,
           let repeated = repeatedItem(in: result) ?? repeatedItem(in: result, ignoringNumbers: true) {
            return "The \(tool == .table ? "table" : "list") repeats itself: “\(repeated.text)” appears \(repeated.count) times."
        }
        if let repeated = repeatedSentence(in: result) {
            return "The result repeats itself: “\(repeated.text)” appears \(repeated.count) times."
        }
        return nil
    }

    /// The first line (list item, table row) that appears more than once, ignoring list
    /// markers, case and punctuation; or, `ignoringNumbers`, three times or more with only its
    /// numbers changed (a model counting on: "12. Feedback", "13. Feedback", ...).
    static func repeatedItem(in text: String, ignoringNumbers: Bool = false) -> (text: String, count: Int)? {
        let lines = text.split(whereSeparator: { $0 == "\n" }).map { String($0) }
        let key = ignoringNumbers ? { normalizedWords($0).filter { !$0.allSatisfy(\.isNumber) } } : normalizedWords
        return firstRepeated(lines.filter { !key($0).isEmpty }, atLeast: ignoringNumbers ? 3 : 2, key: key)
    }

    /// A sentence of some length that appears three times or more: a model looping.
    static func repeatedSentence(in text: String) -> (text: String, count: Int)? {
        let bytes = AttributedTextBytes(text)
        let sentences = SentenceSegmenter.sentences(in: text).map { bytes.substring($0) }
        return firstRepeated(sentences.filter { normalizedWords($0).count >= 3 }, atLeast: 3)
    }

    private static func firstRepeated(_ items: [String], atLeast minimum: Int,
                                      key: (String) -> [String] = normalizedWords) -> (text: String, count: Int)? {
        var counts: [[String]: Int] = [:]
        for item in items { counts[key(item), default: 0] += 1 }
        for item in items {
            let count = counts[key(item)] ?? 0
            if count >= minimum { return (item.trimmingSpaces, count) }
        }
        return nil
    }

    /// Lower-cased words (letters and digits), list markers and punctuation dropped.
    static func normalizedWords(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        for character in text.lowercased() {
            if character.isLetter || character.isNumber {
                current.append(character)
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        // "1." of an ordered list item is a marker, not a word.
        if let first = words.first, first.allSatisfy(\.isNumber), text.trimmingSpaces.hasPrefix(first + ".") { words.removeFirst() }
        return words
    }
}

/// Substrings of a text by UTF-8 byte range.
private struct AttributedTextBytes {
    let utf8: [UInt8]
    init(_ text: String) { utf8 = Array(text.utf8) }
    func substring(_ range: Range<Int>) -> String { String(decoding: utf8[range], as: UTF8.self) }
}
