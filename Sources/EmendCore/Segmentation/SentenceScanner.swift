/// Sentence boundaries on UTF-8 bytes; see `SentenceSegmenter` for the rules.
enum SentenceScanner {
    /// Sentences covering `range`, which must start and end on paragraph boundaries.
    static func sentences(in bytes: [UInt8], range: Range<Int>) -> [Range<Int>] {
        var result: [Range<Int>] = []
        let hi = range.upperBound
        var start = range.lowerBound
        var i = start
        while i < hi {
            let b = bytes[i]
            // Fast path: ASCII bytes that neither break lines nor end sentences.
            if b < 0x80 && b != 0x2E && b != 0x21 && b != 0x3F && (b < 0x0A || b > 0x0D) {
                i += 1
                continue
            }
            let breakLength = ParagraphScanner.lineBreakLength(at: i, in: bytes)
            if breakLength > 0 {
                let end = trailingWhitespaceEnd(from: i + breakLength, limit: hi, afterBreak: true, in: bytes)
                result.append(start..<end)
                start = end
                i = end
                continue
            }
            let (v, len) = UTF8Scan.scalar(at: i, in: bytes)
            guard ScalarTraits.isSentenceTerminal(v) else {
                i += len
                continue
            }
            if let end = sentenceEnd(markAt: i, limit: hi, in: bytes) {
                result.append(start..<end)
                start = end
                i = end
            } else {
                i += len
                while i < hi {
                    let (w, l) = UTF8Scan.scalar(at: i, in: bytes)
                    guard ScalarTraits.isSentenceTerminal(w) else { break }
                    i += l
                }
            }
        }
        if start < hi { result.append(start..<hi) }
        return result
    }

    /// Where the sentence whose mark starts at `i` ends (after closing punctuation and trailing
    /// whitespace), or `nil` when the mark does not end a sentence. The word before the mark
    /// is read no further back than `floor` (where the text being segmented starts).
    static func sentenceEnd(markAt i: Int, limit hi: Int, floor: Int = 0, in bytes: [UInt8]) -> Int? {
        var j = i
        var periods = 0
        var marks = 0
        var ellipsis = false
        var cjk = false
        while j < hi {
            let (w, l) = UTF8Scan.scalar(at: j, in: bytes)
            guard ScalarTraits.isSentenceTerminal(w) else { break }
            marks += 1
            if w == 0x2E { periods += 1 }
            if w == 0x2026 { ellipsis = true }
            if ScalarTraits.isCJKTerminal(w) { cjk = true }
            j += l
        }
        if periods >= 2 && periods == marks { ellipsis = true }
        let marksEnd = j
        while j < hi {
            let (w, l) = UTF8Scan.scalar(at: j, in: bytes)
            guard ScalarTraits.isClosingPunctuation(w) else { break }
            j += l
        }
        let closed = j > marksEnd
        let atEnd = j >= bytes.count
        if !cjk {
            if !atEnd && !ScalarTraits.isWhitespace(UTF8Scan.scalar(at: j, in: bytes).value) { return nil }
            let next = nextVisibleScalar(from: j, limit: hi, in: bytes)
            let lowercaseFollows = next.map(ScalarTraits.isLowercase) ?? false
            if (ellipsis || closed) && lowercaseFollows { return nil }
            if marks == 1 && periods == 1 {
                switch SentenceAbbreviations.kind(of: bytes, wordBefore(i, floor: floor, in: bytes)) {
                case .always?:
                    return nil
                case .unlessCapitalFollows?:
                    if !(next.map(ScalarTraits.isUppercase) ?? false) { return nil }
                case nil:
                    break
                }
            }
        }
        return trailingWhitespaceEnd(from: j, limit: hi, afterBreak: false, in: bytes)
    }

    /// The end of the whitespace run at `j`, backed off to just after its last line break when text follows
    /// (so the next line's indentation opens the next sentence), and never inside a grapheme cluster.
    static func trailingWhitespaceEnd(from j: Int, limit hi: Int, afterBreak: Bool, in bytes: [UInt8]) -> Int {
        var k = j
        var lastBreakEnd = afterBreak ? j : -1
        while k < hi {
            let breakLength = ParagraphScanner.lineBreakLength(at: k, in: bytes)
            if breakLength > 0 {
                k += breakLength
                lastBreakEnd = k
                continue
            }
            let (w, l) = UTF8Scan.scalar(at: k, in: bytes)
            guard ScalarTraits.isWhitespace(w) else { break }
            k += l
        }
        if k < hi && lastBreakEnd >= 0 { k = lastBreakEnd }
        // After a line break a new character always starts; elsewhere, keep combining marks with the space.
        while k < hi && k != lastBreakEnd {
            let (w, l) = UTF8Scan.scalar(at: k, in: bytes)
            guard ScalarTraits.isClusterExtender(w) else { break }
            k += l
        }
        return k
    }

    /// The first non-whitespace scalar at or after `j` (before `limit`).
    static func nextVisibleScalar(from j: Int, limit: Int, in bytes: [UInt8]) -> UInt32? {
        var k = j
        while k < limit {
            let (w, l) = UTF8Scan.scalar(at: k, in: bytes)
            if !ScalarTraits.isWhitespace(w) { return w }
            k += l
        }
        return nil
    }

    /// The word right before byte `i`: letters and inner periods, back to whitespace or
    /// punctuation (or `floor`).
    static func wordBefore(_ i: Int, floor: Int = 0, in bytes: [UInt8]) -> Range<Int> {
        var s = i
        while s > floor && i - s < 32 {
            let p = UTF8Scan.scalarStart(before: s, in: bytes)
            let v = UTF8Scan.scalar(at: p, in: bytes).value
            guard v == 0x2E || isWordScalar(v) else { break }
            s = p
        }
        return s..<i
    }

    /// Letters and the marks that combine with them.
    private static func isWordScalar(_ v: UInt32) -> Bool {
        if v < 0x80 { return (v | 0x20) >= 0x61 && (v | 0x20) <= 0x7A }
        guard let s = Unicode.Scalar(v) else { return false }
        return s.properties.isAlphabetic || ScalarTraits.isClusterExtender(v)
    }
}
