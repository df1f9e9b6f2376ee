import EmendText

/// The text a proofread's request reads, copied out of the context's rope: here, or for a
/// large one on a runtime thread.
///
/// Why: copying a 10 MB region into the request's `String` (a fresh buffer's page faults and
/// UTF-8 validation) took 7 to 13 ms of the engine's thread at a session's start. What the
/// engine's thread takes instead is a `TextRope.Snapshot` of the region's chunks (their
/// number, not their bytes); the string is made from it elsewhere and the provider starts
/// from the continuation. The request is the text as it was when the snapshot was taken, as
/// if the provider had started then: the engine's edits meanwhile are kept as those made
/// while a provider runs are (the ledger's edits past the run's `baseLogMark`), and its
/// result is rebased through them, as on the Markdown path.
enum RequestText {
    /// Copied already (short, or made with the region's copy).
    case here(String)
    /// To be copied elsewhere from the chunks as they were.
    case elsewhere(TextRope.Snapshot)

    init(of text: DocumentText, _ range: Range<Int>, copiedHereBelow: Int) {
        self = range.count < copiedHereBelow ? .here(text.substring(range)) : .elsewhere(text.rope.snapshot(range))
    }

    /// The protected ranges and attachments overlapping `range` of `text`: for a text copied
    /// elsewhere only the declared ones (its attachments are found where it is copied: a
    /// scan of the 10 MB text took over a millisecond).
    func protectedRanges(of text: DocumentText, _ range: Range<Int>) -> [Range<Int>] {
        switch self {
        case .here: text.protectedRanges(overlapping: range)
        case .elsewhere: text.declaredProtectedRanges(overlapping: range)
        }
    }

    /// The text when it is copied already.
    var here: String? {
        if case .here(let text) = self { return text }
        return nil
    }
}

extension Coordinator {
    /// Starts `provider` on `request` with `text` as its text: at once when it is copied
    /// already, else once a runtime thread has copied it. A stop, failure or follow-up
    /// meanwhile (this run is no longer the session's, or no longer starting) drops the copy:
    /// the provider never starts.
    func launch(_ provider: WritingProvider, _ request: ProviderRequest, text: RequestText, state: RunState, session: Session,
                previousResult: String?, guidance: String?) {
        guard case .elsewhere(let snapshot) = text else {
            return launch(provider, request, state: state, session: session, previousResult: previousResult, guidance: guidance)
        }
        runElsewhere("the request's text is copied", { (snapshot.string, snapshot.attachmentRanges) }, then: { [weak self, request] copied in
            guard let self, self.session === session, session.run === state, self.workMayProceed(session) else { return }
            guard case .starting = session.state else { return }
            var request = request
            request.text = copied.0
            // The attachments, in the request's offsets, among the declared protected ranges.
            let attachments = copied.1.map { ($0.lowerBound - snapshot.start)..<($0.upperBound - snapshot.start) }
            if !attachments.isEmpty {
                request.protectedRanges = (request.protectedRanges + attachments).sorted { $0.lowerBound < $1.lowerBound }
            }
            self.launch(provider, request, state: state, session: session, previousResult: previousResult, guidance: guidance)
        })
    }
}
