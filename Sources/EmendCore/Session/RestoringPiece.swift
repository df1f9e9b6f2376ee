/// The piece of a long change of Emend's that one restoring replace takes out of the text, or
/// of a long base text that one restoring replace puts back.
///
/// Why: a rewrite refused after 16 MB streamed in was taken back in one replace of 16 MB,
/// one dispatch of 18–23 ms for the engine and for Emend (the rope's chunks and the ledger's
/// change let go at once, the engine's own buffer edited). A change longer than `longest`
/// goes out from its end a piece per replace, each its own queue item; between them the
/// text is the original plus a prefix of what was delivered, as while it streamed in; the
/// last replace puts the original back over what is left. Likewise a change whose base is
/// longer (a rewrite of 16 MB into one sentence, reverted or shown original) gets its base
/// back from its end a piece per replace (`baseTail`), each put in after the change's text:
/// between them the text is the original with the change made over a shorter base.
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
    /// ledger trims the ends a change shares with its base (in place, `EditLedger.trim`, but a
    /// trimmed end is no longer part of the change: the next piece would be cut before it).
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

    /// The tail one replace puts back of a base text `count` bytes long (longer than
    /// `longest`): it ends at the base's end, starts at the first byte of a character, at most
    /// `longest` bytes before the end, and goes in after the change's current text. Between
    /// such replaces the text is the original with a shorter change of Emend's in it (what is
    /// left of the base shown as the change's text, or a prefix of it): the ledger takes the
    /// shared tail off both texts of the change where they are. `avoiding` (the base's first
    /// byte, when the change's text is empty) is kept from the piece's start where it can: a
    /// piece starting as the base does would share a start with it, and trimming that copies
    /// all of the base that is left (16 MB) into a new one.
    static func baseTail(count: Int, avoiding: UInt8?, longest: Int = longest, byte: (Int) -> UInt8) -> Range<Int> {
        guard count > longest else { return 0..<count }
        let earliest = count - longest
        var firstCharacterStart: Int?
        for cut in earliest..<min(count, earliest + search) where !isContinuation(byte(cut)) {
            if firstCharacterStart == nil { firstCharacterStart = cut }
            if byte(cut) != avoiding { return cut..<count }
        }
        return (firstCharacterStart ?? earliest)..<count
    }

    /// The lengths of a change's current text and of its base text, as restoring reads them.
    struct Sizes: Equatable {
        let text: Int
        /// 0 when the change is styled: the ledger keeps a styled change whole (it trims only
        /// plain text), so its base goes back in one replace, as before.
        let base: Int

        init(text: Int, base: Int) {
            self.text = text
            self.base = base
        }

        /// Change `index` of `ledger`.
        init(of index: Int, in ledger: EditLedger) {
            let hunk = ledger.hunk(index)
            self.init(text: hunk.textCount, base: hunk.baseText.isPlain && hunk.isTextPlain ? hunk.base.count : 0)
        }

        /// Whether it goes back a piece at a time: either text is longer than a piece.
        var isLong: Bool { text > RestoringPiece.longest || base > RestoringPiece.longest }

        /// Whether the piece that went out or in since `before` took the change nearer its
        /// base (neither text grew, one shrank). When not (the engine withdrew the piece or put
        /// something else in), the change goes back whole: pieces never go on without end.
        func isSmaller(than before: Sizes) -> Bool {
            text <= before.text && base <= before.base && (text < before.text || base < before.base)
        }
    }

    private static func isContinuation(_ byte: UInt8) -> Bool { byte & 0xC0 == 0x80 }
}
