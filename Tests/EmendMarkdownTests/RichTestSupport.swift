import EmendMarkdown
import EmendText
import XCTest

/// The byte range of the `occurrence`-th match of `needle` in `text`.
func byteRange(of needle: String, in text: String, occurrence: Int = 0, file: StaticString = #filePath, line: UInt = #line) -> Range<Int> {
    let haystack = Array(text.utf8), pattern = Array(needle.utf8)
    var seen = 0
    if pattern.count <= haystack.count {
        for start in 0...(haystack.count - pattern.count) where haystack[start..<(start + pattern.count)].elementsEqual(pattern) {
            if seen == occurrence { return start..<(start + pattern.count) }
            seen += 1
        }
    }
    XCTFail("\(needle) not found in \(text)", file: file, line: line)
    return 0..<0
}

/// Runs as (key, value, covered text), for readable assertions.
func describedRuns(_ text: AttributedText) -> [String] {
    text.attributeRuns.map { "\($0.key)=\($0.value):\(text.substring($0.range))" }
}

/// Intents as readable strings with the text each covers.
func describedIntents(_ text: AttributedText) -> [String] {
    text.blockIntents.map { intent in
        let covered = text.substring(intent.range)
        switch intent.kind {
        case .heading: return "heading\(intent.level):\(covered)"
        case .listItem: return "item\(intent.level).\(intent.ordinal):\(covered)"
        case .tableCell: return "cell\(intent.row),\(intent.column):\(covered)"
        case .codeBlock: return "code:\(covered)"
        case .blockQuote: return "quote:\(covered)"
        case .paragraph: return "paragraph:\(covered)"
        }
    }
}

/// Writes the whole of `text` as Markdown.
func write(_ text: AttributedText, separator: String = "\n\n") -> MarkdownSource {
    MarkdownWriter.markdown(of: text, range: 0..<text.utf8Count, paragraphSeparator: separator)
}

/// The shape of an engine that takes everything: rich text, lists, tables, intents.
func fullShape(_ separator: String = "\n\n") -> RichShape {
    RichShape(richText: true, lists: true, tables: true, presentationIntents: true, paragraphSeparator: separator)
}
