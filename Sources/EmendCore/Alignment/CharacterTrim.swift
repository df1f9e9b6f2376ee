/// Narrows a replacement to the span where whole characters (grapheme clusters) differ, comparing bytes.
enum CharacterTrim {
    /// `original[a]` → `proposed[b]` with the common leading and trailing characters removed from both.
    static func narrow(_ a: Range<Int>, of original: String,
                       _ b: Range<Int>, of proposed: String) -> (Range<Int>, Range<Int>) {
        let sa = slice(original, a)
        let sb = slice(proposed, b)
        var ia = sa.startIndex
        var ib = sb.startIndex
        var prefix = 0
        while ia < sa.endIndex && ib < sb.endIndex {
            let na = sa.index(after: ia)
            let nb = sb.index(after: ib)
            guard sa.utf8[ia..<na].elementsEqual(sb.utf8[ib..<nb]) else { break }
            prefix += sa.utf8.distance(from: ia, to: na)
            ia = na
            ib = nb
        }
        let restA = sa[ia...]
        let restB = sb[ib...]
        var ja = restA.endIndex
        var jb = restB.endIndex
        var suffix = 0
        while ja > restA.startIndex && jb > restB.startIndex {
            let pa = restA.index(before: ja)
            let pb = restB.index(before: jb)
            guard restA.utf8[pa..<ja].elementsEqual(restB.utf8[pb..<jb]) else { break }
            suffix += restA.utf8.distance(from: pa, to: ja)
            ja = pa
            jb = pb
        }
        return ((a.lowerBound + prefix)..<(a.upperBound - suffix), (b.lowerBound + prefix)..<(b.upperBound - suffix))
    }

    /// The substring at byte offsets `range`, which lie on character boundaries.
    static func slice(_ text: String, _ range: Range<Int>) -> Substring {
        let start = text.utf8.index(text.utf8.startIndex, offsetBy: range.lowerBound)
        let end = text.utf8.index(start, offsetBy: range.count)
        return text[start..<end]
    }
}
