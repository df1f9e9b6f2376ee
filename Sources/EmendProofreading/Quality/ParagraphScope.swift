import EmendCore

/// Rules that look across sentences stop at a paragraph's end. Why: LanguageTool's
/// ENGLISH_WORD_REPEAT_BEGINNING_RULE reads a document as one run of sentences, so three list
/// items or three paragraphs that each begin with "The" are a flag, though no reader sees
/// them as successive sentences. A flag of such a rule is kept only when the sentences it
/// counts are in the flagged word's paragraph.
public enum ParagraphScope {
    /// Rules whose flag needs the sentences before the flagged one.
    public static let crossSentenceRules: Set<String> = ["ENGLISH_WORD_REPEAT_BEGINNING_RULE", "WORD_REPEAT_BEGINNING_RULE"]

    /// Whether `edit` is such a flag whose earlier sentences lie in other paragraphs.
    public static func crossesParagraph(_ edit: ProviderEdit, in bytes: [UInt8]) -> Bool {
        guard crossSentenceRules.contains(edit.ruleID), edit.range.upperBound <= bytes.count else { return false }
        let word = Array(bytes[edit.range]).map(lowered)
        guard !word.isEmpty else { return false }
        // "Three successive sentences begin with ..." counts two before this one.
        let needed = edit.explanation.hasPrefix("Three") ? 2 : 1
        let start = paragraphStart(before: edit.range.lowerBound, in: bytes)
        var found = 0
        var i = start
        var atSentenceStart = true
        while i < edit.range.lowerBound {
            let c = bytes[i]
            if atSentenceStart, isLetter(c) {
                let end = i + word.count
                if end <= edit.range.lowerBound, bytes[i..<end].map(lowered) == word, end == bytes.count || !isLetter(bytes[end]) {
                    found += 1
                }
                atSentenceStart = false
            } else if c == UInt8(ascii: ".") || c == UInt8(ascii: "!") || c == UInt8(ascii: "?") {
                atSentenceStart = true
            }
            i += 1
        }
        return found < needed
    }

    /// Where the paragraph holding `offset` begins: after a blank line, or at a line that
    /// starts a list item, a heading or a table row.
    static func paragraphStart(before offset: Int, in bytes: [UInt8]) -> Int {
        var lineStart = offset
        while lineStart > 0 && bytes[lineStart - 1] != 0x0A { lineStart -= 1 }
        while true {
            if startsBlock(at: lineStart, in: bytes) || lineStart == 0 { return lineStart }
            // The line before: blank ends the search.
            var previous = lineStart - 1
            while previous > 0 && bytes[previous - 1] != 0x0A { previous -= 1 }
            if bytes[previous..<(lineStart - 1)].allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return lineStart }
            lineStart = previous
        }
    }

    private static func startsBlock(at lineStart: Int, in bytes: [UInt8]) -> Bool {
        var i = lineStart
        while i < bytes.count && (bytes[i] == 0x20 || bytes[i] == 0x09) { i += 1 }
        guard i < bytes.count else { return false }
        let c = bytes[i]
        if c == UInt8(ascii: "#") || c == UInt8(ascii: "|") || c == UInt8(ascii: ">") { return true }
        if (c == UInt8(ascii: "-") || c == UInt8(ascii: "*") || c == UInt8(ascii: "+")) && i + 1 < bytes.count && bytes[i + 1] == 0x20 { return true }
        var j = i
        while j < bytes.count && bytes[j] >= 0x30 && bytes[j] <= 0x39 { j += 1 }
        return j > i && j < bytes.count && (bytes[j] == UInt8(ascii: ".") || bytes[j] == UInt8(ascii: ")"))
    }

    private static func isLetter(_ c: UInt8) -> Bool { (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c >= 0x80 }
    private static func lowered(_ c: UInt8) -> UInt8 { c >= 0x41 && c <= 0x5A ? c | 0x20 : c }
}
