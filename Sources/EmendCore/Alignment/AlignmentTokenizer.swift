/// Splits text into alignment tokens: a run of letters/digits (with apostrophes inside words), a run
/// of whitespace, one CJK ideograph or kana, or one other character. Tokens are whole grapheme clusters.
enum AlignmentTokenizer {
    private enum Kind: UInt8 { case word, space, apostrophe, single }

    /// Token byte ranges covering `range` of `text` (whose UTF-8 bytes are `bytes`); `range` must
    /// start and end on character boundaries.
    static func tokens(in bytes: [UInt8], _ range: Range<Int>, of text: String) -> [Range<Int>] {
        var kinds: [Kind] = []
        var ends: [Int] = []
        kinds.reserveCapacity(range.count)
        ends.reserveCapacity(range.count)
        let utf8 = text.utf8
        let hi = range.upperBound
        var i = range.lowerBound
        while i < hi {
            let byte = bytes[i]
            // An ASCII byte followed by another ASCII byte is a whole character (except CR LF).
            if byte < 0x80 && (i + 1 == hi || (bytes[i + 1] < 0x80 && !(byte == 0x0D && bytes[i + 1] == 0x0A))) {
                kinds.append(asciiKind(byte))
                i += 1
            } else {
                let index = utf8.index(utf8.startIndex, offsetBy: i)
                let next = utf8.distance(from: utf8.startIndex, to: text.index(after: index))
                kinds.append(kind(of: text[index]))
                i = min(max(next, i + 1), hi)
            }
            ends.append(i)
        }
        var result: [Range<Int>] = []
        result.reserveCapacity(kinds.count)
        var start = range.lowerBound
        var c = 0
        let count = kinds.count
        while c < count {
            var d = c + 1
            switch kinds[c] {
            case .word:
                while d < count {
                    if kinds[d] == .word {
                        d += 1
                    } else if kinds[d] == .apostrophe && d + 1 < count && kinds[d + 1] == .word {
                        d += 2
                    } else {
                        break
                    }
                }
            case .space:
                while d < count && kinds[d] == .space { d += 1 }
            case .apostrophe, .single:
                break
            }
            result.append(start..<ends[d - 1])
            start = ends[d - 1]
            c = d
        }
        return result
    }

    @inline(__always)
    private static func asciiKind(_ byte: UInt8) -> Kind {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return .word
        case 0x09...0x0D, 0x20: return .space
        case 0x27: return .apostrophe
        default: return .single
        }
    }

    private static func kind(of character: Character) -> Kind {
        let first = character.unicodeScalars.first!
        let v = first.value
        if v < 0x80 { return asciiKind(UInt8(v)) }
        if v == 0x2019 { return .apostrophe }
        if isCJK(v) { return .single }
        if first.properties.isWhitespace { return .space }
        if character.isLetter || character.isNumber { return .word }
        return .single
    }

    /// Scripts written without spaces between words: each character is its own token.
    private static func isCJK(_ v: UInt32) -> Bool {
        switch v {
        case 0x3040...0x30FF, 0x31F0...0x31FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xF900...0xFAFF, 0xFF66...0xFF9F, 0x20000...0x3134F:
            return true
        default:
            return false
        }
    }
}
