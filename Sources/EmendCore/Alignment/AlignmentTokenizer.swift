/// Splits text into alignment tokens: a run of letters/digits (with apostrophes inside words), a run
/// of whitespace, one CJK ideograph or kana, or one other character. Tokens are whole grapheme clusters.
enum AlignmentTokenizer {
    private enum Kind: UInt8 { case word, space, apostrophe, single }

    /// Token byte ranges of `text`, offset by `base` (the byte offset of `text` in its document).
    static func tokens(in text: Substring, base: Int) -> [Range<Int>] {
        var kinds: [Kind] = []
        var lengths: [Int] = []
        for character in text {
            kinds.append(kind(of: character))
            lengths.append(character.utf8.count)
        }
        var result: [Range<Int>] = []
        result.reserveCapacity(kinds.count)
        var offset = base
        var i = 0
        let count = kinds.count
        while i < count {
            var j = i + 1
            switch kinds[i] {
            case .word:
                while j < count {
                    if kinds[j] == .word {
                        j += 1
                    } else if kinds[j] == .apostrophe && j + 1 < count && kinds[j + 1] == .word {
                        j += 2
                    } else {
                        break
                    }
                }
            case .space:
                while j < count && kinds[j] == .space { j += 1 }
            case .apostrophe, .single:
                break
            }
            var length = 0
            for t in i..<j { length += lengths[t] }
            result.append(offset..<(offset + length))
            offset += length
            i = j
        }
        return result
    }

    private static func kind(of character: Character) -> Kind {
        let first = character.unicodeScalars.first!
        let v = first.value
        if v < 0x80 {
            switch v {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return .word
            case 0x09...0x0D, 0x20: return .space
            case 0x27: return .apostrophe
            default: return .single
            }
        }
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
