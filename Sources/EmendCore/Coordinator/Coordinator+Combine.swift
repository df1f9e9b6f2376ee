import EmendText

/// Proofreading with several providers (spelling + grammar): the first to finish gives the
/// session's suggestions, and each later one's are merged in as they arrive — identical ones
/// dropped, overlapping ones decided for the more preferred provider — and delivered, so the
/// engine sees suggestions stream in.
extension Coordinator {
    /// A provider finished (or was given up on): wake a session waiting for one.
    func lateBatchArrived() {
        guard let session, let resume = session.run.resumeOnBatch else { return }
        session.run.resumeOnBatch = nil
        resume()
    }

    /// Merges and delivers the late batches, waiting for providers still working; then
    /// `finalize` runs.
    func deliverLateBatches(then finalize: @escaping () -> Void) {
        guard let session else { return }
        if session.cancelRequested { return finishStop() }
        if !session.run.lateBatches.isEmpty {
            let batch = session.run.lateBatches.removeFirst()
            session.enter(.delivering)
            return mergeBatch(batch) { [weak self] in self?.deliverLateBatches(then: finalize) }
        }
        if session.hasRunningProviders {
            session.enter(.running)
            session.run.resumeOnBatch = { [weak self] in self?.deliverLateBatches(then: finalize) }
            return
        }
        session.enter(.delivering)
        finalize()
    }

    private func mergeBatch(_ batch: (rank: Int, edits: [ProviderEdit]), then: @escaping () -> Void) {
        guard let session, let context = session.working, !session.regionEditedExternally else {
            logger("a later provider's suggestions were dropped: the text changed meanwhile")
            return then()
        }
        let original = AttributedText(session.originalRegion.string, protectedRanges: session.originalProtected.compactMap {
            let start = $0.lowerBound - session.regionOriginalStart
            return start >= 0 ? start..<($0.upperBound - session.regionOriginalStart) : nil
        })
        var added: [(edit: ProviderEdit, range: Range<Int>)] = []
        // The furthest end among `added` (sorted by start): an edit starting after it
        // conflicts with none of them, and only one that does not is checked against each.
        var addedReach = Int.min
        var superseded: [Suggestion] = []
        let index = SuggestionIndex(session.suggestions)
        for edit in batch.edits.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
            // Request-relative bytes -> context bytes at the start -> region-relative bytes.
            let start = edit.range.lowerBound + session.run.requestOffset
            let range = start..<(edit.range.upperBound + session.run.requestOffset)
            let local = (range.lowerBound - session.regionOriginalStart)..<(range.upperBound - session.regionOriginalStart)
            guard local.lowerBound >= 0, local.upperBound <= original.utf8Count,
                  PositionConverter(original.string).isBoundary(local), !original.touchesProtectedText(local),
                  original.substring(local) != edit.replacement,
                  range.lowerBound > addedReach || !added.contains(where: { Self.conflicts($0.range, range) }) else {
                logger("dropped an invalid edit at \(range)")
                continue
            }
            let overlapping = index.overlapping(range, conflicts: Self.conflicts)
            if overlapping.isEmpty {
                added.append((edit, range))
                addedReach = max(addedReach, range.upperBound)
            } else if overlapping.contains(where: { $0.originalRange == range && $0.replacement == edit.replacement }) {
                continue   // the same suggestion from two providers
            } else if overlapping.allSatisfy({ $0.rank > batch.rank && $0.state == .pending }) {
                superseded += overlapping
                added.append((edit, range))
                addedReach = max(addedReach, range.upperBound)
            }
        }
        // Put the superseded suggestions' text back first, then map the new ones into the text.
        let reverts = superseded.compactMap { suggestion -> PlannedEdit? in
            guard suggestion.isApplied, let now = suggestion.anchor.range else { return nil }
            return PlannedEdit(anchor: context.anchor(now), replacement: suggestion.original) { _ in suggestion.isApplied = false }
        }
        for suggestion in superseded { suggestion.state = .invalid }
        deliver(reverts, kind: .result) { [weak self] in
            guard let self, let session = self.session else { return }
            let index = SuggestionIndex(session.suggestions)
            let fresh = added.compactMap { item -> Suggestion? in
                guard let now = self.currentRange(ofOriginal: item.range, in: session, index: index) else { return nil }
                return Suggestion(contextID: context.id, anchor: context.anchor(now), original: context.text.substring(now),
                                  edit: item.edit, originalRange: item.range, rank: batch.rank)
            }
            session.suggestions += fresh
            self.deliverSuggestions(fresh, then: then)
        }
    }

    /// Where a range of the text the providers read is now, going by the nearest suggestion
    /// before it (suggestions are the only changes inside the region while this holds).
    private func currentRange(ofOriginal range: Range<Int>, in session: Session, index: SuggestionIndex) -> Range<Int>? {
        let before = index.nearest(endingAtOrBefore: range.lowerBound)
        let base: Int
        if let before, let now = before.anchor.range {
            base = now.upperBound + (range.lowerBound - before.originalRange.upperBound)
        } else if let region = session.region?.range {
            base = region.lowerBound + (range.lowerBound - session.regionOriginalStart)
        } else {
            return nil
        }
        return base..<(base + range.count)
    }

    /// Whether two edits of the same text cannot both apply.
    static func conflicts(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        if a.isEmpty && b.isEmpty { return a.lowerBound == b.lowerBound }
        if a.isEmpty { return b.lowerBound < a.lowerBound && a.lowerBound < b.upperBound }
        if b.isEmpty { return a.lowerBound < b.lowerBound && b.lowerBound < a.upperBound }
        return a.overlaps(b)
    }
}
