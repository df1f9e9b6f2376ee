/// What a provider's explanation says beyond the message: further replacements and a link
/// to the rule. Why read from the text: the provider ABI carries one replacement and no URL
/// per edit; the shipped providers write the others into the explanation ("Other
/// suggestions: “a”, “b”.", as the Hunspell provider does) and a rule's page as a plain URL.
enum ExplanationDetails {
    static let othersMarker = "Other suggestions: "

    /// The replacements listed after "Other suggestions: ", each in curly quotes.
    static func alternatives(in explanation: String) -> [String] {
        guard let marker = explanation.firstRange(of: othersMarker) else { return [] }
        var found: [String] = []
        var rest = explanation[marker.upperBound...]
        while let open = rest.firstIndex(of: "“") {
            let start = rest.index(after: open)
            guard let close = rest[start...].firstIndex(of: "”") else { break }
            let item = String(rest[start..<close])
            if !item.isEmpty && !found.contains(item) { found.append(item) }
            rest = rest[rest.index(after: close)...]
            // The list ends where the next item is not introduced by ", ".
            guard rest.hasPrefix(", “") else { break }
        }
        return found
    }

    /// The first http(s) URL in the explanation, without the punctuation that ends a sentence.
    static func link(in explanation: String) -> String? {
        guard let start = explanation.firstRange(of: "https://") ?? explanation.firstRange(of: "http://") else { return nil }
        var url = explanation[start.lowerBound...].prefix { !$0.isWhitespace && $0 != "”" && $0 != ">" && $0 != "\"" }
        while let last = url.last, ".,;:)]!?".contains(last) {
            // A closing parenthesis that closes one of the URL's own (Wikipedia) stays.
            if last == ")" && url.filter({ $0 == "(" }).count >= url.filter({ $0 == ")" }).count { break }
            url = url.dropLast()
        }
        return url.count > "https://".count ? String(url) : nil
    }
}
