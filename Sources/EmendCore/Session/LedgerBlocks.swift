/// The ledger's changes (`LedgerHunk`s, sorted by base), kept in blocks of at most twice
/// `blockSize` changes, with what `EditLedger` asks of them at a cost that does not grow with
/// their number: a change by its index, how much longer the current text is than the base
/// before it, a change taken out or put in anywhere, every change from one on moved.
///
/// Why blocks: a proofread of every word leaves a million changes. Kept in one array, an
/// engine edit that makes a change near the start the engine's removed it from that array
/// (every later change moved down: ~100 MB) and summed the deltas of every later change
/// again; an edit beside them moved the base of every later change. In blocks, a change
/// taken out or put in moves only the rest of its block, and each later block's two sums
/// (its first index, the delta before it) and its pending move (`shift`) take one addition
/// each: `blockSize` plus the number of blocks (a few thousand additions for a million
/// changes, microseconds), as `SpanList` keeps its blocks' lengths.
struct LedgerBlocks {
    private struct Block {
        /// The changes, each base as kept: today it is `shift` further on.
        var hunks: [LedgerHunk]
        /// How far the engine's edits moved every base of this block since it was kept.
        var shift: Int
        /// `sums[j]`: how many bytes longer the current text is than the base over
        /// `hunks[..<j]` (one more entry than `hunks`).
        var sums: [Int]
    }

    private var blocks: [Block] = []
    /// `starts[b]`: the index of block `b`'s first change; the last entry is the count.
    private var starts: [Int] = [0]
    /// `deltaStarts[b]`: how many bytes longer the current text is than the base before block
    /// `b`; the last entry is the whole text's.
    private var deltaStarts: [Int] = [0]
    /// How many changes a block holds (at most twice this: a block that grows past it is split).
    let blockSize: Int

    init(blockSize: Int) {
        precondition(blockSize > 0)
        self.blockSize = blockSize
    }

    var count: Int { starts[blocks.count] }

    /// The block and the place in it of change `index` (`index` < `count`).
    private func locate(_ index: Int) -> (block: Int, offset: Int) {
        var low = 0, high = blocks.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= index { low = middle } else { high = middle - 1 }
        }
        return (low, index - starts[low])
    }

    /// Change `index`, its base where it is today.
    func hunk(_ index: Int) -> LedgerHunk {
        let (block, offset) = locate(index)
        var hunk = blocks[block].hunks[offset]
        hunk.base = Self.shifted(hunk.base, by: blocks[block].shift)
        return hunk
    }

    /// The base of change `index` today.
    func base(_ index: Int) -> Range<Int> {
        let (block, offset) = locate(index)
        return Self.shifted(blocks[block].hunks[offset].base, by: blocks[block].shift)
    }

    /// Whether change `index` was made with a long base (`LedgerHunk.heldLong`), read in
    /// place: asked on every delivery, so no copy of the change.
    func heldLong(_ index: Int) -> Bool {
        let (block, offset) = locate(index)
        return blocks[block].hunks[offset].heldLong
    }

    /// How many bytes change `index`'s text has.
    func textCount(_ index: Int) -> Int {
        let (block, offset) = locate(index)
        return blocks[block].hunks[offset].textCount
    }

    /// How many bytes longer the current text is than the base before change `index`
    /// (`index` up to `count`).
    func deltaBefore(_ index: Int) -> Int {
        guard index < count else { return deltaStarts[blocks.count] }
        let (block, offset) = locate(index)
        return deltaStarts[block] + blocks[block].sums[offset]
    }

    /// Where change `index` is in the current text.
    func currentSpan(_ index: Int) -> Range<Int> {
        let (block, offset) = locate(index)
        let kept = blocks[block]
        let start = kept.hunks[offset].base.lowerBound + kept.shift + deltaStarts[block] + kept.sums[offset]
        return start..<(start + kept.hunks[offset].textCount)
    }

    /// Every change, its base where it is today (costs their number).
    var all: [LedgerHunk] {
        var all: [LedgerHunk] = []
        all.reserveCapacity(count)
        for block in blocks {
            for var hunk in block.hunks {
                hunk.base = Self.shifted(hunk.base, by: block.shift)
                all.append(hunk)
            }
        }
        return all
    }

    /// Makes room in the list of blocks for `more` changes beyond those held.
    mutating func reserveCapacity(forMore more: Int) {
        let blocksNeeded = blocks.count + more / blockSize + 1
        blocks.reserveCapacity(blocksNeeded)
        starts.reserveCapacity(blocksNeeded + 1)
        deltaStarts.reserveCapacity(blocksNeeded + 1)
    }

    /// How many blocks the list of blocks has room for (tests: room made before deliveries
    /// means no delivery moves the list into a larger buffer).
    var blockCapacity: Int { blocks.capacity }

    /// Takes every change out, block by block (their bases may lack the engine's last moves):
    /// an ended session's, to be freed a block at a time.
    mutating func take() -> [[LedgerHunk]] {
        let taken = blocks.map(\.hunks)
        blocks = []
        starts = [0]
        deltaStarts = [0]
        return taken
    }

    // MARK: Changing

    /// Moves the bases of changes `first...` by `amount`: those in `first`'s block one by one,
    /// the later blocks by their `shift`.
    mutating func shiftBases(from first: Int, by amount: Int) {
        guard amount != 0, first < count else { return }
        let (block, offset) = locate(first)
        for index in offset..<blocks[block].hunks.count {
            blocks[block].hunks[index].base = Self.shifted(blocks[block].hunks[index].base, by: amount)
        }
        for later in (block + 1)..<blocks.count { blocks[later].shift += amount }
    }

    /// Changes change `index` in place (its base as it is today in `body`), without copying it:
    /// a phrase or a streamed result grows where it is.
    mutating func modify<Result>(_ index: Int, _ body: (inout LedgerHunk) -> Result) -> Result {
        let (block, offset) = locate(index)
        let shift = blocks[block].shift
        blocks[block].hunks[offset].base = Self.shifted(blocks[block].hunks[offset].base, by: shift)
        let result = body(&blocks[block].hunks[offset])
        blocks[block].hunks[offset].base = Self.shifted(blocks[block].hunks[offset].base, by: -shift)
        resum(block, from: offset)
        updateSums(from: block)
        return result
    }

    /// Replaces changes `range` with `new` (their bases as they are today).
    mutating func replaceSubrange(_ range: Range<Int>, with new: [LedgerHunk]) {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "changes out of the ledger")
        guard !range.isEmpty || !new.isEmpty else { return }
        guard !blocks.isEmpty else {
            appendBlocks(new)
            return updateSums(from: 0)
        }
        if range.isEmpty, range.lowerBound == count, blocks[blocks.count - 1].hunks.count >= blockSize {
            // Put in after the last block, full (a proofread delivers in order): blocks of its own.
            let first = blocks.count
            appendBlocks(new)
            return updateSums(from: first)
        }
        let (block, offset) = range.lowerBound < count ? locate(range.lowerBound) : (blocks.count - 1, blocks[blocks.count - 1].hunks.count)
        // Out first, block by block from the range's start.
        var left = range.count, at = block, from = offset
        while left > 0 {
            let taken = min(left, blocks[at].hunks.count - from)
            blocks[at].hunks.removeSubrange(from..<(from + taken))
            left -= taken
            at += 1
            from = 0
        }
        if !new.isEmpty {
            let shift = blocks[block].shift
            blocks[block].hunks.insert(contentsOf: new.map { hunk in
                var kept = hunk
                kept.base = Self.shifted(hunk.base, by: -shift)
                return kept
            }, at: offset)
        }
        // The blocks changed, last first (a split puts blocks in after its own; an emptied one
        // goes): the first from where it changed, the others whole.
        for index in (block..<max(at, block + 1)).reversed() {
            if blocks[index].hunks.isEmpty {
                // Its end's entries go: the next block starts where it did.
                blocks.remove(at: index)
                starts.remove(at: index + 1)
                deltaStarts.remove(at: index + 1)
                continue
            }
            resum(index, from: index == block ? offset : 0)
            split(index)
        }
        updateSums(from: block)
    }

    /// Adds `hunks` (bases as they are today) as new blocks at the end.
    private mutating func appendBlocks(_ hunks: [LedgerHunk]) {
        var start = 0
        while start < hunks.count {
            let end = min(hunks.count, start + blockSize)
            blocks.append(Block(hunks: Array(hunks[start..<end]), shift: 0, sums: []))
            resum(blocks.count - 1, from: 0)
            starts.append(0)
            deltaStarts.append(0)
            start = end
        }
    }

    /// Splits block `index` into blocks of `blockSize` when it holds more than twice that.
    private mutating func split(_ index: Int) {
        guard blocks[index].hunks.count > 2 * blockSize else { return }
        let shift = blocks[index].shift
        var pieces: [Block] = []
        var start = blockSize
        while start < blocks[index].hunks.count {
            let end = min(blocks[index].hunks.count, start + blockSize)
            pieces.append(Block(hunks: Array(blocks[index].hunks[start..<end]), shift: shift, sums: []))
            start = end
        }
        blocks[index].hunks.removeSubrange(blockSize...)
        resum(index, from: 0)
        blocks.insert(contentsOf: pieces, at: index + 1)
        starts.insert(contentsOf: repeatElement(0, count: pieces.count), at: index + 1)
        deltaStarts.insert(contentsOf: repeatElement(0, count: pieces.count), at: index + 1)
        for piece in (index + 1)...(index + pieces.count) { resum(piece, from: 0) }
    }

    /// Brings block `index`'s `sums` up to date from change `offset` of it on.
    private mutating func resum(_ index: Int, from offset: Int) {
        let kept = min(offset, blocks[index].sums.count - 1)
        if kept < 0 {
            blocks[index].sums = [0]
        } else {
            blocks[index].sums.removeSubrange((kept + 1)...)
        }
        var sum = blocks[index].sums[blocks[index].sums.count - 1]
        for position in (blocks[index].sums.count - 1)..<blocks[index].hunks.count {
            sum += blocks[index].hunks[position].delta
            blocks[index].sums.append(sum)
        }
    }

    /// Brings `starts` and `deltaStarts` up to date from block `index` on (from the block
    /// before it: block `index` may be one that took an emptied block's place).
    private mutating func updateSums(from index: Int) {
        if blocks.isEmpty {
            starts = [0]
            deltaStarts = [0]
            return
        }
        for block in max(0, index - 1)..<blocks.count {
            starts[block + 1] = starts[block] + blocks[block].hunks.count
            deltaStarts[block + 1] = deltaStarts[block] + blocks[block].sums[blocks[block].sums.count - 1]
        }
    }

    private static func shifted(_ r: Range<Int>, by delta: Int) -> Range<Int> {
        (r.lowerBound + delta)..<(r.upperBound + delta)
    }
}
