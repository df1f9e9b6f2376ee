import EmendText

/// One net change Emend made to a context: the base text `baseText` at `base` (in base
/// coordinates) shows as `text` in the current text. Also the shape of a saved version: the
/// changes that turn the base into that version.
struct LedgerHunk: Equatable {
    var base: Range<Int>
    var baseText: AttributedText
    /// The current text, kept in pieces when it grew long at its end (`ChangeText`).
    private(set) var current: ChangeText

    init(base: Range<Int>, baseText: AttributedText, text: AttributedText) {
        self.base = base
        self.baseText = baseText
        current = ChangeText(text)
        heldLong = baseText.utf8Count >= Self.longBytes
    }

    /// Whether the base was long when the change was made: its storage may still be (a long
    /// base put back a piece at a time shrinks in place), so the ledger lets go of the change
    /// on a thread of its own (`EditLedger.replaceHunks`). Not part of equality.
    private(set) var heldLong: Bool
    /// A base this long (a megabyte) is let go of elsewhere.
    static let longBytes = 1 << 20

    /// Notes the base's length now (it grew in place).
    mutating func noteBaseLength() { heldLong = heldLong || baseText.utf8Count >= Self.longBytes }

    /// The current text, whole (reading it joins the pieces of a long change once; changing it
    /// in place joins them first and then changes it where it is, never a copy).
    var text: AttributedText {
        get { current.text }
        set { current = ChangeText(newValue) }
        _modify {
            current.join()
            var text = current.head
            // The head is taken out while it changes: the only reference, changed in place.
            current = ChangeText(AttributedText(""))
            defer { current = ChangeText(text) }
            yield &text
        }
    }

    /// The current text's length, its pieces not joined.
    var textCount: Int { current.utf8Count }

    /// Bytes `range` of the current text (character boundaries), reading only the pieces it
    /// covers: a merge takes a long change's prefix or suffix without joining all of it.
    func textSlice(_ range: Range<Int>) -> AttributedText { current.slice(range) }

    /// Whether the current text carries no styling, its pieces not joined.
    var isTextPlain: Bool { current.isPlain }

    var delta: Int { textCount - base.count }

    /// Appends plain `piece` to the current text (which must be plain), moving nothing held.
    mutating func appendToText(_ piece: String) { current.append(piece) }

    /// Takes the current text's last `count` bytes off, in place.
    mutating func removeTextSuffix(_ count: Int) { current.removeLast(count) }

    static func == (a: LedgerHunk, b: LedgerHunk) -> Bool {
        a.base == b.base && a.baseText == b.baseText && a.text == b.text
    }
}

/// An engine edit as it changed the base text: `range` (base bytes before the edit) became
/// `length` bytes.
struct BaseEdit: Equatable {
    let range: Range<Int>
    let length: Int
    /// The edit made Emend's changes there the engine's: all of `range` is the engine's text
    /// now (a saved change it conflicts with goes, never trimmed to what is left).
    var adopted = false
    /// Where (in the base before the edit) the insertions Emend had made and the edit made the
    /// engine's were: a saved insertion there goes too, though it is at an end of `range`.
    var adoptedInsertions: [Int] = []
    /// An insertion made at the start of a change of Emend's, before it (the engine typed at
    /// its start): a saved insertion at the same point goes after it, as Emend's change did.
    var precedesInsertionThere = false
}

/// What separates Emend's changes from the engine's in one context's text.
///
/// The *base* is the text the engine would have if Emend had delivered nothing: the original
/// plus the engine's own edits. The current text is the base with Emend's net changes
/// (`hunks`) applied. Every delivered replace is recorded (merged with the hunks it touches,
/// dropped once it changes nothing), and every engine edit is rebased: an edit beside Emend's
/// changes goes into the base as it is; an edit of text Emend changed makes that text the
/// engine's (the hunk is adopted into the base, like an editor's undo that skips a change the
/// user edited over). So revert, show original, undo and redo can always compute the base,
/// and the engine's edits are never lost. Engine edits are also kept as a log of base edits,
/// so changes computed against an earlier base (a provider's result) can be rebased too.
final class EditLedger {
    /// Emend's net changes, sorted by base position, disjoint (costs their number).
    var hunks: [LedgerHunk] { store.all }
    /// The changes, in blocks (`LedgerBlocks`): an engine edit beside or inside them near the
    /// start of a million changes moves or removes them at the cost of a block and a sum per
    /// block, not of every later change.
    private var store: LedgerBlocks

    /// A ledger whose changes are kept in blocks of `blockSize` (tests compare a ledger of
    /// small blocks with one whose block holds every change: each move written into each).
    init(blockSize: Int = 512) {
        store = LedgerBlocks(blockSize: blockSize)
    }
    /// Every engine edit since the context was given, as it changed the base.
    private(set) var baseEdits: [BaseEdit] = []

    var isEmpty: Bool { store.count == 0 }

    /// How many changes the ledger holds.
    var count: Int { store.count }

    /// Change `index`, its base where it is today.
    func hunk(_ index: Int) -> LedgerHunk { store.hunk(index) }

    /// The base range of hunk `index` today.
    private func base(_ index: Int) -> Range<Int> { store.base(index) }

    /// How many bytes longer the current text is than the base before hunk `index` (up to
    /// `count`). Why: finding the change at a current position is a binary search instead
    /// of a walk from the start that sums every change before it.
    func deltaBefore(_ index: Int) -> Int { store.deltaBefore(index) }

    /// How many times the ledger took a delivery or an engine edit: what is known of it at
    /// one generation (the version shown is what the region shows) holds until the next.
    private(set) var generation = 0

    /// The hunks (indices) whose base overlaps or touches `window` (by bisection).
    func hunks(touchingBase window: Range<Int>) -> Range<Int> {
        let lower = firstHunk { base($0).upperBound >= window.lowerBound }
        let upper = firstHunk { base($0).lowerBound > window.upperBound }
        return lower..<max(lower, upper)
    }

    /// Makes room for `more` changes beyond those held.
    func reserveCapacity(forMore more: Int) {
        store.reserveCapacity(forMore: more)
    }

    /// How many blocks of changes the ledger has room for (see `LedgerBlocks.blockCapacity`).
    var blockCapacity: Int { store.blockCapacity }

    /// Takes every change out, a block of them at a time (an ended session's context: see
    /// `SlicedRelease`), to be freed (their bases may lack the engine's last moves); the
    /// ledger is empty afterwards.
    func takeHunks() -> [[LedgerHunk]] { store.take() }

    /// The current ranges of the hunks, in order.
    var currentSpans: [Range<Int>] { (0..<store.count).map(currentSpan) }

    /// Where hunk `index` is in the current text.
    func currentSpan(_ index: Int) -> Range<Int> { store.currentSpan(index) }

    /// The first hunk index for which `holds` is true (it must be false, then true).
    private func firstHunk(where holds: (Int) -> Bool) -> Int {
        var low = 0, high = store.count
        while low < high {
            let middle = (low + high) / 2
            if holds(middle) { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// Replaces hunks `range` (the sums before the later ones follow).
    private func replaceHunks(_ range: Range<Int>, with new: [LedgerHunk]) {
        // A change that held a long base goes to a thread of its own. Why: its storage may
        // have been made on another thread (a plan's or the analysis's), and freeing the last
        // block of that thread's arena here unmapped the arena (a `munmap` of 64 MB, 1-2 ms of
        // the dispatch that put the last piece of a 16 MB base back; perf with
        // `-e syscalls:sys_enter_munmap --call-graph dwarf`).
        let letGo = range.contains { store.heldLong($0) } ? range.map { store.hunk($0) } : []
        store.replaceSubrange(range, with: new)
        if !letGo.isEmpty { SlicedRelease.freeElsewhere(consume letGo) }
    }

    /// Moves the bases of hunks `first...` by `amount` (an engine edit before them).
    private func shiftBases(from first: Int, by amount: Int) {
        store.shiftBases(from: first, by: amount)
    }

    // MARK: Recording

    /// Emend replaced `range` of the current text (`old`) with `new`; `current` is the text
    /// after it (to see the space between neighbouring changes).
    /// `old` is taken (`consuming`): a long text replaced becomes the change's base without a
    /// copy, and the ends it shares with `new` are trimmed off it in place.
    func recordDelivery(_ range: Range<Int>, old: consuming AttributedText, new: AttributedText, current: (any TextReading)? = nil) {
        generation += 1
        guard let index = recordMerged(range, old: consume old, new: new), let current else { return }
        // Only the new change can have come within a space of another: look at its neighbours
        // (linear in the number of changes per delivery, never more).
        var at = index
        if at > 0, joinIfOneSpaceApart(at - 1, in: current) { at -= 1 }
        if at + 1 < store.count { _ = joinIfOneSpaceApart(at, in: current) }
    }

    /// Changes one space apart ("We are" -> "We're" arrives as an insertion and a deletion)
    /// are one change of a phrase: an engine edit of part of it makes all of it the engine's,
    /// as a writer would expect, instead of bringing back half of the phrase on revert.
    /// Joins hunks `left` and `left + 1` when they are (and the phrase stays within
    /// `ChangePhrases.longestJoined`); returns whether it did.
    private func joinIfOneSpaceApart(_ left: Int, in current: any TextReading) -> Bool {
        // Read in place, not copied out: the phrase's texts must not be shared while it grows.
        // A phrase joins at most `ChangePhrases.longestJoined` bytes: undoing it is one replace.
        let rightHunk = hunk(left + 1)
        // The left one is looked at in a scope of its own: the phrase's text must not be shared
        // (by a copy) while it grows.
        let joins: Bool = {
            let leftHunk = hunk(left)
            guard rightHunk.base.lowerBound - leftHunk.base.upperBound == 1,
                  ChangePhrases.fitOnePhrase(leftHunk.base.lowerBound..<rightHunk.base.upperBound,
                                             textBytes: leftHunk.textCount + 1 + rightHunk.textCount),
                  leftHunk.baseText.isPlain, rightHunk.baseText.isPlain, leftHunk.isTextPlain, rightHunk.isTextPlain else { return false }
            let gapStart = leftHunk.base.upperBound + deltaBefore(left) + leftHunk.delta
            return current.utf8Count > gapStart && current.substring(gapStart..<(gapStart + 1)) == " "
        }()
        guard joins else { return false }
        // The phrase grows where it is: a proofread of every word joins each change into one
        // phrase, and building it anew for each word copied all of it every time (quadratic).
        replaceHunks((left + 1)..<(left + 2), with: [])
        store.modify(left) { phrase in
            ChangePhrases.join(&phrase, " ", rightHunk)
            // Spaces both texts share at an end are not part of the phrase: an insertion after
            // "We're" is beside it, as for the saved versions (see ChangePhrases).
            phrase = ChangePhrases.withoutSharedSpaces(phrase)
        }
        return true
    }

    /// Records the replace; returns the index of the hunk it became (nil: it changed nothing).
    private func recordMerged(_ range: Range<Int>, old: consuming AttributedText, new: AttributedText) -> Int? {
        // Hunks ending before the change (not touching it) stay as they are.
        let first = firstHunk { currentSpan($0).upperBound >= range.lowerBound }
        let delta = deltaBefore(first)
        var last = first
        while last < store.count, currentSpan(last).lowerBound <= range.upperBound { last += 1 }
        let inner = deltaBefore(last) - delta
        let touched = first..<last
        if touched.count == 1, currentSpan(first).lowerBound <= range.lowerBound {
            return changeInPlace(first, range, old: old, new: new)
        }
        var oldText = consume old, newText = new
        var union = range
        if let head = touched.first.map({ hunk($0) }) {
            let start = head.base.lowerBound + delta
            if start < range.lowerBound {
                let prefix = head.textSlice(0..<(range.lowerBound - start))
                oldText = prefix.appending(oldText)
                newText = prefix.appending(newText)
                union = start..<union.upperBound
            }
        }
        if let tailIndex = touched.last {
            let tail = hunk(tailIndex)
            let end = tail.base.upperBound + delta + inner
            if end > range.upperBound {
                let suffix = tail.textSlice((tail.textCount - (end - range.upperBound))..<tail.textCount)
                oldText = oldText.appending(suffix)
                newText = newText.appending(suffix)
                union = union.lowerBound..<end
            }
        }
        // The base under the union: the old current text with each touched hunk put back.
        var baseText = consume oldText
        var spans: [(Range<Int>, AttributedText)] = []
        var shift = delta
        for index in touched {
            let start = base(index).lowerBound + shift - union.lowerBound
            let touchedHunk = hunk(index)
            spans.append((start..<(start + touchedHunk.textCount), touchedHunk.baseText))
            shift += touchedHunk.delta
        }
        for (span, text) in spans.reversed() { baseText.replace(span, withStyled: text) }
        let base = (union.lowerBound - delta)..<(union.upperBound - delta - inner)
        var merged = [LedgerHunk]()
        // Trimmed where it is: a 16 MB region rewritten as a sentence sharing its last bytes
        // was copied whole into a trimmed change (`trimmed`) in the dispatch of its replace.
        var made = LedgerHunk(base: base, baseText: consume baseText, text: newText)
        if Self.trim(&made) { merged.append(made) }
        replaceHunks(touched, with: merged)
        return merged.isEmpty ? nil : first
    }

    /// A replace that starts inside (or at an end of) hunk `index`'s current span and touches
    /// no other hunk changes that hunk in place, whatever its length: what `recordMerged`
    /// would build, without copying the hunk. Why: a streamed result goes in as parts, each at
    /// the end of the hunk the earlier ones made, and rebuilding that hunk per part cost its
    /// length every time (1.5 MB streamed in 64 KB parts: milliseconds per part on the
    /// engine's thread). Returns the index, or nil when the hunk now changes nothing (it is
    /// gone).
    private func changeInPlace(_ index: Int, _ range: Range<Int>, old: AttributedText, new: AttributedText) -> Int? {
        let span = currentSpan(index)
        let overhang = range.upperBound - span.upperBound
        let changesSomething: Bool = store.modify(index) { hunk in
            if overhang > 0 {
                // The replace reaches past the hunk into base text (no other hunk is there): the
                // hunk takes that text in, unchanged, on both sides first.
                let taken = old.slice((old.utf8Count - overhang)..<old.utf8Count)
                let base = hunk.base
                hunk.base = base.lowerBound..<(base.upperBound + overhang)
                hunk.baseText.replace(base.count..<base.count, withStyled: taken)
                hunk.noteBaseLength()
                hunk.text.replace(span.count..<span.count, withStyled: taken)
            }
            let replaced = (range.lowerBound - span.lowerBound)..<(range.upperBound - span.lowerBound)
            if replaced.upperBound == hunk.textCount, hunk.isTextPlain, new.isPlain, replaced.isEmpty || new.utf8Count == 0 {
                // At the change's end (a streamed part going in, a restoring piece going out):
                // its pieces grow or shrink there, nothing held is moved (`ChangeText`).
                hunk.removeTextSuffix(replaced.count)
                hunk.appendToText(new.string)
            } else {
                hunk.text.replace(replaced, withStyled: new)
            }
            return Self.trim(&hunk)
        }
        guard changesSomething else {
            replaceHunks(index..<(index + 1), with: [])
            return nil
        }
        return index
    }

    /// The engine replaced `range` of the current text (`old`) with `new`. `changes` are the
    /// current ranges of the changes Emend reported that the edit is in (a suggestion, a
    /// rewritten phrase; see `conflicts`): each counts whole, so the edit makes all of it the
    /// engine's, not only the bytes Emend changed inside it. Those of `changes` that are also
    /// in `holdingEdges` hold a deletion at either edge too (a rewrite's review change, whose
    /// span may end where one of its deletions lies, see RewriteChanges); a proofreading
    /// suggestion does not (a deletion beside it is another suggestion's). Returns whether it
    /// edited text Emend had changed (those changes became the engine's).
    @discardableResult
    func recordEngineEdit(_ range: Range<Int>, old: AttributedText, new: AttributedText, changes: [Range<Int>] = [],
                          holdingEdges: [Range<Int>] = []) -> Bool {
        generation += 1
        // What becomes the engine's: the edit and every reported change it is in.
        let taken = changes.reduce(range) { min($0.lowerBound, $1.lowerBound)..<max($0.upperBound, $1.upperBound) }
        let wholeChanges = taken != range
        func isHeldAtAnEdge(_ span: Range<Int>) -> Bool {
            span.isEmpty && holdingEdges.contains { $0.lowerBound <= span.lowerBound && span.lowerBound <= $0.upperBound }
        }
        func isTaken(_ index: Int) -> Bool {
            let span = currentSpan(index)
            return Self.conflicts(span, range) || (wholeChanges && (Self.conflicts(span, taken) || isHeldAtAnEdge(span)))
        }
        // A hunk ending before the taken text's start never conflicts with it: those stay (one
        // ending at its start only when it is a deletion a change holds at its edge).
        let searchStart = holdingEdges.reduce(taken.lowerBound) { min($0, $1.lowerBound) }
        var first = firstHunk { currentSpan($0).upperBound >= searchStart }
        while first < store.count, currentSpan(first).upperBound <= taken.lowerBound, !isTaken(first) { first += 1 }
        let delta = deltaBefore(first)
        var last = first
        while last < store.count, isTaken(last) {
            last += 1
        }
        let inner = deltaBefore(last) - delta
        let growth = new.utf8Count - range.count
        guard first < last || wholeChanges else {
            let base = (range.lowerBound - delta)..<(range.upperBound - delta)
            // Emend's change starting there moves after the engine's text (a styled one may
            // replace its whole paragraph where a saved version only inserts at its start).
            let precedes = range.isEmpty && first < store.count && self.base(first).lowerBound == base.lowerBound
            shiftBases(from: first, by: growth)
            baseEdits.append(BaseEdit(range: base, length: new.utf8Count, precedesInsertionThere: precedes))
            return false
        }
        // The edit reaches into Emend's text: the union becomes the engine's text.
        let lower = min(taken.lowerBound, first < last ? currentSpan(first).lowerBound : taken.lowerBound)
        let upper = max(taken.upperBound, first < last ? currentSpan(last - 1).upperBound : taken.upperBound)
        let base = (lower - delta)..<(upper - delta - inner)
        let length = (upper - lower) + growth
        let move = length - base.count
        let insertions = (first..<last).map(self.base).filter(\.isEmpty).map(\.lowerBound)
        replaceHunks(first..<last, with: [])
        shiftBases(from: first, by: move)
        baseEdits.append(BaseEdit(range: base, length: length, adopted: true, adoptedInsertions: insertions))
        return first < last
    }

    /// The base range an engine edit of `range` (current bytes) has when it is beside every
    /// change Emend holds (before the ledger decides whether it is).
    func baseRange(ofEngineEdit range: Range<Int>) -> Range<Int> {
        let delta = deltaBefore(firstHunk { currentSpan($0).upperBound > range.lowerBound })
        return (range.lowerBound - delta)..<(range.upperBound - delta)
    }

    /// Where base `range` is in the current text, with Emend's changes inside it or reaching
    /// into it (an insertion at either end too) counted as part of it.
    func currentSpan(ofBase range: Range<Int>) -> Range<Int> {
        let first = firstHunk { base($0).upperBound > range.lowerBound || base($0).lowerBound >= range.lowerBound }
        let end = firstHunk { base($0).lowerBound > range.upperBound || (base($0).lowerBound == range.upperBound && !base($0).isEmpty) }
        var lower = range.lowerBound + deltaBefore(first)
        var upper = range.upperBound + deltaBefore(end)
        if first < end {
            lower = min(lower, currentSpan(first).lowerBound)
            upper = max(upper, currentSpan(end - 1).upperBound)
        }
        return lower..<max(lower, upper)
    }

    /// Where `change` (a phrase of the version shown) is in the current text: its text, from
    /// where its base starts. Emend's changes before it move it; one it starts inside of (the
    /// version not quite shown) puts it at that change's start.
    func currentSpan(ofShown change: LedgerHunk) -> Range<Int> {
        let start = change.base.lowerBound
        let index = firstHunk { base($0).upperBound > start || base($0).lowerBound >= start }
        var lower = start + deltaBefore(index)
        if index < store.count, base(index).lowerBound < start { lower = currentSpan(index).lowerBound }
        return lower..<(lower + change.textCount)
    }

    // MARK: Reading

    /// The base text of `range` of `current` (the current text): the current text with the
    /// hunks inside the range put back. Hunks reaching out of the range are left as they are.
    func baseSlice(of range: Range<Int>, in current: some TextReading) -> AttributedText {
        let inside = changes(inside: range)
        if !inside.isEmpty, let document = current as? DocumentText, let base = Self.plainBase(of: range, in: document, undoing: inside) {
            return base
        }
        return Self.undoing(inside, in: current.slice(range))
    }

    /// What `undoing(changes, in: document.slice(range))` makes of a plain document and plain
    /// base texts, written once, straight from the rope's chunks and the base texts; nil when
    /// something is styled. Why: the text under Emend's changes was copied out of the rope
    /// only to be replaced, and the splice copied again (a rewrite of a million words: its
    /// base read three times over, 4 MB each, after every step, on the engine's thread).
    private static func plainBase(of range: Range<Int>, in document: DocumentText,
                                  undoing changes: [(span: Range<Int>, baseText: AttributedText)]) -> AttributedText? {
        guard document.isPlain,
              changes.allSatisfy({ $0.baseText.attributeRuns.isEmpty && $0.baseText.blockIntents.isEmpty && $0.baseText.protectedRanges.isEmpty })
        else { return nil }
        let size = range.count + changes.reduce(0) { $0 + $1.baseText.utf8Count - $1.span.count }
        let rope = document.rope
        let string = String(unsafeUninitializedCapacity: size) { buffer in
            var written = 0
            func copyCurrent(_ part: Range<Int>) {
                rope.forEachChunk(in: (part.lowerBound + range.lowerBound)..<(part.upperBound + range.lowerBound)) { bytes, _ in
                    _ = UnsafeMutableBufferPointer(rebasing: buffer[written..<(written + bytes.count)]).initialize(from: bytes)
                    written += bytes.count
                }
            }
            var at = 0
            for change in changes {
                copyCurrent(at..<change.span.lowerBound)
                var text = change.baseText.string
                text.withUTF8 { bytes in
                    _ = UnsafeMutableBufferPointer(rebasing: buffer[written..<(written + bytes.count)]).initialize(from: bytes)
                    written += bytes.count
                }
                at = change.span.upperBound
            }
            copyCurrent(at..<range.count)
            return written
        }
        return AttributedText(string)
    }

    /// Whether a change lies wholly inside `range` of the current text (one `changes(inside:)`
    /// would give, and `baseSlice` undo); costs a search, not the changes. Why: with none, the
    /// base of the range is the current text there, and a copy of it made already serves.
    func hasChanges(inside range: Range<Int>) -> Bool {
        let index = firstHunk { currentSpan($0).lowerBound >= range.lowerBound }
        return index < store.count && currentSpan(index).upperBound <= range.upperBound
    }

    /// Emend's net changes whose current spans lie inside `range`: their spans (relative to
    /// `range`) and base texts, in order — what `baseSlice` puts back (costs their number).
    func changes(inside range: Range<Int>) -> [(span: Range<Int>, baseText: AttributedText)] {
        var inside: [(span: Range<Int>, baseText: AttributedText)] = []
        var index = firstHunk { currentSpan($0).lowerBound >= range.lowerBound }
        // Spans are sorted and disjoint: the first reaching out of the range ends the run.
        while index < store.count, currentSpan(index).upperBound <= range.upperBound {
            let span = currentSpan(index)
            inside.append(((span.lowerBound - range.lowerBound)..<(span.upperBound - range.lowerBound), hunk(index).baseText))
            index += 1
        }
        return inside
    }

    /// `text` with `changes` (from `changes(inside:)`) put back to their base texts. Pure: a
    /// runtime thread runs it on a copy of the region (see `VersionPlan`).
    static func undoing(_ changes: [(span: Range<Int>, baseText: AttributedText)], in text: AttributedText) -> AttributedText {
        if let spliced = PlainSplice.splicing(text, changes.map { ($0.span, $0.baseText) }) { return spliced }
        var text = text
        for change in changes.reversed() { text.replace(change.span, withStyled: change.baseText) }
        return text
    }

    /// The base range under `range` of the current text (hunks inside it count whole).
    func baseRange(ofCurrent range: Range<Int>) -> Range<Int> {
        var before = firstHunk { currentSpan($0).upperBound > range.lowerBound }
        // An empty span at the range's start (Emend removed text there) lies inside it, as
        // baseSlice counts it.
        while before > 0, currentSpan(before - 1).isEmpty, currentSpan(before - 1).lowerBound == range.lowerBound { before -= 1 }
        let lowerShift = deltaBefore(before)
        let upperShift = deltaBefore(firstHunk { currentSpan($0).upperBound > range.upperBound })
        return (range.lowerBound - lowerShift)..<max(range.lowerBound - lowerShift, range.upperBound - upperShift)
    }

    /// Where a base range is in the current text; nil when a hunk changed part of it.
    func currentRange(ofBase range: Range<Int>) -> Range<Int>? {
        var index = firstHunk { base($0).upperBound > range.lowerBound }
        while index > 0, base(index - 1).isEmpty, base(index - 1).lowerBound == range.lowerBound { index -= 1 }
        let delta = deltaBefore(index)
        if index < store.count, base(index).lowerBound < range.upperBound { return nil }
        return (range.lowerBound + delta)..<(range.upperBound + delta)
    }

    /// Whether a change's current span overlaps `range` or touches one of its ends (what
    /// `recordDelivery` would merge with a replace of `range`); costs a halving search.
    func touchesChange(_ range: Range<Int>) -> Bool {
        let index = firstHunk { currentSpan($0).upperBound >= range.lowerBound }
        return index < store.count && currentSpan(index).lowerBound <= range.upperBound
    }

    /// Whether `range` of the current text lies inside text Emend delivered.
    func isDelivered(_ range: Range<Int>) -> Bool {
        var index = firstHunk { currentSpan($0).upperBound >= range.upperBound }
        while index < store.count, currentSpan(index).lowerBound <= range.lowerBound {
            let span = currentSpan(index)
            if range.upperBound <= span.upperBound && !span.isEmpty { return true }
            index += 1
        }
        return false
    }

    // MARK: Rebasing saved changes

    /// `saved` (changes of the base as it was after `baseEdits[..<mark]`) moved onto today's
    /// base: changes the engine edited over are dropped, the others move with the text.
    func rebase(_ saved: [LedgerHunk], since mark: Int) -> [LedgerHunk] {
        var result = saved
        for edit in baseEdits[min(mark, baseEdits.count)...] { result = Self.rebase(result, through: edit) }
        return result
    }

    /// Where a base range of the base after `baseEdits[..<mark]` is in today's base; nil when
    /// the engine edited over it.
    func rebase(_ range: Range<Int>, since mark: Int) -> Range<Int>? {
        var current = range
        for edit in baseEdits[min(mark, baseEdits.count)...] {
            guard let moved = Self.moved(current, through: edit) else { return nil }
            current = moved
        }
        return current
    }

    /// `range` of the base after `edit`; nil when the edit changed part of it. An engine
    /// insertion where Emend inserts lands after Emend's text.
    static func moved(_ range: Range<Int>, through edit: BaseEdit) -> Range<Int>? {
        if conflicts(range, edit.range) { return nil }
        if range.isEmpty, edit.adopted, edit.adoptedInsertions.contains(range.lowerBound) || edit.range.contains(range.lowerBound)
            || edit.range.upperBound == range.lowerBound { return nil }
        if edit.precedesInsertionThere, range.isEmpty, range.lowerBound == edit.range.lowerBound {
            return shifted(range, by: edit.length - edit.range.count)
        }
        if range.upperBound <= edit.range.lowerBound { return range }
        return shifted(range, by: edit.length - edit.range.count)
    }

    /// A change the edit conflicts with is dropped — unless the edit only touched text around
    /// the bytes it changes (its base shown, the engine typing in the original): then those
    /// bytes, the change trimmed, apply around the edit. An adopted edit took the change
    /// itself: it goes.
    static func rebase(_ saved: [LedgerHunk], through edit: BaseEdit) -> [LedgerHunk] {
        saved.compactMap { hunk in
            var kept = hunk
            if let base = moved(hunk.base, through: edit) {
                kept.base = base
                return kept
            }
            guard !edit.adopted, let core = trimmed(hunk), core.base != hunk.base, let base = moved(core.base, through: edit) else { return nil }
            kept = core
            kept.base = base
            return kept
        }
    }

    /// Whether `rebase(saved, through: edit)` drops or trims a change of `saved` that reaches
    /// beyond `edit.range` (in the base before the edit): its text outside the edit goes too.
    static func dropsBeyondItself(_ edit: BaseEdit, from saved: [LedgerHunk]) -> Bool {
        saved.contains { hunk in
            moved(hunk.base, through: edit) == nil
                && !(edit.range.lowerBound <= hunk.base.lowerBound && hunk.base.upperBound <= edit.range.upperBound)
        }
    }

    /// `saved` applied to `base` (the base text of `range`); changes outside it are skipped.
    static func applying(_ saved: [LedgerHunk], to base: AttributedText, at range: Range<Int>) -> AttributedText {
        let inside = saved.lazy.filter { $0.base.lowerBound >= range.lowerBound && $0.base.upperBound <= range.upperBound }
        if let spliced = PlainSplice.splicing(base, inside.map {
            (($0.base.lowerBound - range.lowerBound)..<($0.base.upperBound - range.lowerBound), $0.text)
        }) { return spliced }
        var text = base
        for hunk in saved.reversed() where hunk.base.lowerBound >= range.lowerBound && hunk.base.upperBound <= range.upperBound {
            text.replace((hunk.base.lowerBound - range.lowerBound)..<(hunk.base.upperBound - range.lowerBound), withStyled: hunk.text)
        }
        return text
    }

    // MARK: Helpers

    /// Whether an edit of `edit` changes something of `span` (which then cannot just move):
    /// they overlap, an insertion falls strictly inside the span, or a deletion spans an
    /// empty span's point. Touching at an edge is not a conflict.
    static func conflicts(_ span: Range<Int>, _ edit: Range<Int>) -> Bool {
        if edit.isEmpty { return span.lowerBound < edit.lowerBound && edit.lowerBound < span.upperBound }
        if span.isEmpty { return edit.lowerBound < span.lowerBound && span.lowerBound < edit.upperBound }
        return span.overlaps(edit)
    }

    private static func shifted(_ r: Range<Int>, by delta: Int) -> Range<Int> {
        (r.lowerBound + delta)..<(r.upperBound + delta)
    }

    /// `hunk` made `trimmed(hunk)` where it is; false when it changes nothing. When the texts
    /// share nothing at their starts, the bytes they share at their ends are taken off both in
    /// place, and nothing is read but those ends. Why: a long change (16 MB that streamed in, a
    /// long base put back a piece at a time at its end, `RestoringPiece`) is trimmed after
    /// every piece, and `trimmed` builds both texts anew (16 MB copied per piece).
    static func trim(_ hunk: inout LedgerHunk) -> Bool {
        guard hunk.baseText.isPlain, hunk.isTextPlain else { return hunk.baseText != hunk.text }
        let ends: (prefix: Int, suffix: Int)? = {
            var baseString = hunk.baseText.string
            return baseString.withUTF8 { old -> (prefix: Int, suffix: Int)? in
                let newCount = hunk.textCount
                var prefix = 0
                hunk.current.forEachRun { run in
                    let shared = CommonBytes.prefix(UnsafeBufferPointer(rebasing: old[min(prefix, old.count)...]), run)
                    prefix += shared
                    return shared == run.count && prefix < old.count
                }
                if prefix == old.count && prefix == newCount { return nil }
                while prefix > 0, (prefix < old.count && isContinuation(old[prefix]))
                        || (prefix < newCount && isContinuation(hunk.current.byte(at: prefix))) {
                    prefix -= 1
                }
                // Only a text sharing nothing at its start is trimmed here (its ends alone read).
                guard prefix == 0 else { return (prefix, 0) }
                let limit = min(old.count, newCount)
                var suffix = 0
                hunk.current.forEachRunFromEnd { run in
                    let shared = CommonBytes.suffix(UnsafeBufferPointer(rebasing: old[..<(old.count - suffix)]), run, limit: limit - suffix)
                    suffix += shared
                    return shared == run.count && suffix < limit
                }
                while suffix > 0, isContinuation(old[old.count - suffix]) || isContinuation(hunk.current.byte(at: newCount - suffix)) {
                    suffix -= 1
                }
                return (0, suffix)
            }
        }()
        guard let ends else { return false }
        if ends.prefix > 0 {
            // Shared at the start too (rare for a long change: delivered changes are trimmed).
            guard let trimmed = trimmed(hunk) else { return false }
            hunk = trimmed
            return true
        }
        guard ends.suffix > 0 else { return true }
        let baseCount = hunk.baseText.utf8Count
        hunk.baseText.replace((baseCount - ends.suffix)..<baseCount, with: "")
        hunk.removeTextSuffix(ends.suffix)
        hunk.base = hunk.base.lowerBound..<(hunk.base.upperBound - ends.suffix)
        return true
    }

    /// The hunk without the text it leaves unchanged at its edges (plain text only: styled
    /// text keeps its hunk whole); nil when it changes nothing.
    static func trimmed(_ hunk: LedgerHunk) -> LedgerHunk? {
        guard hunk.baseText.isPlain, hunk.isTextPlain else { return hunk.baseText == hunk.text ? nil : hunk }
        // Compared in the strings' own storage, byte for byte (a streamed sentence may be 1.5 MB).
        var oldString = hunk.baseText.string, newString = hunk.text.string
        return oldString.withUTF8 { old in
            newString.withUTF8 { new -> LedgerHunk? in
                var prefix = CommonBytes.prefix(old, new)
                if prefix == old.count && prefix == new.count { return nil }
                while prefix > 0, (prefix < old.count && isContinuation(old[prefix])) || (prefix < new.count && isContinuation(new[prefix])) {
                    prefix -= 1
                }
                var suffix = CommonBytes.suffix(old, new, limit: min(old.count, new.count) - prefix)
                while suffix > 0, isContinuation(old[old.count - suffix]) || isContinuation(new[new.count - suffix]) { suffix -= 1 }
                // Nothing shared: the hunk as it is, its texts not decoded again.
                if prefix == 0 && suffix == 0 { return hunk }
                let base = (hunk.base.lowerBound + prefix)..<(hunk.base.upperBound - suffix)
                return LedgerHunk(base: base,
                                  baseText: AttributedText(String(decoding: UnsafeBufferPointer(rebasing: old[prefix..<(old.count - suffix)]), as: UTF8.self)),
                                  text: AttributedText(String(decoding: UnsafeBufferPointer(rebasing: new[prefix..<(new.count - suffix)]), as: UTF8.self)))
            }
        }
    }

    private static func isContinuation(_ byte: UInt8) -> Bool { byte & 0xC0 == 0x80 }
}

extension AttributedText {
    /// Whether the text carries no runs, intents or protected ranges (attachments aside); empty
    /// ones style nothing and do not count (rebuilding a hunk's base text can leave one, and a
    /// hunk changed in place has none: both must be trimmed alike).
    var isPlain: Bool {
        attributeRuns.allSatisfy(\.range.isEmpty) && blockIntents.allSatisfy(\.range.isEmpty) && protectedRanges.allSatisfy(\.isEmpty)
    }

    /// This text followed by `other`, styling included.
    func appending(_ other: AttributedText) -> AttributedText {
        var text = self
        text.replace(utf8Count..<utf8Count, withStyled: other)
        return text
    }
}
