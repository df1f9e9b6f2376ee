/// Characters that must be escaped because of where they stand in a line: markers that
/// would start a heading, quote, list, thematic break, setext underline or table delimiter
/// row at the start of a line, and a heading's trailing "#"s.
struct LineStartEscapes {
    let context: InlineContext

    /// Positions (in `pieces`) of the characters to escape.
    func positions(in pieces: [InlinePiece]) -> Set<Int> {
        var positions = Set<Int>()
        var lineStart = 0
        for position in 0...pieces.count where position == pieces.count || pieces[position] == .lineBreak {
            let line = lineStart..<position
            if context.lineStarts, let escape = lineStartEscape(pieces, line) { positions.insert(escape) }
            if context.inHeading, let escape = closingSequenceEscape(pieces, line) { positions.insert(escape) }
            lineStart = position + 1
        }
        return positions
    }

    private func lineStartEscape(_ pieces: [InlinePiece], _ line: Range<Int>) -> Int? {
        var chars: [Unicode.Scalar] = []
        for position in line {
            guard case .char(let scalar, _) = pieces[position] else { break }
            chars.append(scalar)
        }
        guard let first = chars.first else { return nil }
        let onlyChars = chars.count == line.count
        // After the first n characters: the end of the line, or a space.
        let endsOrSpaceAfter = { (n: Int) -> Bool in
            n < chars.count ? chars[n] == " " || chars[n] == "\t" : onlyChars
        }
        let isBlank = { (scalar: Unicode.Scalar) in scalar == " " || scalar == "\t" }
        switch first {
        case ">": return line.lowerBound
        case "-", "+", "*":
            if endsOrSpaceAfter(1) { return line.lowerBound }
        case "#":
            let run = chars.prefix { $0 == "#" }.count
            if run <= 6 && endsOrSpaceAfter(run) { return line.lowerBound }
        case "0"..."9":
            let run = chars.prefix { ("0"..."9").contains($0) }.count
            if run <= 9, run < chars.count, chars[run] == "." || chars[run] == ")", endsOrSpaceAfter(run + 1) {
                return line.lowerBound + run
            }
        default: break
        }
        guard onlyChars else { return nil }
        let marks = chars.filter { !isBlank($0) }
        // A setext underline ("==="), a table delimiter row ("--|--", ":--"), or a thematic break.
        if marks.allSatisfy({ $0 == "=" }) && first == "=" { return line.lowerBound }
        if "-:|".unicodeScalars.contains(first) && marks.contains("-") && marks.allSatisfy({ "-:|".unicodeScalars.contains($0) }) {
            return line.lowerBound
        }
        if "*_-".unicodeScalars.contains(first) && marks.count >= 3 && marks.allSatisfy({ $0 == first }) { return line.lowerBound }
        return nil
    }

    /// In a heading, trailing "#"s after a space (or alone) would be taken for a closing sequence.
    private func closingSequenceEscape(_ pieces: [InlinePiece], _ line: Range<Int>) -> Int? {
        var start = line.upperBound
        while start > line.lowerBound, case .char("#", _) = pieces[start - 1] { start -= 1 }
        guard start < line.upperBound else { return nil }
        if start == line.lowerBound { return start }
        if case .char(let before, _) = pieces[start - 1], before == " " || before == "\t" { return start }
        return nil
    }
}
