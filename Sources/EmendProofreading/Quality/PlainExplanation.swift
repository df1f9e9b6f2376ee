/// A suggestion's explanation as plain text, whatever markup its checker wrote: LanguageTool's
/// `<suggestion>could have</suggestion>` and Harper's `` `could have` `` become “could have”,
/// any other tag (`<marker>`) is dropped, and every word the message proposes that is not the
/// suggestion's replacement is listed after "Other suggestions: " (the list the language
/// server turns into code actions). Why in the filter: every checker's edits pass through
/// `FilteringProofreader`, so the CLI, the language server, libemend's engines and Neovim
/// all get text they can show as it is (include/emend.h, `emend_suggestion.explanation`).
public enum PlainExplanation {
    public static let othersMarker = "Other suggestions: "

    /// `explanation` as plain text, with the proposals it names but `replacement` listed.
    public static func cleaned(_ explanation: String, replacement: String, original: String) -> String {
        var proposals: [String] = []
        var text = quoting(explanation, open: "<suggestion>", close: "</suggestion>", found: &proposals)
        text = quoting(text, open: "`", close: "`", found: &proposals)
        text = withoutTags(text)
        let listed = listed(in: text)
        var missing: [String] = []
        for proposal in proposals where proposal != replacement && proposal != original && !proposal.isEmpty
            && !listed.contains(proposal) && !missing.contains(proposal) {
            missing.append(proposal)
        }
        guard !missing.isEmpty else { return text }
        let items = missing.map { "“\($0)”" }.joined(separator: ", ")
        if text.contains(othersMarker) {
            // Add to the provider's own list (it ends with a full stop).
            if text.hasSuffix(".") { return String(text.dropLast()) + ", " + items + "." }
            return text + ", " + items + "."
        }
        let spacer = text.isEmpty ? "" : (text.hasSuffix(".") || text.hasSuffix("?") || text.hasSuffix("!") ? " " : ". ")
        return text + spacer + othersMarker + items + "."
    }

    /// `text` with each `open`…`close` pair turned into curly quotes; their contents in `found`.
    static func quoting(_ text: String, open: String, close: String, found: inout [String]) -> String {
        guard !surelyLacks(text, open), text.contains(open) else { return text }
        var result = ""
        var rest = text[...]
        while let start = rest.firstRange(of: open) {
            guard let stop = rest[start.upperBound...].firstRange(of: close) else { break }
            result += rest[..<start.lowerBound]
            let inner = String(rest[start.upperBound..<stop.lowerBound])
            result += "“" + inner + "”"
            found.append(inner)
            rest = rest[stop.upperBound...]
        }
        result += rest
        return result
    }

    /// `text` without HTML/XML tags (`<marker>`, `</b>`, `<br/>`); a lone `<` (as in "a < b") stays.
    static func withoutTags(_ text: String) -> String {
        guard !surelyLacks(text, "<"), text.contains("<") else { return text }
        var result = ""
        var rest = text[...]
        while let lt = rest.firstIndex(of: "<") {
            result += rest[..<lt]
            let after = rest[rest.index(after: lt)...]
            let name = after.drop { $0 == "/" }
            if let first = name.first, first.isLetter, first.isASCII, let gt = after.firstIndex(of: ">"),
               !after[..<gt].contains("<"), !after[..<gt].contains("\n") {
                rest = after[after.index(after: gt)...]
            } else {
                result.append("<")
                rest = after
            }
        }
        result += rest
        return result
    }

    /// The further replacements an explanation lists ("Other suggestions: “a”, “b”."), in order.
    public static func otherSuggestions(in explanation: String) -> [String] {
        var seen: Set<String> = []
        return listed(in: explanation).filter { !$0.isEmpty && seen.insert($0).inserted }
    }

    /// The items of an "Other suggestions: “a”, “b”." list already in `text`.
    static func listed(in text: String) -> [String] {
        guard !surelyLacks(text, othersMarker), let marker = text.firstRange(of: othersMarker) else { return [] }
        var found: [String] = []
        var rest = text[marker.upperBound...]
        while let open = rest.firstIndex(of: "“") {
            let start = rest.index(after: open)
            guard let close = rest[start...].firstIndex(of: "”") else { break }
            found.append(String(rest[start..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return found
    }

    /// Whether `text` cannot contain the ASCII `needle`, by its bytes alone: a String search
    /// matches Characters, and a Character equals an ASCII one only when it is that one or
    /// canonically equivalent to it — which only the Kelvin sign (K), the Greek question
    /// mark (;) and the Greek varia (`) are; for needles with those, a text with them is
    /// not sure. Why: `contains` and `firstRange(of:)` of Strings for each of thousands of
    /// edits were some 8% of the CPU of a proofread of 1 MB; most explanations have none of
    /// the markup.
    static func surelyLacks(_ text: String, _ needle: String) -> Bool {
        let wanted = Array(needle.utf8)
        guard !wanted.isEmpty, wanted.allSatisfy({ $0 < 0x80 }) else { return false }
        let hasSingletonEquivalent = wanted.contains { $0 == UInt8(ascii: "K") || $0 == UInt8(ascii: ";") || $0 == UInt8(ascii: "`") }
        var text = text
        return text.withUTF8 { bytes in
            if hasSingletonEquivalent && singletonEquivalents.contains(where: { contains(bytes, $0) }) { return false }
            return !contains(bytes, wanted)
        }
    }

    /// U+212A KELVIN SIGN, U+037E GREEK QUESTION MARK, U+1FEF GREEK VARIA in UTF-8.
    private static let singletonEquivalents: [[UInt8]] = [[0xE2, 0x84, 0xAA], [0xCD, 0xBE], [0xE1, 0xBF, 0xAF]]

    private static func contains(_ bytes: UnsafeBufferPointer<UInt8>, _ wanted: [UInt8]) -> Bool {
        guard let first = wanted.first, bytes.count >= wanted.count else { return false }
        for start in 0...(bytes.count - wanted.count) where bytes[start] == first {
            if bytes[start..<start + wanted.count].elementsEqual(wanted) { return true }
        }
        return false
    }
}
