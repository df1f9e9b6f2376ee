import EmendText

/// What a long planned edit changes: the edit without the bytes its expected text and its
/// replacement share at their ends (as `EditLedger.trimmed` cuts them), made on the plan's
/// thread.
///
/// Why: the ledger keeps a change without what its texts share at their ends, and cut that
/// off the change's base where it stood. A 16 MB region rewritten into one sentence shares
/// its last bytes with the sentence; cutting two bytes off the 16 MB base copied the rest of
/// it (the base is shared with the planned edit), 2 ms of the dispatch that took the engine's
/// answer. With the core made elsewhere, the delivery is recorded as the replace of the core
/// alone: the same change of the text, nothing left to cut (`SessionContext.applyDelivered`).
struct ChangedCore: Sendable {
    /// The bytes shared at the start and at the end.
    let prefix: Int
    let suffix: Int
    /// The expected text and the replacement without them.
    let old: String
    let new: String

    /// Edits whose expected text is this long get a core (shorter ones cost little to trim).
    static let minimumBytes = 1 << 16

    /// Nil when the texts share nothing at their ends, or are the same.
    init?(expected: String, replacement: String) {
        let count = expected.utf8.count
        let whole = LedgerHunk(base: 0..<count, baseText: AttributedText(expected), text: AttributedText(replacement))
        guard let trimmed = EditLedger.trimmed(whole), trimmed.base != whole.base else { return nil }
        prefix = trimmed.base.lowerBound
        suffix = count - trimmed.base.upperBound
        old = trimmed.baseText.string
        new = trimmed.text.string
    }

    /// Where the core is, for an edit of `range`.
    func range(in range: Range<Int>) -> Range<Int> { (range.lowerBound + prefix)..<(range.upperBound - suffix) }
}
