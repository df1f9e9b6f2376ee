import EmendText

/// What a context holds of its text: the rope and its indexes (`built`), or, while they are
/// built on a thread of their own, the engine's text as a plain copy with the edits the
/// engine reported meanwhile (`building`).
///
/// Why: a 4 MB document's rope took tens of milliseconds of the dispatch that took the
/// contexts answer. emend.h promises that the context ids exist from that dispatch and the
/// engine reports its edits from then on, so the context exists at once and only its text
/// waits; nothing that reads the text (the region, the provider request, suggestions) runs
/// before `Coordinator.contextsBuilt`.
enum ContextContent {
    case building(TextBeingBuilt)
    case built(DocumentText)
}

/// A context's text while its rope is built elsewhere: the engine's text as it is now (the
/// original with the edits reported since) and those edits, in order, to be replayed on the
/// built rope exactly as the engine made them.
final class TextBeingBuilt {
    /// An edit the engine reported while the rope was being built: already checked (in range,
    /// and a change), as the built context would have checked it.
    struct EngineEdit {
        let range: Range<Int>
        let replacement: String
    }

    /// The text the engine answered (its storage shared with the thread that builds the rope).
    private let original: AttributedText
    /// The engine's text now: the original and `edits`, as pieces (see `PieceText`).
    private var text: PieceText
    private(set) var edits: [EngineEdit] = []
    /// The engine's text now with its styling, made for a getter and kept until the next edit
    /// (see `current`).
    private var made: (text: AttributedText, edits: Int)?

    /// The counts of the text's chunks now (see `ChunkCounts`), kept through the engine's
    /// edits: those of the original made on the thread that builds the rope (`take`), or, for
    /// a call that needs them first, made here.
    private var counts: ChunkCounts?
    /// What each of `edits` removed and inserted, counted: enough to replay them into the
    /// counts of the original when those come in.
    private var tallies: [(removed: ChunkCounts.Tally, inserted: ChunkCounts.Tally)] = []
    /// How many bytes a chunk holds (tests use small ones).
    let chunk: Int

    init(_ original: AttributedText, chunk: Int = 16 << 10) {
        self.original = original
        text = PieceText(original.string)
        self.chunk = chunk
    }

    var utf8Count: Int { text.utf8Count }

    /// The engine's text now with its styling (what the getters of the whole text read): the
    /// original with the edits replayed, made when first asked for after an edit (it costs the
    /// text's length; an edit costs only its pieces).
    var current: AttributedText {
        if edits.isEmpty { return original }
        var now = made ?? (original, 0)
        made = nil  // held here too, the replays below would copy the text
        for edit in edits[now.edits...] { now.text.replace(edit.range, with: edit.replacement) }
        now.edits = edits.count
        made = now
        return now.text
    }

    /// Whether the counts are made (here, or taken from elsewhere).
    var hasCounts: Bool { counts != nil }

    /// Offset conversion for the text as it is now, without reading it from its start (before
    /// the counts are in, this call counts the original, eight bytes a step, and replays the
    /// edits into them).
    var positions: BuildingPositions {
        if counts == nil { take(countsOfOriginal: ChunkCounts(of: original.string, chunk: chunk)) }
        return BuildingPositions(text: text, counts: counts!)
    }

    /// Takes the counts of the original text, made elsewhere, and replays into them the edits
    /// recorded since (their sums only: no byte is read). Counts made here first are kept.
    func take(countsOfOriginal original: ChunkCounts) {
        guard counts == nil else { return }
        var made = original
        for (edit, tally) in zip(edits, tallies) {
            made.replace(edit.range, length: edit.replacement.utf8.count, removed: tally.removed, inserted: tally.inserted)
        }
        counts = made
    }

    /// Keeps an engine edit; returns false for one that changes nothing (the built context
    /// ignores it the same way: compared as strings).
    func record(_ range: Range<Int>, _ replacement: String) -> Bool {
        guard text.substring(range) != replacement else { return false }
        let removed = text.withBytes(range) { ChunkCounts.tally($0, 0..<$0.count) }
        let inserted = ChunkCounts.tally(of: replacement)
        text.replace(range, with: replacement)
        counts?.replace(range, length: replacement.utf8.count, removed: removed, inserted: inserted)
        edits.append(EngineEdit(range: range, replacement: replacement))
        tallies.append((removed, inserted))
        return true
    }
}
