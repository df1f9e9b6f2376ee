/// A provider's text result as it streams in: pieces of up to `pieceBytes` each, joined only
/// when the whole result is read.
///
/// Why: one `String` that every piece was appended to doubled its storage as it grew, and a
/// 16 MB answer copied 8 MB (and faulted in 16 MB of new pages) within one text event on the
/// engine's thread. Here a piece is appended to a small tail that is put on the list once it
/// holds `pieceBytes`: no append moves what came before it. The whole text is joined once,
/// where the result is read (the analysis, on a thread of its own).
struct ResultPieces: Sendable {
    /// The pieces that are full, in order.
    private var full: [String] = []
    /// The last piece, still growing (small pieces a provider emits byte by byte join here).
    private var tail = ""
    /// The length of the whole text, in UTF-8 bytes.
    private(set) var utf8Count = 0

    /// A tail this long goes on the list (its growth copies at most this much at a time).
    static let pieceBytes = 1 << 16

    init() {}

    init(_ text: String) { append(text) }

    var isEmpty: Bool { utf8Count == 0 }

    mutating func append(_ piece: String) {
        let count = piece.utf8.count
        guard count > 0 else { return }
        utf8Count += count
        if count >= Self.pieceBytes {
            // A large piece goes on the list as it is (no copy), after what the tail holds.
            if !tail.isEmpty { full.append(tail); tail = "" }
            full.append(piece)
            return
        }
        tail += piece
        if tail.utf8.count >= Self.pieceBytes {
            full.append(tail)
            tail = ""
        }
    }

    /// The whole text (costs its length).
    var string: String {
        if full.isEmpty { return tail }
        if full.count == 1, tail.isEmpty { return full[0] }
        var whole = ""
        whole.reserveCapacity(utf8Count)
        for piece in full { whole += piece }
        whole += tail
        return whole
    }
}
