/// One unit of a block's text for the writer: a scalar, or a placeholder token standing for
/// a whole protected range.
enum InlineAtom: Equatable {
    case scalar(Unicode.Scalar, at: Int)
    case token(String, at: Int)

    /// Scalar index where the atom starts.
    var index: Int {
        switch self {
        case .scalar(_, let index), .token(_, let index): return index
        }
    }

    var text: String {
        switch self {
        case .scalar(let scalar, _): return String(scalar)
        case .token(let token, _): return token
        }
    }

    func isScalar(_ scalar: Unicode.Scalar) -> Bool {
        if case .scalar(scalar, _) = self { return true }
        return false
    }
}

extension PlaceholderNumbering {
    /// The atoms of scalar range `range`: protected text starting in it becomes one token;
    /// protected text that started before it was written already and is left out.
    mutating func atoms(of range: Range<Int>, in source: SourceText) -> [InlineAtom] {
        var atoms: [InlineAtom] = []
        var index = range.lowerBound
        while index < range.upperBound {
            if let protected = self.range(containing: index) {
                if protected.lowerBound >= range.lowerBound {
                    atoms.append(.token(token(for: source.bytes(of: protected)), at: index))
                }
                index = min(protected.upperBound, range.upperBound)
            } else {
                atoms.append(.scalar(source.scalars[index], at: index))
                index += 1
            }
        }
        return atoms
    }
}
