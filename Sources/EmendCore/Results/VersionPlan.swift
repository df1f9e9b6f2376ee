import EmendText

/// The edits that turn a rewrite's region into one of its versions, planned from a copy of
/// the region, so that a runtime thread can do it.
///
/// Why: a rewrite's steps (its delivery, show original and back, undo, redo, a failed
/// follow-up going back) aligned the whole region on the engine's thread: the base put back
/// under Emend's changes, the version applied over it, the two texts aligned, protected text
/// kept in place — 28 ms for 10,000 words in a release build. The engine's thread now copies
/// what this reads (the region's text, Emend's changes in it, the version's changes), which
/// costs the region's bytes once and the number of changes; the rest runs elsewhere
/// (`Coordinator.planVersionEdits`). The steps are those of `Coordinator.plannedEdits`, on
/// the region's copy instead of the context's text: the same edits.
struct VersionPlan: Sendable {
    /// The region's text as it stands.
    let current: AttributedText
    /// Emend's net changes inside the region (spans relative to it), to put back for the base.
    let emendChanges: [(span: Range<Int>, baseText: AttributedText)]
    /// Where the region's base is in the base text.
    let baseRange: Range<Int>
    /// The version's changes of the base.
    let version: [LedgerHunk]
    /// Whether the engine takes rich results (runs restyled too, see `VersionEdits`).
    let styled: Bool

    /// One edit of the region's copy: `range` (relative to the region as it was copied) holds
    /// `expected` and becomes `replacement`.
    struct Edit: Sendable {
        let range: Range<Int>
        let replacement: AttributedText
        let expected: String
    }

    /// Copies what planning reads. Nil when the copy could plan otherwise than the context's
    /// text: a protected range the engine declared reaches over an edge of the region (the
    /// copy would hold only part of it); such a step is planned on the engine's thread.
    init?(context: SessionContext, region: Range<Int>, version: [LedgerHunk], styled: Bool) {
        let text = context.text
        // An empty range touches protected text only where a protected range goes on both sides of it.
        if text.touchesProtectedText(region.lowerBound..<region.lowerBound)
            || text.touchesProtectedText(region.upperBound..<region.upperBound) { return nil }
        // The string the engine gave when nothing changed the text since (a rewrite of a whole
        // 16 MB document copied it out of the rope in the dispatch its result was ready in).
        current = context.slice(region)
        emendChanges = context.ledger.changes(inside: region)
        baseRange = context.ledger.baseRange(ofCurrent: region)
        self.version = version
        self.styled = styled
    }

    /// The edits, by start (what `Coordinator.plannedEdits` plans from the context's text).
    /// Costs the region's alignment: run it off the engine's thread.
    func edits() -> [Edit] {
        let base = EditLedger.undoing(emendChanges, in: current)
        let target = EditLedger.applying(version, to: base, at: baseRange)
        let whole = 0..<current.utf8Count
        let edits = VersionEdits.edits(from: current, to: target, styled: styled)
        return ProtectedParts.keeping(edits, of: current, region: whole, target: target, styled: styled).map {
            Edit(range: $0.range, replacement: $0.replacement, expected: current.substring($0.range))
        }
    }
}
