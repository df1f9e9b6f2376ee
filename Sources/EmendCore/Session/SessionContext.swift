import CEmendSystem
import EmendText

/// One context of a session: the engine's text as the runtime knows it now, and the anchors
/// that follow changes to it.
///
/// The text is a `DocumentText` and every anchor is a pair of marks in its rope, so an edit
/// costs the chunk it touches and the anchors with an edge inside it, not the document or
/// every anchor of the session (a proofread holds one per suggestion).
///
/// No `deinit` here or in what it holds (its text, rope, chunks, ledger): an ended session's
/// contexts may be let go on a thread of their own (`SlicedRelease.freeElsewhere`), and a
/// deinit that touched anything the engine's thread still reaches would race with it.
final class SessionContext {
    private struct Slot {
        var includesEdges: Bool
        var live: Bool
        /// Whether the anchor still has a range (its two marks are in the rope).
        var placed: Bool
    }

    let id: UInt64
    let engineContext: UInt
    /// The context's text, or the engine's text while its rope is built elsewhere.
    private(set) var content: ContextContent
    /// The context's text with every change delivered or reported since it was given. Read
    /// only once built: nothing that reads it runs before `Coordinator.contextsBuilt`.
    var text: DocumentText {
        guard case .built(let text) = content else { preconditionFailure("context \(id)'s text was read before it was built") }
        return text
    }
    let selection: Range<Int>
    /// The text as the engine gave it, kept until anything changes the context's text: while
    /// it is here, the whole text read as plain text is this string shared, not a copy out of
    /// the rope (a run over a whole 16 MB document copied it in the dispatch of its start).
    private var given: String?
    private var slots: [Slot] = []
    private var freeSlots: [Int] = []
    /// Which of the changes since the context was given are Emend's and which the engine's.
    let ledger = EditLedger()
    /// How many deliveries were recorded as their `ChangedCore` (for tests).
    private(set) var coresRecorded = 0

    init(id: UInt64, description: ContextDescription) {
        self.id = id
        self.engineContext = description.engineContext
        self.content = .built(Self.freeingRemovedElsewhere(DocumentText(description.text)))
        self.selection = description.selection
        self.given = description.text.string
    }

    /// A context whose rope is built elsewhere (`finishBuilding` takes it): the engine's
    /// edits are kept meanwhile.
    init(id: UInt64, buildingFrom description: ContextDescription) {
        self.id = id
        self.engineContext = description.engineContext
        self.content = .building(TextBeingBuilt(description.text))
        self.selection = description.selection
        self.given = description.text.string
    }

    var isBuilt: Bool {
        if case .built = content { return true }
        return false
    }

    /// The text's length in UTF-8 bytes, built or not.
    var utf8Count: Int {
        switch content {
        case .built(let text): text.utf8Count
        case .building(let pending): pending.utf8Count
        }
    }

    /// The text's length in every encoding, built or not (the rope's sums, or the counts').
    var lengths: (utf8: Int, utf16: Int, codePoints: Int) {
        switch content {
        case .built(let text): (text.rope.utf8Count, text.rope.length(in: .utf16), text.rope.length(in: .codePoint))
        case .building(let pending):
            { let positions = pending.positions
              return (positions.length(in: .utf8), positions.length(in: .utf16), positions.length(in: .codePoint)) }()
        }
    }

    /// The whole text as it is now, built or not (the text of a getter or a message).
    var attributedNow: AttributedText {
        switch content {
        case .built(let text): text.attributed
        case .building(let pending): pending.current
        }
    }

    /// Offset conversion for the text as it is now: the rope's (a chunk's work), or while it
    /// is built the counts of the engine's text by chunks (`ChunkCounts`: a chunk's work too).
    var positions: any PositionMapping {
        switch content {
        case .built(let text): RopePositions(text.rope)
        case .building(let pending): pending.positions
        }
    }

    /// Takes the rope built elsewhere from the original text and gives the engine's edits
    /// reported meanwhile, in order, for the coordinator to replay on it
    /// (`Coordinator.replayEngineEdits`).
    func finishBuilding(_ built: DocumentText) -> [TextBeingBuilt.EngineEdit] {
        guard case .building(let pending) = content else { return [] }
        content = .built(Self.freeingRemovedElsewhere(built))
        return pending.edits
    }

    /// `text`, whose rope hands the chunks a long replace takes out to a thread of their own
    /// to be freed (`TextRope.letGoOfRemoved`); freed here when no thread can start.
    private static func freeingRemovedElsewhere(_ text: DocumentText) -> DocumentText {
        // Megabytes (2,048 chunks: 4 MB) before the heap is trimmed after them: a trim also
        // gives back free pages the engine's thread then faults in again (a rewrite of 100,000
        // words taken back, 400 KB, had its dispatches 0.6 ms longer with a trim each time).
        let trimmedAfter = 2048
        text.rope.letGoOfRemoved = { removed in
            do {
                try RuntimeThread.start {
                    let many = removed.count >= trimmedAfter
                    removed.letGo()
                    // Gives the pages back here: glibc trims an arena only when a block of
                    // 64 KB or more is freed, and the chunks are 2 KB each, so the next large
                    // block the engine's thread freed (an ended session's request) gave back
                    // all 16 MB of them (`heap_trim`, `madvise`: 4 ms of reverting's last dispatch).
                    if many { _ = emendsys_trim_heap() }
                }
            } catch {
                removed.letGo()
            }
        }
        return text
    }

    /// `range` of the built text as `DocumentText.slice` gives it; the string the engine gave,
    /// shared, when that is what is asked (the whole of a plain text nothing changed yet).
    func slice(_ range: Range<Int>) -> AttributedText {
        if let given, text.isPlain, range == 0..<given.utf8.count { return AttributedText(given) }
        return text.slice(range)
    }

    /// What `slice(range)` gives, made on another thread (`RegionCopy.made`): the string the
    /// engine gave as it is, or the rope's chunks of `range` (see `DocumentText.LaterSlice`).
    func laterSlice(_ range: Range<Int>) -> RegionCopy {
        if let given, text.isPlain, range == 0..<given.utf8.count { return .given(AttributedText(given)) }
        return .later(text.laterSlice(range))
    }

    /// A part of the text taken on the engine's thread and made elsewhere (`laterSlice`).
    enum RegionCopy: Sendable {
        case given(AttributedText)
        case later(DocumentText.LaterSlice)

        /// The part (costs its length when it is made of the rope's chunks).
        var made: AttributedText {
            switch self {
            case .given(let text): text
            case .later(let slice): slice.made
            }
        }
    }

    /// A new anchor that follows changes to this context's text.
    func anchor(_ range: Range<Int>, includesEdges: Bool = false) -> Anchor {
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            slots[slot] = Slot(includesEdges: includesEdges, live: true, placed: false)
        } else {
            slot = slots.count
            slots.append(Slot(includesEdges: includesEdges, live: true, placed: false))
        }
        setSlotRange(slot, range)
        return Anchor(context: self, slot: slot, includesEdges: includesEdges)
    }

    /// Makes room for `count` suggestions to come: an anchor each (a slot and two marks of the
    /// rope) and a change each in the ledger. Why: those arrays grew by doubling, and each
    /// doubling moved every element in one dispatch (a million suggestions: several copies of
    /// 16 MB and one of 96 MB); room made while they are nearly empty costs no copy.
    /// Room is made for a few slices of anchors more than the suggestions: those a delivery
    /// plans beside them (a slice of restoring replaces, each with an anchor, and one in
    /// flight). Why: a revert's first slice took slots past the room made, and the tables of
    /// marks doubled (3 × 16 MB copied for a million suggestions: 37 ms of one dispatch).
    func reserve(forSuggestions count: Int) {
        let room = slots.count + count + 4 * Coordinator.suggestionSlice
        slots.reserveCapacity(room)
        // Freed anchors' slots go here when the suggestions are let go (see SlicedRelease):
        // growing it by doubling then moved it and freed its old buffer in one slice.
        freeSlots.reserveCapacity(room)
        text.rope.reserveMarks(2 * room)
        ledger.reserveCapacity(forMore: count)
    }

    /// Stops following an anchor.
    func release(_ anchor: Anchor) { anchor.release() }

    /// Whether freeing the context costs more than a fraction of a millisecond (a megabyte of
    /// text, or the slots of many thousands of anchors): see `SlicedRelease.freeElsewhere`.
    var holdsMuch: Bool { utf8Count >= 1 << 20 || slots.count >= 1 << 16 }

    /// How many anchors follow the text now (what planning a delivery costs shows here).
    var liveAnchorCount: Int { slots.count - freeSlots.count }

    func slotRange(_ slot: Int) -> Range<Int>? {
        guard slots[slot].placed, let lower = text.rope.position(ofMark: 2 * slot),
              let upper = text.rope.position(ofMark: 2 * slot + 1) else { return nil }
        return lower..<upper
    }

    func setSlotRange(_ slot: Int, _ range: Range<Int>?) {
        if let range {
            text.rope.setMark(2 * slot, at: range.lowerBound)
            text.rope.setMark(2 * slot + 1, at: range.upperBound)
        } else {
            text.rope.removeMark(2 * slot)
            text.rope.removeMark(2 * slot + 1)
        }
        slots[slot].placed = range != nil
    }

    func freeSlot(_ slot: Int) {
        guard slots[slot].live else { return }
        setSlotRange(slot, nil)
        slots[slot].live = false
        freeSlots.append(slot)
    }

    /// Applies a replace the engine answered for Emend (`styled`: the replacement's runs and
    /// intents replace the old ones), records it in the ledger and returns where it is now.
    /// `replaced`: the text the replace was planned to take out, when known (compared in place
    /// and kept, not copied out of the rope: 4 MB for a rewrite of a million words);
    /// `replacedChecked`: `replaced` is known to be there (compared at this range since the
    /// rope's last replace). `prepared`: the replacement's chunks, made elsewhere of the same bytes.
    /// `core`: what the replace changes, made elsewhere of `replaced` and the replacement
    /// (used when `replaced` is known to be there).
    @discardableResult
    func applyDelivered(_ range: Range<Int>, _ replacement: AttributedText, styled: Bool, replaced: String? = nil,
                        replacedChecked: Bool = false, prepared: PreparedReplacement? = nil, core: ChangedCore? = nil) -> Range<Int> {
        let old = if let replaced, text.isPlain, replacedChecked || text.holds(replaced, at: range) {
            AttributedText(replaced)
        } else {
            text.slice(range)
        }
        assert(!replacedChecked || replaced.map { text.holds($0, at: range) } ?? true, "the text taken out is not the text compared")
        if styled {
            moveAnchors(range, delta: replacement.utf8Count - range.count) {
                text.replace(range, withStyled: replacement, prepared: prepared)
            }
        } else {
            moveAnchors(range, delta: replacement.utf8Count - range.count) {
                text.replace(range, with: replacement.string, prepared: prepared)
            }
        }
        let now = range.lowerBound..<(range.lowerBound + replacement.utf8Count)
        // Only where no change of Emend's is beside it: the ledger merges a replace with every
        // change it touches, and the core (narrower) would not touch one the whole does.
        if let core, replacedChecked, !styled, text.isPlain, !ledger.touchesChange(range) {
            // The same change of the text, recorded without the ends its texts share: the
            // ledger has nothing to cut off a long base (see `ChangedCore`).
            coresRecorded += 1
            let changed = core.range(in: range)
            let after = changed.lowerBound..<(changed.lowerBound + core.new.utf8.count)
            assert(text.holds(core.new, at: after), "a core made of other texts")
            ledger.recordDelivery(changed, old: AttributedText(core.old), new: AttributedText(core.new), current: text)
            return now
        }
        // A text without styling holds the plain replacement there: no need to read it back
        // (a streamed sentence may be a megabyte and more).
        let new = !styled && text.isPlain ? AttributedText(replacement.string) : text.slice(now)
        ledger.recordDelivery(range, old: consume old, new: new, current: text)
        return now
    }

    /// Applies an edit the engine made on its own and rebases it in the ledger (`changes`: the
    /// ranges of Emend's reported changes it is in, which become the engine's whole); returns
    /// whether it edited text Emend had changed.
    @discardableResult
    func applyEngineEdit(_ range: Range<Int>, _ replacement: String, changes: [Range<Int>] = [],
                         holdingEdges: [Range<Int>] = []) -> Bool {
        let old = text.slice(range)
        apply(range, replacement)
        let now = range.lowerBound..<(range.lowerBound + replacement.utf8.count)
        return ledger.recordEngineEdit(range, old: old, new: text.slice(now), changes: changes, holdingEdges: holdingEdges)
    }

    /// The base (original plus the engine's edits) of `range` of the current text.
    func baseSlice(_ range: Range<Int>) -> AttributedText { ledger.baseSlice(of: range, in: text) }

    /// Applies a change to the mirror text and moves every anchor.
    func apply(_ range: Range<Int>, _ replacement: String) {
        moveAnchors(range, delta: replacement.utf8.count - range.count) { text.replace(range, with: replacement) }
    }

    /// Applies a styled change: the replacement's runs and intents replace the old ones there.
    func apply(_ range: Range<Int>, styled replacement: AttributedText) {
        moveAnchors(range, delta: replacement.utf8Count - range.count) { text.replace(range, withStyled: replacement) }
    }

    /// Runs `edit` (a replace of `range`) and moves the anchors. Anchors wholly before or
    /// after the edit, or around it, move with their marks; only those with an edge in the
    /// edited range follow `Anchor.follow` by hand.
    private func moveAnchors(_ range: Range<Int>, delta: Int, edit: () -> Void) {
        var moved: [(slot: Int, range: Range<Int>?)] = []
        // Usually a handful of anchors; but restoring one change that joined thousands (a
        // proofread of every word: one phrase) holds every suggestion's marks, and a list
        // looked through per mark made that quadratic.
        var seen = Set<Int>()
        for mark in text.rope.marks(in: range.lowerBound...range.upperBound) {
            let slot = mark / 2
            guard seen.insert(slot).inserted else { continue }
            guard slots[slot].live, let r = slotRange(slot) else { continue }
            let followed = Anchor.follow(r, includesEdges: slots[slot].includesEdges, edited: range, delta: delta)
            // The rope moves every mark itself; only an anchor it would put elsewhere is set by
            // hand (most are not: a suggestion's anchor over the replaced text just grows).
            if let followed, followed.lowerBound == TextRope.markPosition(r.lowerBound, afterReplacing: range, delta: delta),
               followed.upperBound == TextRope.markPosition(r.upperBound, afterReplacing: range, delta: delta) {
                continue
            }
            moved.append((slot, followed))
        }
        given = nil
        edit()
        for (slot, range) in moved { setSlotRange(slot, range) }
    }
}
