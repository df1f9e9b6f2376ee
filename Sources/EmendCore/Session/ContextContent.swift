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

    /// The engine's text now (original plus `edits`): what the getters read meanwhile.
    private(set) var current: AttributedText
    private(set) var edits: [EngineEdit] = []

    /// The counts of `current`'s chunks, made when a conversion first needs them and kept
    /// through the engine's edits (see `ChunkCounts`).
    private var counts: ChunkCounts?
    /// How many bytes a chunk holds (tests use small ones).
    private let chunk: Int

    init(_ original: AttributedText, chunk: Int = 16 << 10) {
        current = original
        self.chunk = chunk
    }

    var utf8Count: Int { current.string.utf8.count }

    /// Offset conversion for the text as it is now, without reading it from its start.
    var positions: BuildingPositions {
        var text = current.string
        if counts == nil { counts = text.withUTF8 { ChunkCounts($0, chunk: chunk) } }
        return BuildingPositions(text: text, counts: counts!)
    }

    /// Keeps an engine edit; returns false for one that changes nothing (the built context
    /// ignores it the same way).
    func record(_ range: Range<Int>, _ replacement: String) -> Bool {
        guard current.substring(range) != replacement else { return false }
        current.replace(range, with: replacement)
        if counts != nil {
            var text = current.string
            text.withUTF8 { counts!.replace(range, length: replacement.utf8.count, in: $0) }
        }
        edits.append(EngineEdit(range: range, replacement: replacement))
        return true
    }
}
