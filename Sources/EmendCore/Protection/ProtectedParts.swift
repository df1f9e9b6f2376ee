import CEmendSystem
import EmendText

/// Replaces that keep protected text (declared ranges and attachments) where it is: the
/// engine's own bytes are never replaced, never dropped and never copied elsewhere.
enum ProtectedParts {
    private static let attachment = Array("\u{FFFC}".utf8)

    /// The protected ranges of `text` that overlap `range`, merged where they overlap or
    /// touch (an attachment inside a protected range is one piece with it).
    static func pieces(of text: some TextReading, overlapping range: Range<Int>) -> [Range<Int>] {
        var merged: [Range<Int>] = []
        for piece in text.protectedRanges(overlapping: range) {
            if let last = merged.last, piece.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, piece.upperBound)
            } else {
                merged.append(piece)
            }
        }
        return merged
    }

    /// When `replacement` holds the protected pieces inside `range` of `text` unchanged and
    /// in order: the parts between them, as (range of `text`, range of `replacement`'s
    /// bytes); else nil.
    static func split(_ range: Range<Int>, of text: some TextReading, replacement: [UInt8]) -> [(old: Range<Int>, new: Range<Int>)]? {
        let pieces = pieces(of: text, overlapping: range)
        guard !pieces.isEmpty, pieces.allSatisfy({ $0.lowerBound >= range.lowerBound && $0.upperBound <= range.upperBound }) else {
            return nil
        }
        var parts: [(old: Range<Int>, new: Range<Int>)] = []
        var old = range.lowerBound, new = 0
        for piece in pieces {
            let bytes = Array(text.substring(piece).utf8)
            guard let found = firstIndex(of: bytes, in: replacement[...], from: new) else { return nil }
            parts.append((old..<piece.lowerBound, new..<found))
            old = piece.upperBound
            new = found + bytes.count
        }
        parts.append((old..<range.upperBound, new..<replacement.count))
        return parts.filter { !$0.old.isEmpty || !$0.new.isEmpty }
    }

    /// `edits` of `region` of `text` (relative to the region) that turn it into `target`,
    /// made to keep protected text in place: as they are when they do; else, when `target`
    /// holds all the pieces in order, the edits of the text between them; else only those
    /// that neither replace protected text nor copy it elsewhere.
    static func keeping(_ edits: [VersionEdit], of text: some TextReading, region: Range<Int>, target: AttributedText,
                        styled: Bool) -> [VersionEdit] {
        let absolute = edits.map { TextEdit(range: ($0.range.lowerBound + region.lowerBound)..<($0.range.upperBound + region.lowerBound),
                                            replacement: $0.replacement.string) }
        if keepInPlace(absolute, of: text, copiesOf: [attachment]) { return edits }
        if keepInPlace([TextEdit(range: region, replacement: target.string)], of: text, copiesOf: [attachment]),
           let parts = split(region, of: text, replacement: Array(target.string.utf8)) {
            return parts.flatMap { part in
                let shift = part.old.lowerBound - region.lowerBound
                return VersionEdits.edits(from: text.slice(part.old), to: target.slice(part.new), styled: styled).map {
                    VersionEdit(range: ($0.range.lowerBound + shift)..<($0.range.upperBound + shift), replacement: $0.replacement)
                }
            }
        }
        let copies = copiesToAvoid(in: text, region: region)
        return zip(edits, absolute).filter { keepInPlace([$0.1], of: text, copiesOf: copies) }.map(\.0)
    }

    /// The bytes no edit of `region` may write: an attachment, or a protected piece of it.
    static func copiesToAvoid(in text: some TextReading, region: Range<Int>) -> [[UInt8]] {
        pieces(of: text, overlapping: region).map { Array(text.substring($0).utf8) } + [attachment]
    }

    /// Whether `edits` (ranges of `text`) keep protected text in place: each leaves it alone
    /// or holds the pieces it covers in order (and goes in parts around them), and none
    /// writes any of `copies` anywhere else.
    static func keepInPlace(_ edits: [TextEdit], of text: some TextReading, copiesOf copies: [[UInt8]]) -> Bool {
        for edit in edits {
            if text.touchesProtectedText(edit.range) {
                let replacement = Array(edit.replacement.utf8)
                guard let parts = split(edit.range, of: text, replacement: replacement) else { return false }
                let written = parts.map { replacement[$0.new] }
                if written.contains(where: { part in copies.contains { firstIndex(of: $0, in: part, from: part.startIndex) != nil } }) {
                    return false
                }
                continue
            }
            // The whole replacement is written: searched in the string's own storage (a streamed
            // part may be a megabyte and more).
            var replacement = edit.replacement
            if replacement.withUTF8({ bytes in copies.contains { firstIndex(of: $0, in: UnsafeRawBufferPointer(bytes)) != nil } }) {
                return false
            }
        }
        return true
    }

    /// Where `needle` first occurs in `haystack` at or after `start`. Why memmem: every
    /// streamed part and result is searched for attachments and protected text, and a byte
    /// loop over a 1.5 MB sentence took 3 ms of the engine's thread.
    private static func firstIndex(of needle: [UInt8], in haystack: ArraySlice<UInt8>, from start: Int) -> Int? {
        guard start >= haystack.startIndex, start <= haystack.endIndex else { return nil }
        return haystack[start...].withUnsafeBytes { firstIndex(of: needle, in: $0) }.map { start + $0 }
    }

    /// Where `needle` first occurs in `haystack` (an offset into it), or nil.
    private static func firstIndex(of needle: [UInt8], in haystack: UnsafeRawBufferPointer) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count, let base = haystack.baseAddress else { return nil }
        return needle.withUnsafeBytes { pin in
            emendsys_find_bytes(base, haystack.count, pin.baseAddress, pin.count).map { base.distance(to: $0) }
        }
    }
}
