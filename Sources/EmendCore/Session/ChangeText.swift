import EmendText

/// The current text of one of Emend's changes (`LedgerHunk.text`): its start as one
/// `AttributedText` (`head`, all its styling) and the plain text appended after it in pieces
/// of up to `pieceBytes`, so that a change growing at its end never moves what it holds.
///
/// Why: a streamed result goes into the ledger as one change growing a part (64 KB) at a time.
/// Kept as one `String`, its storage doubled as it grew, and the doubling from 8 to 16 MiB
/// copied 8 MB and faulted in 16 MB of new pages within one streamed part's dispatch on the
/// engine's thread (the refused 20 MiB rewrite: 8.55 ms). Here an appended part goes on the
/// list of pieces (as `ResultPieces` keeps a streamed result) and taking the end off (a
/// restoring piece, `RestoringPiece`) drops pieces from the end: neither copies what stays.
/// The change stays one change of the ledger (review and revert count on one change per run
/// of text); only what reads its whole text (`text`) joins the pieces, once.
struct ChangeText {
    /// The text's start, with its styling.
    private(set) var head: AttributedText
    /// Plain text after `head`, in order (empty unless the change grew at its end while its
    /// text was plain).
    private var pieces: [String] = []
    /// The bytes in `pieces`.
    private var piecesCount = 0

    /// A piece grows to this many bytes before the next one starts (its growth copies at most
    /// this much at a time); a longer part is a piece of its own, as it is.
    static let pieceBytes = 1 << 16

    init(_ text: AttributedText) { head = text }

    /// Length in UTF-8 bytes (without joining the pieces).
    var utf8Count: Int { head.utf8Count + piecesCount }

    /// Whether the text carries no styling (`AttributedText.isPlain`): pieces are plain.
    var isPlain: Bool { head.isPlain }

    /// Whether the text is held in pieces (reading `text` joins them).
    var isInPieces: Bool { !pieces.isEmpty }

    /// The whole text (joins the pieces: costs the text's length when it is in pieces).
    var text: AttributedText {
        guard !pieces.isEmpty else { return head }
        var string = ""
        string.reserveCapacity(utf8Count)
        string += head.string
        for piece in pieces { string += piece }
        return AttributedText(string, attributeRuns: head.attributeRuns, blockIntents: head.blockIntents,
                              protectedRanges: head.protectedRanges)
    }

    /// Bytes `range` of the text (character boundaries, within `utf8Count`): the head's part
    /// with its styling, then the plain bytes of the pieces the range covers (only those read).
    func slice(_ range: Range<Int>) -> AttributedText {
        let headCount = head.utf8Count
        let inHead = head.slice(min(range.lowerBound, headCount)..<min(range.upperBound, headCount))
        guard range.upperBound > headCount else { return inHead }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(range.upperBound - max(range.lowerBound, headCount))
        var start = headCount
        for piece in pieces {
            let end = start + piece.utf8.count
            defer { start = end }
            if start >= range.upperBound { break }
            guard end > range.lowerBound else { continue }
            let from = max(range.lowerBound, start) - start, to = min(range.upperBound, end) - start
            var piece = piece
            piece.withUTF8 { bytes.append(contentsOf: $0[from..<to]) }
        }
        return inHead.appending(AttributedText(String(decoding: bytes, as: UTF8.self)))
    }

    /// The whole text as one `AttributedText` in `head`, to be changed in place.
    mutating func join() {
        guard !pieces.isEmpty else { return }
        let whole = text
        pieces = []
        piecesCount = 0
        head = whole
    }

    /// Appends plain `piece` at the end without moving what is held (the text must be plain).
    mutating func append(_ piece: String) {
        let count = piece.utf8.count
        guard count > 0 else { return }
        if pieces.isEmpty, head.utf8Count + count <= Self.pieceBytes {
            let end = head.utf8Count
            return head.replace(end..<end, with: piece)
        }
        piecesCount += count
        if count < Self.pieceBytes, let last = pieces.indices.last, pieces[last].utf8.count + count <= Self.pieceBytes {
            pieces[last] += piece
        } else {
            pieces.append(piece)
        }
    }

    /// Takes the last `count` bytes off (a character's first byte must follow them), in place:
    /// pieces are dropped from the end, the one cut is shortened where it is.
    mutating func removeLast(_ count: Int) {
        precondition(count >= 0 && count <= utf8Count, "more than the text taken off")
        var left = count
        while left > 0, let last = pieces.last {
            let length = last.utf8.count
            if length <= left {
                pieces.removeLast()
                piecesCount -= length
                left -= length
                continue
            }
            let index = pieces.count - 1
            let cut = pieces[index].utf8.index(pieces[index].utf8.startIndex, offsetBy: length - left)
            // A cut inside a character would take more than `left` off (String rounds it).
            assert(pieces[index].utf8[cut] & 0xC0 != 0x80, "the end taken off splits a character")
            pieces[index].removeSubrange(cut...)
            piecesCount -= left
            left = 0
        }
        if left > 0 {
            let end = head.utf8Count
            head.replace((end - left)..<end, with: "")
        }
    }

    /// Calls `body` with the text's bytes in order, a contiguous run at a time, until it
    /// returns false.
    func forEachRun(_ body: (UnsafeBufferPointer<UInt8>) -> Bool) {
        var string = head.string
        guard string.withUTF8(body) else { return }
        for piece in pieces {
            var piece = piece
            guard piece.withUTF8(body) else { return }
        }
    }

    /// Calls `body` with the text's bytes from the end, a contiguous run at a time (each run's
    /// bytes in order), until it returns false.
    func forEachRunFromEnd(_ body: (UnsafeBufferPointer<UInt8>) -> Bool) {
        for piece in pieces.reversed() {
            var piece = piece
            guard piece.withUTF8(body) else { return }
        }
        var string = head.string
        _ = string.withUTF8(body)
    }

    /// The byte at `offset` (< `utf8Count`).
    func byte(at offset: Int) -> UInt8 {
        if offset < head.utf8Count { return head.string.utf8[head.string.utf8.index(head.string.utf8.startIndex, offsetBy: offset)] }
        var at = offset - head.utf8Count
        for piece in pieces {
            let length = piece.utf8.count
            if at < length { return piece.utf8[piece.utf8.index(piece.utf8.startIndex, offsetBy: at)] }
            at -= length
        }
        preconditionFailure("a byte past the text's end")
    }
}
