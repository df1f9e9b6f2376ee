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
    /// The region's text as it stands, made on the plan's thread.
    let region: SessionContext.RegionCopy
    /// The rope's `replaceCount` when the region was copied (see `PlannedEdit.knownAt`).
    let replaces: Int
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
        /// A long replacement cut into the rope's chunks here (see `PreparedReplacement`).
        let prepared: PreparedReplacement?
        /// Whether `range` holds an attachment (protected: see `AttributedText`).
        let holdsAttachment: Bool
        /// What a long edit changes, without the ends its texts share (see `ChangedCore`).
        let core: ChangedCore?
    }

    /// The edits, and what they make of the region.
    struct Planned: Sendable {
        /// By start.
        let edits: [Edit]
        /// Whether they turn the region's copy into the version byte for byte (protected text
        /// the version moved stays where it is: then they do not).
        let makeVersion: Bool
        /// The version's length in bytes.
        let versionLength: Int
    }

    /// A replacement this long is cut into the rope's chunks on the plan's thread.
    static let preparedBytes = 1 << 16

    /// Copies what planning reads. Nil when the copy could plan otherwise than the context's
    /// text: a protected range the engine declared reaches over an edge of the region (the
    /// copy would hold only part of it); such a step is planned on the engine's thread.
    init?(context: SessionContext, region: Range<Int>, version: [LedgerHunk], styled: Bool) {
        let text = context.text
        // An empty range touches protected text only where a protected range goes on both sides of it.
        if text.touchesProtectedText(region.lowerBound..<region.lowerBound)
            || text.touchesProtectedText(region.upperBound..<region.upperBound) { return nil }
        // The string the engine gave when nothing changed the text since (a rewrite of a whole
        // 16 MB document copied it out of the rope in the dispatch its result was ready in),
        // else the rope's chunks, copied on the plan's thread.
        self.region = context.laterSlice(region)
        replaces = text.rope.replaceCount
        emendChanges = context.ledger.changes(inside: region)
        baseRange = context.ledger.baseRange(ofCurrent: region)
        self.version = version
        self.styled = styled
    }

    /// The edits, by start (what `Coordinator.plannedEdits` plans from the context's text),
    /// and what they make of the region. Costs the region's alignment and a copy of it: run
    /// it off the engine's thread.
    func planned() -> Planned {
        let current = region.made
        let base = EditLedger.undoing(emendChanges, in: current)
        let target = EditLedger.applying(version, to: base, at: baseRange)
        let whole = 0..<current.utf8Count
        let kept = ProtectedParts.keeping(VersionEdits.edits(from: current, to: target, styled: styled), of: current,
                                          region: whole, target: target, styled: styled)
        let edits = kept.map {
            let replacement = $0.replacement.string.utf8
            let expected = current.substring($0.range)
            let plain = !styled && $0.replacement.isPlain
            return Edit(range: $0.range, replacement: $0.replacement, expected: expected,
                        prepared: replacement.count >= Self.preparedBytes ? PreparedReplacement(replacement) : nil,
                        holdsAttachment: current.containsAttachment($0.range),
                        core: plain && $0.range.count >= ChangedCore.minimumBytes
                            ? ChangedCore(expected: expected, replacement: $0.replacement.string) : nil)
        }
        return Planned(edits: edits, makeVersion: Self.text(current.string, after: edits) == target.string,
                       versionLength: target.utf8Count)
    }

    /// `text` with `edits` (by start, ranges in `text`) made; nil when they overlap.
    static func text(_ text: String, after edits: [Edit]) -> String? {
        let bytes = Array(text.utf8)
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var at = 0
        for edit in edits {
            guard edit.range.lowerBound >= at, edit.range.upperBound <= bytes.count else { return nil }
            result += bytes[at..<edit.range.lowerBound]
            result += edit.replacement.string.utf8
            at = edit.range.upperBound
        }
        result += bytes[at...]
        return String(decoding: result, as: UTF8.self)
    }
}
