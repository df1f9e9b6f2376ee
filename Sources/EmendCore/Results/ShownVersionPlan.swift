/// What a version's plan (`VersionPlan`) knows the region will show once its edits went in:
/// the version itself, when the edits turn the region's copy into it byte for byte.
///
/// Why: after each step a rewrite's version shown is compared with the region
/// (`Coordinator.keepShownVersionTrue`), and making the version over the whole region and
/// comparing cost milliseconds per megabyte on the engine's thread (a rewrite of a million
/// words: 3 ms of the dispatch that took the engine's answer). The plan compared the two on
/// its own thread; when every edit then went in as planned and nothing else reached the
/// ledger meanwhile (no engine edit, no other delivery: the ledger's generation moved by the
/// delivery's replaces alone) and the region is where and as long as the version, the region
/// shows the version without reading it (`ShownVersionTrack.delivered`).
struct ShownVersionPlan {
    /// The version planned.
    let target: Int
    /// The region's start, and the version's length in bytes.
    let regionStart: Int
    let length: Int
    /// The ledger's generation and engine edits when the region was copied.
    let generation: Int
    let baseEdits: Int
    /// The version's number of changes then (it changes only with the engine's edits).
    let versionChanges: Int

    /// Records that the region shows the version, after a delivery of the plan's edits that
    /// went in as planned with `recorded` replaces, if nothing else happened since the copy.
    func noteShown(in session: Session, context: SessionContext, recorded: Int) {
        let ledger = context.ledger
        guard session.working === context, ledger.baseEdits.count == baseEdits, ledger.generation == generation + recorded,
              session.region?.range == regionStart..<(regionStart + length),
              session.versions.indices.contains(target), session.versions[target].count == versionChanges else { return }
        session.shownVersionTrack = .delivered(version: target, generation: ledger.generation, baseEdits: ledger.baseEdits.count)
    }
}
