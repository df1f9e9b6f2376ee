import EmendText

/// The spaces and line breaks around the text a tool read are the document's, not the
/// prose's: a whole file's final newline, the blank lines before a paragraph, the space after
/// a sentence. A model answers with its prose alone (it drops a file's final newline, or adds
/// one of its own), so the result gets the original's own whitespace at both ends, byte for
/// byte and with its styling, in place of whatever the answer had there.
enum SurroundingWhitespace {
    /// `result` with the leading and trailing whitespace of `original` instead of its own. An
    /// answer of nothing but whitespace is left as it is (the quality check judges it).
    static func kept(around result: AttributedText, from original: AttributedText) -> AttributedText {
        let answer = Array(result.string.utf8)
        let answerLead = leading(answer), answerTrail = trailing(answer)
        guard answerLead < answer.count else { return result }
        let source = Array(original.string.utf8)
        // Compose at a caret read nothing: its spaces are its own (ResultComposition's).
        guard !source.isEmpty else { return result }
        let sourceLead = leading(source)
        let sourceTrail = sourceLead == source.count ? 0 : trailing(source)
        // Nothing to do (the common case of a selection inside a line): no copy.
        if answerLead == 0 && answerTrail == 0 && sourceLead == 0 && sourceTrail == 0 { return result }
        // Each end keeps the answer's own whitespace when it is the original's, or when both hold
        // the same line breaks (the breaks are what a file keeps; the spaces and tabs beside
        // them are the prose's: "We go\treally \n" made concise is "We go\t\n", not
        // "We go \n"); else the original's comes back (a final newline, a sentence's space).
        let keepsLead = Self.keeps(answer[..<answerLead], source[..<sourceLead])
        let keepsTrail = Self.keeps(answer[(answer.count - answerTrail)...], source[(source.count - sourceTrail)...])
        if keepsLead && keepsTrail { return result }
        let lead = keepsLead ? result.slice(0..<answerLead) : original.slice(0..<sourceLead)
        let trail = keepsTrail ? result.slice((answer.count - answerTrail)..<answer.count) : original.slice((source.count - sourceTrail)..<source.count)
        return lead.appending(result.slice(answerLead..<(answer.count - answerTrail))).appending(trail)
    }

    /// Whether an answer's whitespace at one end may stay for the original's there.
    private static func keeps(_ answer: ArraySlice<UInt8>, _ source: ArraySlice<UInt8>) -> Bool {
        if answer.elementsEqual(source) { return true }
        let breaks = { (bytes: ArraySlice<UInt8>) in bytes.filter { $0 == 0x0A || $0 == 0x0D } }
        let sourceBreaks = breaks(source)
        return !sourceBreaks.isEmpty && breaks(answer) == sourceBreaks
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D }

    private static func leading(_ bytes: [UInt8]) -> Int { bytes.prefix(while: isSpace).count }

    private static func trailing(_ bytes: [UInt8]) -> Int { bytes.reversed().prefix(while: isSpace).count }
}
