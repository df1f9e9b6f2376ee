/// Turns one block's atoms and style runs into inline pieces: delimiters nested properly
/// (closed and reopened where runs cross), code spans, links, and newlines as soft breaks
/// or character references.
struct InlineComposition {
    let context: InlineContext

    func pieces(_ atoms: [InlineAtom], runs: [StyleRun]) -> [InlinePiece] {
        var pieces: [InlinePiece] = []
        var open: [InlineStyle] = []
        var code: String?
        let newlines = newlineForms(atoms)
        let flushCode = {
            if let content = code { pieces.append(.literal(CodeSpan.markdown(content, inCell: context.inCell))) }
            code = nil
        }
        for (position, atom) in atoms.enumerated() {
            var styles = Set(runs.filter { $0.range.contains(atom.index) }.map(\.style))
            // A code span cannot hold a line ending.
            if atom.isScalar("\n") || atom.isScalar("\r") { styles.remove(.code) }
            let inCode = styles.remove(.code) != nil
            if let firstClosed = open.firstIndex(where: { !styles.contains($0) }) {
                flushCode()
                for style in open[firstClosed...].reversed() { pieces.append(.markup(Self.closer(style))) }
                open.removeSubrange(firstClosed...)
            }
            let opening = styles.filter { !open.contains($0) }.sorted { a, b in
                let endA = end(of: a, at: atom.index, runs), endB = end(of: b, at: atom.index, runs)
                return endA != endB ? endA > endB : Self.rank(a) < Self.rank(b)
            }
            if !opening.isEmpty { flushCode() }
            for style in opening {
                pieces.append(.markup(Self.opener(style)))
                open.append(style)
            }
            if inCode {
                code = (code ?? "") + atom.text
                continue
            }
            flushCode()
            switch atom {
            case .token(let token, _): pieces.append(.literal(token))
            case .scalar(let scalar, _):
                if let newline = newlines[position] {
                    pieces.append(newline)
                } else {
                    pieces.append(.char(scalar, inLink: open.contains { if case .link = $0 { return true } else { return false } }))
                }
            }
        }
        flushCode()
        for style in open.reversed() { pieces.append(.markup(Self.closer(style))) }
        return pieces
    }

    /// How each newline (and carriage return) is written: a soft break between two lines of
    /// text, else (at either end, a second one in a row, or where no break may go) "&#10;".
    private func newlineForms(_ atoms: [InlineAtom]) -> [Int: InlinePiece] {
        let isNewline = { (atom: InlineAtom) in atom.isScalar("\n") }
        let first = atoms.firstIndex { !isNewline($0) } ?? atoms.count
        let last = atoms.lastIndex { !isNewline($0) } ?? -1
        var forms: [Int: InlinePiece] = [:]
        for (position, atom) in atoms.enumerated() {
            if atom.isScalar("\r") { forms[position] = .literal("&#13;") }
            guard isNewline(atom) else { continue }
            let breaks = context.lineBreaks && position > first && position < last && !isNewline(atoms[position - 1])
            forms[position] = breaks ? .lineBreak : .literal("&#10;")
        }
        return forms
    }

    /// Where the run of `style` around `index` ends.
    private func end(of style: InlineStyle, at index: Int, _ runs: [StyleRun]) -> Int {
        runs.first { $0.style == style && $0.range.contains(index) }?.range.upperBound ?? index
    }

    /// Links outermost, then strong, strikethrough, emphasis.
    private static func rank(_ style: InlineStyle) -> Int {
        switch style {
        case .link: return 0
        case .strong: return 1
        case .strikethrough: return 2
        case .emphasis: return 3
        case .code: return 4
        }
    }

    private static func opener(_ style: InlineStyle) -> String {
        switch style {
        case .strong: return "**"
        case .emphasis: return "*"
        case .strikethrough: return "~~"
        case .link: return "["
        case .code: return ""
        }
    }

    private static func closer(_ style: InlineStyle) -> String {
        switch style {
        case .link(let url): return "](" + LinkDestination.markdown(url) + ")"
        default: return opener(style)
        }
    }
}
