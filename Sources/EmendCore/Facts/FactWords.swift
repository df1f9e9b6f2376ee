/// The words of a text as the fact extractor reads them: punctuation stripped, with where
/// sentences and clauses begin and end, links and addresses kept whole.
struct FactWord: Equatable {
    /// The word without the punctuation around it ("Friday", "$5", "don't", "10:30").
    let text: String
    /// Lower case, curly apostrophes made straight.
    let lower: String
    /// The first word of a sentence (or of a line, a list item, a heading).
    let startsSentence: Bool
    /// Punctuation after it ends a clause (, ; : . ! ? or a line break).
    let endsClause: Bool
    /// A link or an e-mail address (never a name or a number).
    let isAddress: Bool
}

enum FactWords {
    static let sentenceEnds: Set<Character> = [".", "!", "?"]
    static let clauseEnds: Set<Character> = [",", ";", ":", ".", "!", "?", "—", "–"]
    static let leading: Set<Character> = ["(", "[", "{", "\"", "“", "‘", "'", "`", "*", "_", "<", "«"]
    static let trailing: Set<Character> = [")", "]", "}", "\"", "”", "’", "'", "`", "*", "_", ">", "»", ".", ",", ";", ":", "!", "?", "…"]

    /// The words of `text`, in order.
    static func words(in text: String) -> [FactWord] {
        var words: [FactWord] = []
        var nextStartsSentence = true
        for (position, (chunk, breakBefore)) in chunks(of: text).enumerated() {
            if breakBefore { nextStartsSentence = true }
            let startsLine = breakBefore || position == 0
            if isAddress(chunk) {
                let bare = address(in: chunk)
                words.append(FactWord(text: bare, lower: bare.lowercased(), startsSentence: nextStartsSentence,
                                      endsClause: chunk.last.map { clauseEnds.contains($0) } ?? false, isAddress: true))
                nextStartsSentence = chunk.last.map { sentenceEnds.contains($0) } ?? false
                continue
            }
            // A list marker ("-", "*", "1.", "#") starts a sentence without being a word.
            if chunk == "-" || chunk == "*" || chunk == "+" || chunk.allSatisfy({ $0 == "#" }) || (startsLine && isOrdinalMarker(chunk)) {
                nextStartsSentence = true
                continue
            }
            let bare = trimmed(chunk)
            let tail = chunk.reversed().prefix { trailing.contains($0) }
            let endsSentence = tail.contains { sentenceEnds.contains($0) } && !isAbbreviation(bare)
            let endsClause = endsSentence || tail.contains { clauseEnds.contains($0) }
            if !bare.isEmpty {
                words.append(FactWord(text: bare, lower: normalized(bare), startsSentence: nextStartsSentence,
                                      endsClause: endsClause, isAddress: false))
                nextStartsSentence = false
            }
            if endsSentence || chunk.last == ":" { nextStartsSentence = true }
        }
        return words
    }

    /// Whitespace-separated chunks, each with whether a line break came before it. Read by
    /// Unicode scalars and cut as slices of the text (a character at a time, appended to a
    /// growing string, was the guard's largest cost on long texts).
    private static func chunks(of text: String) -> [(String, Bool)] {
        var chunks: [(String, Bool)] = []
        let scalars = text.unicodeScalars
        var start: String.UnicodeScalarView.Index?
        var sawBreak = false
        var index = scalars.startIndex
        while index < scalars.endIndex {
            let scalar = scalars[index]
            if scalar.properties.isWhitespace {
                if let begun = start { chunks.append((String(scalars[begun..<index]), sawBreak)); start = nil; sawBreak = false }
                if isLineBreak(scalar) { sawBreak = true }
            } else if start == nil {
                start = index
            }
            index = scalars.index(after: index)
        }
        if let begun = start { chunks.append((String(scalars[begun...]), sawBreak)) }
        return chunks
    }

    /// The scalars Character.isNewline counts as line breaks.
    private static func isLineBreak(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029: return true
        default: return false
        }
    }

    static func trimmed(_ chunk: String) -> String {
        var s = Substring(chunk)
        while let first = s.first, leading.contains(first) { s = s.dropFirst() }
        while let last = s.last, trailing.contains(last) {
            // "U.S." keeps its dots; "e.g." too.
            if last == ".", isAbbreviation(String(s)) { break }
            s = s.dropLast()
        }
        return String(s)
    }

    static func normalized(_ word: String) -> String {
        word.lowercased().replacingCharacters("’", with: "'")
    }

    /// The link or e-mail address a chunk holds, without the markup or punctuation around
    /// it: "[docs](https://example.com/a)." and "<https://example.com/a>" hold
    /// "https://example.com/a", as the same link written bare does.
    static func address(in chunk: String) -> String {
        let bare = trimmed(chunk)
        let start: String.Index
        if let scheme = bare.firstRange(of: "://") {
            // Back over the scheme's letters ("https").
            var index = scheme.lowerBound
            while index > bare.startIndex, bare[bare.index(before: index)].isLetter { index = bare.index(before: index) }
            start = index
        } else if bare.lowercased().hasPrefix("www.") {
            start = bare.startIndex
        } else {
            return bare
        }
        // Markup that ends a link in Markdown, HTML or prose; then the sentence's punctuation.
        let end = bare[start...].firstIndex { ")]>\"'<`".contains($0) || $0 == "”" || $0 == "’" } ?? bare.endIndex
        var address = Substring(bare[start..<end])
        while let last = address.last, ".,;:!?".contains(last) { address = address.dropLast() }
        return String(address)
    }

    static func isAddress(_ chunk: String) -> Bool {
        let bare = trimmed(chunk).lowercased()
        if bare.contains("://") || bare.hasPrefix("www.") { return true }
        if let at = bare.firstIndex(of: "@"), at != bare.startIndex, bare[bare.index(after: at)...].contains(".") { return true }
        return false
    }

    /// "1." or "2)" of a numbered list.
    private static func isOrdinalMarker(_ chunk: String) -> Bool {
        guard let last = chunk.last, last == "." || last == ")" else { return false }
        let digits = chunk.dropLast()
        return !digits.isEmpty && digits.count <= 3 && digits.allSatisfy(\.isNumber)
    }

    /// Dotted abbreviations whose dot does not end a sentence ("e.g.", "U.S.", "a.m.").
    private static func isAbbreviation(_ word: String) -> Bool {
        let lower = word.lowercased()
        if ["e.g.", "i.e.", "etc.", "vs.", "mr.", "mrs.", "ms.", "dr.", "a.m.", "p.m.", "approx.", "no."].contains(lower) { return true }
        let parts = lower.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count >= 3 && parts.dropLast().allSatisfy { $0.count == 1 && $0.first!.isLetter }
    }
}

extension String {
    /// This string with every `character` replaced by `replacement`.
    func replacingCharacters(_ character: Character, with replacement: Character) -> String {
        String(map { $0 == character ? replacement : $0 })
    }
}
