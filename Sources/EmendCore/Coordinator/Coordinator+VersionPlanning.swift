import EmendText

/// Planning a rewrite's step off the engine's thread: the region is aligned with the version
/// on a runtime thread (`VersionPlan`), and the edits come back to the engine's thread.
extension Coordinator {
    /// Delivers the edits that turn the region into `versions[target]` (see `deliver`), once
    /// they are planned: on a runtime thread for a version (the alignment costs the region),
    /// at once for the original (each of Emend's changes undone: no alignment).
    func deliverVersion(_ target: Int, kind: ChangeKind, reason: ReplaceReason = .interactive,
                        onRefused: SessionEvent? = nil, then: SessionEvent) {
        if target == 0, let context = session?.working {
            // Each of Emend's changes undone, a slice planned at a time (a rewrite of every
            // word is as many changes).
            return deliverRestoring(in: context, styled: resolvedResultOptions.carriesStyling, kind: kind, reason: reason,
                                    onRefused: onRefused, then: then)
        }
        planVersionEdits(to: target) { [weak self] edits, shows in
            self?.deliver(edits, kind: kind, reason: reason, onRefused: onRefused, shows: shows, then: then)
        }
    }

    /// Hands the edits that turn the region into `versions[target]` to `then`, on the engine's
    /// thread. A version's are planned on a runtime thread from a copy of the region, while
    /// the session's `alignment` says a plan is out: the engine's edits meanwhile are kept
    /// there and the plan's edits move through them (`VersionAlignment.place`), as anchors
    /// made at once would have; a stop, revert or restore drops the plan (`then` never runs:
    /// the restore takes over). The original's, and a region the copy cannot stand for (a
    /// protected range over its edge), are planned here, as before. With the edits comes what
    /// the region shows once they went in as planned (`ShownVersionPlan`), when the plan knows.
    func planVersionEdits(to target: Int, then: @escaping ([PlannedEdit], ShownVersionPlan?) -> Void) {
        guard let session, let context = session.working, let region = session.region?.range else { return then([], nil) }
        let styled = resolvedResultOptions.carriesStyling
        guard target != 0, session.versions.indices.contains(target),
              let plan = VersionPlan(context: context, region: region, version: session.versions[target], styled: styled) else {
            return then(plannedEdits(to: target, in: context, region: region), nil)
        }
        // The ledger as the region was copied: the version shown is known after the delivery
        // only if nothing but its replaces reached the ledger since.
        let copied = (generation: context.ledger.generation, baseEdits: context.ledger.baseEdits.count,
                      versionChanges: session.versions[target].count, replaces: plan.replaces)
        let flight = VersionAlignment.Flight(target: target, regionStart: region.lowerBound)
        let ticket = flight.ticket
        session.alignment = .inFlight(flight)
        // The plan's edits where the text is now, as planned edits: an anchor each, made
        // `suggestionSlice` at a time (one queue item each: a rewrite of every other word of
        // a long text is as many edits). The plan stays out until the last is made, so the
        // engine's edits between slices move those not made yet; the made ones follow them.
        weak let owner = self
        let planned = PlannedEdits()
        func anchored(_ plan: VersionPlan.Planned, from start: Int) {
            let edits = plan.edits
            guard let self = owner, self.session === session, let flight = session.alignment.flight(ticket) else { return }
            guard self.workMayProceed(session), let context = session.working else { return }
            let end = min(edits.count, start + Self.suggestionSlice)
            // With no replace of the rope since the copy, each edit is where the plan read it.
            let unchanged = context.text.rope.replaceCount == copied.replaces
            for edit in edits[start..<end] {
                guard let range = VersionAlignment.place(edit.range, of: flight) else { continue }
                // Wherever an engine edit moved it, its replacement (and its prepared chunks) stay.
                planned.edits.append(PlannedEdit(anchor: context.anchor(range), replacement: edit.replacement.string,
                                                 styling: styled ? edit.replacement : nil, expected: edit.expected,
                                                 knownAt: unchanged && !edit.holdsAttachment ? copied.replaces : nil,
                                                 prepared: edit.prepared, core: edit.core))
            }
            guard end == edits.count else { return self.queue.post { anchored(plan, from: end) } }
            _ = session.alignment.land(ticket)
            let shows = plan.makeVersion
                ? ShownVersionPlan(target: target, regionStart: region.lowerBound, length: plan.versionLength,
                                   generation: copied.generation, baseEdits: copied.baseEdits, versionChanges: copied.versionChanges)
                : nil
            then(planned.take(), shows)
        }
        // Making an anchor for each edit costs their number: a dispatch of its own (`.fresh`).
        runElsewhere("a version's edits are planned", { plan.planned() }) { made in anchored(made, from: 0) }
    }
}

/// The planned edits made so far, grown in place across queue items.
private final class PlannedEdits {
    var edits: [Coordinator.PlannedEdit] = []

    func take() -> [Coordinator.PlannedEdit] {
        defer { edits = [] }
        return edits
    }
}
