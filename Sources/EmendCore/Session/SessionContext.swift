import EmendText

/// One context of a session: the engine's text as the runtime knows it now, and the anchors
/// that follow changes to it.
final class SessionContext {
    private struct Slot {
        var range: Range<Int>?
        var includesEdges: Bool
        var live: Bool
    }

    let id: UInt64
    let engineContext: UInt
    /// The context's text with every change delivered or reported since it was given.
    private(set) var text: AttributedText
    let selection: Range<Int>
    private var slots: [Slot] = []
    private var freeSlots: [Int] = []
    /// Which of the changes since the context was given are Emend's and which the engine's.
    let ledger = EditLedger()

    init(id: UInt64, description: ContextDescription) {
        self.id = id
        self.engineContext = description.engineContext
        self.text = description.text
        self.selection = description.selection
    }

    /// A new anchor that follows changes to this context's text.
    func anchor(_ range: Range<Int>, includesEdges: Bool = false) -> Anchor {
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            slots[slot] = Slot(range: range, includesEdges: includesEdges, live: true)
        } else {
            slot = slots.count
            slots.append(Slot(range: range, includesEdges: includesEdges, live: true))
        }
        return Anchor(context: self, slot: slot, includesEdges: includesEdges)
    }

    /// Stops following an anchor.
    func release(_ anchor: Anchor) { anchor.release() }

    func slotRange(_ slot: Int) -> Range<Int>? { slots[slot].range }
    func setSlotRange(_ slot: Int, _ range: Range<Int>?) { slots[slot].range = range }

    func freeSlot(_ slot: Int) {
        guard slots[slot].live else { return }
        slots[slot].live = false
        slots[slot].range = nil
        freeSlots.append(slot)
    }

    /// Applies a replace the engine answered for Emend (`styled`: the replacement's runs and
    /// intents replace the old ones), records it in the ledger and returns where it is now.
    @discardableResult
    func applyDelivered(_ range: Range<Int>, _ replacement: AttributedText, styled: Bool) -> Range<Int> {
        let old = text.slice(range)
        if styled { apply(range, styled: replacement) } else { apply(range, replacement.string) }
        let now = range.lowerBound..<(range.lowerBound + replacement.utf8Count)
        ledger.recordDelivery(range, old: old, new: text.slice(now), current: text)
        return now
    }

    /// Applies an edit the engine made on its own and rebases it in the ledger; returns
    /// whether it edited text Emend had changed.
    @discardableResult
    func applyEngineEdit(_ range: Range<Int>, _ replacement: String) -> Bool {
        let old = text.slice(range)
        apply(range, replacement)
        let now = range.lowerBound..<(range.lowerBound + replacement.utf8.count)
        return ledger.recordEngineEdit(range, old: old, new: text.slice(now))
    }

    /// The base (original plus the engine's edits) of `range` of the current text.
    func baseSlice(_ range: Range<Int>) -> AttributedText { ledger.baseSlice(of: range, in: text) }

    /// Applies a change to the mirror text and moves every anchor.
    func apply(_ range: Range<Int>, _ replacement: String) {
        text.replace(range, with: replacement)
        moveAnchors(range, delta: replacement.utf8.count - range.count)
    }

    /// Applies a styled change: the replacement's runs and intents replace the old ones there.
    func apply(_ range: Range<Int>, styled replacement: AttributedText) {
        text.replace(range, withStyled: replacement)
        moveAnchors(range, delta: replacement.utf8Count - range.count)
    }

    private func moveAnchors(_ range: Range<Int>, delta: Int) {
        slots.withUnsafeMutableBufferPointer { slots in
            for index in slots.indices {
                guard slots[index].live, let r = slots[index].range, r.upperBound >= range.lowerBound else { continue }
                slots[index].range = Anchor.follow(r, includesEdges: slots[index].includesEdges, edited: range, delta: delta)
            }
        }
    }
}
