/// The piece of a long change of Emend's that one restoring replace takes out of the text.
///
/// Why: a rewrite refused after 16 MB streamed in was taken back in one replace of 16 MB,
/// one dispatch of 18–23 ms for the engine and for Emend (the rope's chunks and the ledger's
/// change let go at once, the engine's own buffer edited). A change longer than `longest`
/// goes out from its end a piece per replace, each its own queue item; between them the
/// text is the original plus a prefix of what was delivered, as while it streamed in; the
/// last replace puts the original back over what is left.
enum RestoringPiece {
    /// The most one restoring replace takes out of a change (about 0.2 ms of copying,
    /// indexing and the engine's edit).
    static let longest = 65_536

    /// How far a cut may move to a better byte (see `tail`).
    private static let search = 64

    /// The tail one replace takes out of `span`, the current text of a change longer than
    /// `longest`: it ends at the span's end, starts at the first byte of a character, at most
    /// `longest` bytes before the end. `byte` reads the text. Where it can, the cut leaves
    /// before it a byte other than `baseLast` (the last byte of the change's base text): the
    /// ledger trims the ends a change shares with its base, and trimming one copies all of
    /// what is left of the change (16 MB) into a new one.
    static func tail(of span: Range<Int>, baseLast: UInt8?, longest: Int = longest, byte: (Int) -> UInt8) -> Range<Int> {
        guard span.count > longest else { return span }
        let earliest = span.upperBound - longest
        var firstCharacterStart: Int?
        for cut in earliest..<min(span.upperBound, earliest + search) where !isContinuation(byte(cut)) {
            if firstCharacterStart == nil { firstCharacterStart = cut }
            if byte(cut - 1) != baseLast { return cut..<span.upperBound }
        }
        return (firstCharacterStart ?? earliest)..<span.upperBound
    }

    private static func isContinuation(_ byte: UInt8) -> Bool { byte & 0xC0 == 0x80 }
}
