/// Classification of Unicode scalar values used by sentence and paragraph scanning.
enum ScalarTraits {
    /// Line breaks: LF, VT, FF, CR, NEL, LINE SEPARATOR, PARAGRAPH SEPARATOR.
    @inline(__always)
    static func isLineBreak(_ v: UInt32) -> Bool {
        (v >= 0x0A && v <= 0x0D) || v == 0x85 || v == 0x2028 || v == 0x2029
    }

    /// Unicode White_Space (including line breaks and no-break spaces).
    @inline(__always)
    static func isWhitespace(_ v: UInt32) -> Bool {
        if v < 0x80 { return v == 0x20 || (v >= 0x09 && v <= 0x0D) }
        guard let s = Unicode.Scalar(v) else { return false }
        return s.properties.isWhitespace
    }

    /// Scalars that continue the grapheme cluster before them (Extend, ZWJ, SpacingMark, emoji modifiers).
    @inline(__always)
    static func isClusterExtender(_ v: UInt32) -> Bool {
        if v < 0x300 { return false }
        if v == 0x200D || (v >= 0x1F3FB && v <= 0x1F3FF) { return true }
        guard let s = Unicode.Scalar(v) else { return false }
        return s.properties.isGraphemeExtend || s.properties.generalCategory == .spacingMark
    }

    /// Marks that can end a sentence: . ! ? … ‼ ⁇ ⁈ ⁉ and the CJK ones.
    @inline(__always)
    static func isSentenceTerminal(_ v: UInt32) -> Bool {
        switch v {
        case 0x2E, 0x21, 0x3F, 0x2026, 0x203C, 0x2047, 0x2048, 0x2049: return true
        default: return isCJKTerminal(v)
        }
    }

    /// CJK full stops and marks (。！？．｡), which end a sentence even without following whitespace.
    @inline(__always)
    static func isCJKTerminal(_ v: UInt32) -> Bool {
        v == 0x3002 || v == 0xFF01 || v == 0xFF1F || v == 0xFF0E || v == 0xFF61
    }

    /// Closing quotes and brackets that stay with the sentence mark before them.
    @inline(__always)
    static func isClosingPunctuation(_ v: UInt32) -> Bool {
        switch v {
        case 0x22, 0x27, 0x29, 0x5D, 0x7D, 0xBB, 0x2019, 0x201D, 0x203A,
             0x3009, 0x300B, 0x300D, 0x300F, 0x3011, 0x3015, 0x3017, 0x3019, 0x301B,
             0xFF02, 0xFF07, 0xFF09, 0xFF3D, 0xFF5D, 0xFF63:
            return true
        default:
            return false
        }
    }

    /// Lowercase letters (Unicode Lowercase property).
    @inline(__always)
    static func isLowercase(_ v: UInt32) -> Bool {
        if v < 0x80 { return v >= 0x61 && v <= 0x7A }
        guard let s = Unicode.Scalar(v) else { return false }
        return s.properties.isLowercase
    }

    /// Uppercase letters (Unicode Uppercase property).
    @inline(__always)
    static func isUppercase(_ v: UInt32) -> Bool {
        if v < 0x80 { return v >= 0x41 && v <= 0x5A }
        guard let s = Unicode.Scalar(v) else { return false }
        return s.properties.isUppercase
    }
}
