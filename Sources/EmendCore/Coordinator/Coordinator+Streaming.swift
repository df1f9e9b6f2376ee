import EmendText
import EmendMarkdown

/// Streaming a rewrite into the text while the provider still writes it.
extension Coordinator {
    /// The most one streamed part holds, in bytes. Why: a part is read, aligned and inserted
    /// in one dispatch on the engine's thread (a 64 KB part costs about 0.2 ms); longer
    /// sentences (a model writing one endless sentence) are cut into parts this long.
    static let longestStreamedPart = 65_536

    /// The most result text that may wait to stream in, in bytes: past it the stream stops and
    /// the rest arrives with the whole result. Why: what waits is kept as one buffer of bytes
    /// (and a list of its sentence ends) for the sentence scanner, and when a provider writes
    /// faster than parts go in (a flood of 20 MiB, the engine's thread busy) it grew to
    /// megabytes and doubled inside one text event (perf: 6.7 ms in `StreamedSentences.append`).
    static let longestStreamBacklog = 1 << 20

    /// The Myers steps aligning one streamed part with the original's sentences may take
    /// (about 1 ms). Why: a part of repetitive words against as many of the original has few
    /// unique words to anchor on, and the default budget let it take 28 ms of the engine's
    /// thread for 20 KB; past this the rest of the part is one edit, and the final transition
    /// aligns the whole result anyway.
    static let streamingStepBudget = 300_000

    /// Delivers the next part of the result so far (its finished sentences, each in place of
    /// one sentence of the original, at most `longestStreamedPart` bytes). When the whole
    /// result arrives the final transition aligns what is in the text with it, so streaming
    /// never changes what the session ends with, and revert still finds the original.
    func streamPartialResult() {
        guard case .sentences(let minimumNewBytes) = options.streaming, let session, case .running = session.state, !session.presents,
              session.tool != .proofread, !session.run.streamInFlight,
              let context = session.working, let regionAnchor = session.region else { return }
        guard case .streaming(let streamed, let checked) = session.run.streaming else { return }
        if session.run.regionEdited {
            // The engine edited the region: streaming sentence by sentence would write over its
            // edit; the whole result arrives rebased onto it instead.
            return stopStreaming(session.run)
        }
        // The sentences were found as the pieces came (each byte examined once): this costs
        // the length of the part that goes in, never that of the result so far. Where the
        // region is (a search in the rope) only once a part is ready: this runs for every
        // piece a provider emits.
        let sentences = session.run.sentences
        guard sentences.count - streamed >= minimumNewBytes, let part = sentences.nextPart(limit: Self.longestStreamedPart),
              let region = regionAnchor.range else { return }
        if session.run.writesMarkdown && part.sentences == 0 {
            // A cut inside one long sentence could split emphasis or a placeholder token in
            // two parts that each read as plain text: Markdown is only streamed by sentences.
            return stopStreaming(session.run)
        }
        let settledText = sentences.text(streamed..<part.end)
        if session.run.writesMarkdown, !Self.readsAsPlainText(settledText, separator: session.run.paragraphSeparator)
            || !PlaceholderToken.find(in: settledText).isEmpty {
            // Markup (a list, a table, emphasis) and placeholder tokens must not show in the
            // text: the result arrives whole.
            return stopStreaming(session.run)
        }
        guard let edits = Self.streamingEdits(in: context.text, region: region, streamed: sentences.bytes(checked..<streamed),
                                              at: sentences.forgotten, settled: settledText, sentenceCount: part.sentences),
              Self.keepsProtectedText(edits, in: context.text, region: region, copies: protectedCopies(session.run, context: context, region: region)) else {
            // The engine changed what was streamed, or the sentences move protected text: the
            // rest arrives with the whole result.
            return stopStreaming(session.run)
        }
        session.run.streaming = .streaming(delivered: part.end, checked: streamed)
        session.run.sentences.take(upTo: part.end)
        // The next part reads back from `streamed` on; nothing before it is read again.
        session.run.sentences.forget(before: streamed)
        let run = session.run
        run.partSent()
        guard !edits.isEmpty else {
            // The part reads as the original already. The next one may be ready too: it goes
            // in a later work item, so a long unchanged result never runs in one dispatch.
            return queue.post(handling(.streamedPartDelivered(run)))
        }
        let planned = edits.map { edit in
            PlannedEdit(anchor: context.anchor((edit.range.lowerBound + region.lowerBound)..<(edit.range.upperBound + region.lowerBound)),
                        replacement: edit.replacement)
        }
        deliver(planned, kind: .result, onRefused: .streamedPartRefused(run), then: .streamedPartDelivered(run))
    }

    /// The engine refused a streamed part of `run`: the run fails (EMEND_E_REFUSED) and
    /// nothing of it waits any longer; the next run starts from a fresh state.
    func streamedPartRefused(_ run: RunState) {
        run.partRefused()
        fail(EmendError(.refused, "the engine refused a streamed replace"))
    }

    /// After a part of `run` went in: the next part when one is ready (also once the provider
    /// finished, so the final transition is left with at most one part's worth), else what
    /// waited for the stream.
    func streamedPartDone(_ run: RunState) {
        let waiting = run.partDelivered()
        guard let session, session.run === run else { return }
        streamPartialResult()
        // When another part went out, what waited waits for that one.
        guard let waiting, self.session === session, session.run === run, let now = run.providerEnded(waiting) else { return }
        perform(now)
    }

    /// The rest of the run's result arrives whole (or, when the run failed, never); the
    /// sentences found so far are let go.
    func stopStreaming(_ run: RunState) {
        run.streaming = .off
        run.sentences = StreamedSentences()
        run.streamingProtectedCopies = nil
    }

    /// Edits of `region` of `text` (relative to the region) that put the newly `settled`
    /// sentences of the result in place of as many sentences of the original after what was
    /// `streamed` before; the rest of the original stays until the whole result arrives.
    /// `streamed` is the part of the streamed bytes not yet found in place (its indices plus
    /// `resultOffset` are offsets in the result; it ends where the streamed text ends); nil
    /// when the region does not hold it there. Reads only that part and as many sentences of the original as it
    /// replaces, never the whole region.
    /// `sentenceCount` is the number of sentences in `settled` when the caller knows it (the
    /// streamed sentences were counted as they were found); nil segments `settled` to count.
    static func streamingEdits(in text: DocumentText, region: Range<Int>, streamed: ArraySlice<UInt8>, at resultOffset: Int = 0,
                               settled: String, sentenceCount: Int? = nil) -> [TextEdit]? {
        let base = resultOffset + streamed.endIndex
        guard region.count >= base,
              text.rope.bytes((region.lowerBound + resultOffset + streamed.startIndex)..<(region.lowerBound + base)).elementsEqual(streamed) else {
            return nil
        }
        let restStart = region.lowerBound + base
        let count = sentenceCount ?? SentenceSegmenter.sentences(in: settled).count
        let replaced = SentenceSegmenter.firstSentences(count, length: region.upperBound - restStart) {
            text.rope.bytes(($0.lowerBound + restStart)..<($0.upperBound + restStart))
        }
        let old = text.substring(restStart..<(restStart + replaced))
        return TextAlignment.edits(from: old, to: settled, stepBudget: streamingStepBudget).map {
            TextEdit(range: ($0.range.lowerBound + base)..<($0.range.upperBound + base), replacement: $0.replacement)
        }
    }

    /// Whether `edits` of the region leave its protected text and attachments where they are
    /// and copy none of `copies`.
    private static func keepsProtectedText(_ edits: [TextEdit], in text: some TextReading, region: Range<Int>, copies: [[UInt8]]) -> Bool {
        let absolute = edits.map { TextEdit(range: ($0.range.lowerBound + region.lowerBound)..<($0.range.upperBound + region.lowerBound),
                                            replacement: $0.replacement) }
        return ProtectedParts.keepInPlace(absolute, of: text, copiesOf: copies)
    }

    /// The bytes no streamed part of `run` may write (`ProtectedParts.copiesToAvoid`), read
    /// from the region once, at its first part, and kept for the rest of the stream. Why:
    /// read per part, they cost the region's length each time, and the region grows with
    /// what streamed in (a 16 MB answer read 16 MB per 64 KB part). They stay true while the
    /// stream goes on: the engine's edits of the region stop it (`regionEdited`), every part
    /// leaves the protected pieces where they are and writes no copy of them (checked here),
    /// and protection is declared only when a context is made.
    private func protectedCopies(_ run: RunState, context: SessionContext, region: Range<Int>) -> [[UInt8]] {
        if let kept = run.streamingProtectedCopies { return kept }
        let copies = ProtectedParts.copiesToAvoid(in: context.text, region: region)
        run.streamingProtectedCopies = copies
        return copies
    }

    /// Whether Markdown `text` reads as exactly itself in plain text (no markup in it), apart
    /// from the spaces around it.
    static func readsAsPlainText(_ text: String, separator: String) -> Bool {
        MarkdownDocument.parse(text).render(RichShape(paragraphSeparator: separator)).string == text.trimmingSpaces
    }

    /// Does `next` now, or after the streamed part in flight was delivered.
    func afterStreamedPart(_ next: RunState.AfterStream) {
        guard let session else { return perform(next) }
        if let now = session.run.providerEnded(next) { perform(now) }
    }

    /// What waited for the stream: the provider's end.
    private func perform(_ next: RunState.AfterStream) {
        switch next {
        case .providerFinished: providerFinished()
        case .fail(let error): fail(error)
        }
    }
}
