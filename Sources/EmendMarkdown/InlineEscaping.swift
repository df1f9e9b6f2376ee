/// Writes inline pieces as Markdown lines, backslash-escaping a plain character only where
/// Markdown would read it as syntax, so that prose stays clean: "a * b", "snake_case",
/// "#hashtag", "1.5" and "Q&A" are written as they are.
struct InlineEscaping {
    let context: InlineContext

    /// What is next to a character: a line's edge, another plain character, or markup.
    private enum Neighbour {
        case edge
        case char(Unicode.Scalar)
        case other(String)

        var isSpace: Bool {
            switch self {
            case .edge: return true
            case .char(let scalar): return scalar.properties.isWhitespace
            case .other: return false
            }
        }

        var isAlphanumeric: Bool {
            if case .char(let scalar) = self { return scalar.isLetterOrDigit }
            return false
        }

        func isChar(_ scalar: Unicode.Scalar) -> Bool {
            if case .char(scalar) = self { return true }
            return false
        }
    }

    /// The lines of Markdown the pieces make (split at soft breaks).
    func lines(_ pieces: [InlinePiece]) -> [String] {
        let forced = LineStartEscapes(context: context).positions(in: pieces)
        var lines = [""]
        for (position, piece) in pieces.enumerated() {
            switch piece {
            case .lineBreak: lines.append("")
            case .markup(let text), .literal(let text): lines[lines.count - 1] += text
            case .char(let scalar, let inLink):
                let prev = neighbour(pieces, position - 1), next = neighbour(pieces, position + 1)
                lines[lines.count - 1] += escaped(scalar, prev: prev, next: next, inLink: inLink,
                                                  forced: forced.contains(position), following: following(pieces, after: position))
            }
        }
        return lines
    }

    private func escaped(_ scalar: Unicode.Scalar, prev: Neighbour, next: Neighbour, inLink: Bool, forced: Bool,
                         following: [Unicode.Scalar]) -> String {
        if scalar == " " || scalar == "\t" {
            // Markdown drops spaces at the start and end of a line (and of a table cell).
            if case .edge = prev { return reference(scalar) }
            if case .edge = next { return reference(scalar) }
            return String(scalar)
        }
        if scalar.value < 0x20 && scalar != "\t" { return reference(scalar) }
        let escape: Bool
        switch scalar {
        case _ where forced: escape = true
        case "\\":
            // Kept bare only before a letter or digit, which is always written as itself: before
            // punctuation it would escape it, before a character written as &#N; the reference.
            if case .char(let after) = next { escape = !after.isLetterOrDigit } else { escape = true }
        case "*": escape = !(prev.isSpace && next.isSpace)
        case "_": escape = !((prev.isSpace && next.isSpace) || (prev.isAlphanumeric && next.isAlphanumeric))
        case "`", "[": escape = true
        case "]": escape = inLink
        case "~":
            if case .other = prev { escape = true } else if case .other = next { escape = true } else {
                escape = prev.isChar("~") || next.isChar("~")
            }
        case "<":
            if case .char(let after) = next {
                escape = after == "/" || after == "!" || after == "?" || (after.isASCII && after.properties.isAlphabetic)
            } else {
                escape = false
            }
        case "&": escape = EntityReference.starts(following)
        case "!":
            if case .other(let text) = next { escape = text.hasPrefix("[") } else { escape = false }
        case "|": escape = context.inCell
        default: escape = false
        }
        return escape ? "\\" + String(scalar) : String(scalar)
    }

    private func reference(_ scalar: Unicode.Scalar) -> String { "&#\(scalar.value);" }

    private func neighbour(_ pieces: [InlinePiece], _ position: Int) -> Neighbour {
        guard pieces.indices.contains(position) else { return .edge }
        switch pieces[position] {
        case .lineBreak: return .edge
        case .char(let scalar, _): return .char(scalar)
        case .markup(let text), .literal(let text): return .other(text)
        }
    }

    /// The plain characters right after `position` (enough to tell an entity reference).
    private func following(_ pieces: [InlinePiece], after position: Int) -> [Unicode.Scalar] {
        var scalars: [Unicode.Scalar] = []
        var index = position + 1
        while index < pieces.count, scalars.count < 40, case .char(let scalar, _) = pieces[index] {
            scalars.append(scalar)
            index += 1
        }
        return scalars
    }
}

extension Unicode.Scalar {
    var isASCIIPunctuation: Bool {
        (0x21...0x2F).contains(value) || (0x3A...0x40).contains(value) || (0x5B...0x60).contains(value) || (0x7B...0x7E).contains(value)
    }

    var isLetterOrDigit: Bool {
        properties.isAlphabetic || properties.numericType != nil
    }
}
