/// Ranges sorted by (lowerBound, upperBound), kept in blocks of at most twice `blockLimit`:
/// adding one anywhere moves at most a block of ranges, not every range after it. Why: one
/// sorted array made a plugin that emits its edits from the end of the text backwards pay
/// for every edit it had sent (an insert at the front), quadratic in the edits; blocks make
/// any order cost about the same as ascending.
struct SortedRanges {
    private var blocks: [[Range<Int>]] = []
    static let blockLimit = 256

    /// Where a range is: its block and its index in the block (`block == blocks.count`: past
    /// the end).
    struct Position {
        var block: Int
        var index: Int
    }

    /// The first position whose range satisfies `holds`, which must be false and then true
    /// along the order.
    func first(where holds: (Range<Int>) -> Bool) -> Position {
        var low = 0, high = blocks.count
        while low < high {
            let middle = (low + high) / 2
            if holds(blocks[middle][blocks[middle].count - 1]) { high = middle } else { low = middle + 1 }
        }
        guard low < blocks.count else { return Position(block: blocks.count, index: 0) }
        var first = 0, last = blocks[low].count
        while first < last {
            let middle = (first + last) / 2
            if holds(blocks[low][middle]) { last = middle } else { first = middle + 1 }
        }
        return Position(block: low, index: first)
    }

    /// The range at `position`; nil past the end.
    func range(at position: Position) -> Range<Int>? {
        position.block < blocks.count ? blocks[position.block][position.index] : nil
    }

    /// The position after `position` (which is not past the end).
    func after(_ position: Position) -> Position {
        position.index + 1 < blocks[position.block].count
            ? Position(block: position.block, index: position.index + 1) : Position(block: position.block + 1, index: 0)
    }

    /// Adds `range` in its place.
    mutating func insert(_ range: Range<Int>) {
        guard !blocks.isEmpty else { return blocks.append([range]) }
        var position = first { ($0.lowerBound, $0.upperBound) >= (range.lowerBound, range.upperBound) }
        if position.block == blocks.count { position = Position(block: blocks.count - 1, index: blocks[blocks.count - 1].count) }
        blocks[position.block].insert(range, at: position.index)
        if blocks[position.block].count >= 2 * Self.blockLimit {
            let tail = Array(blocks[position.block][Self.blockLimit...])
            blocks[position.block].removeSubrange(Self.blockLimit...)
            blocks.insert(tail, at: position.block + 1)
        }
    }
}
