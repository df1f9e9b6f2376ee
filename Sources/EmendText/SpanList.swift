/// Something on a byte range of a text: an attribute run, a block intent, a protected range.
public protocol Spanned {
    var range: Range<Int> { get set }
}

extension AttributeRun: Spanned {}
extension BlockIntent: Spanned {}
extension Range: Spanned where Bound == Int {
    public var range: Range<Int> {
        get { self }
        set { self = newValue }
    }
}

/// The styling of a large text (its runs, intents or protected ranges) as edits move it:
/// what `AttributedText.follow`, `restyle` and `clipped` do to flat arrays, at a cost that
/// does not grow with the number of ranges far from the edit.
///
/// Why: a session keeps the engine's whole document, and a rich-text engine may give it a
/// run every hundred bytes. Mapping every range of a flat array through every replace cost
/// the number of ranges per replace: a proofread of 10 MB with a run per 100 bytes took 14 s
/// instead of 0.7 s.
///
/// How: the ranges, sorted by their start, are cut into blocks of about `blockSize`; each
/// block keeps its ranges relative to an offset of its own and the largest end among them.
/// An edit moves a block that starts after it by changing that offset, leaves alone a block
/// that ends before it, and maps one by one only the ranges of blocks that reach it (a long
/// range, a font over the whole text say, keeps its block among those). A query reads only
/// the blocks that reach its range. Edits keep the ranges sorted: `RangeShift.map` is
/// monotone in a range's start for ranges that are not empty. Empty ranges style nothing
/// (a slice drops them) and would break that order (one at an insertion point stays while
/// the ranges starting there move), so they are dropped, as they come and as edits make
/// them.
public struct SpanList<Element: Spanned> {
    private struct Block {
        /// Sorted by start; each range is stored less `offset`.
        var items: [Element]
        var offset: Int
        /// The largest end among `items`, stored less `offset`.
        var maxEnd: Int

        init(_ items: [Element], offset: Int) {
            self.items = items
            self.offset = offset
            var end = 0
            for item in items where item.range.upperBound > end { end = item.range.upperBound }
            maxEnd = end
        }

        var start: Int { items[0].range.lowerBound + offset }
        var end: Int { maxEnd + offset }

        func element(_ index: Int) -> Element {
            var element = items[index]
            element.range = (element.range.lowerBound + offset)..<(element.range.upperBound + offset)
            return element
        }
    }

    /// Ranges per block: small enough that mapping one block is a few microseconds, large
    /// enough that visiting every block's offset is too.
    public static var defaultBlockSize: Int { 128 }

    private var blocks: [Block] = []
    /// A block this large is split in two.
    private let blockSize: Int

    /// `elements` in any order; they are kept sorted by start (equal starts in their order).
    /// `blockSize` other than the default is for tests (many blocks out of a few ranges).
    public init(_ elements: [Element] = [], blockSize: Int = defaultBlockSize) {
        self.blockSize = max(1, blockSize)
        // Engines give runs in order as a rule: a look, not a sort, and no copy of them all
        // (a styled 10 MB document has 100,000 runs, taken in on the engine's thread).
        if zip(elements, elements.dropFirst()).contains(where: { $0.range.lowerBound > $1.range.lowerBound }) {
            let sorted = elements.enumerated().sorted { ($0.element.range.lowerBound, $0.offset) < ($1.element.range.lowerBound, $1.offset) }
            fill(sorted.lazy.map(\.element))
        } else {
            fill(elements)
        }
    }

    /// Cuts sorted `elements` into blocks, leaving out empty ranges.
    private mutating func fill(_ elements: some Sequence<Element>) {
        var items: [Element] = []
        items.reserveCapacity(blockSize)
        for element in elements where !element.range.isEmpty {
            items.append(element)
            if items.count == blockSize {
                blocks.append(Block(items, offset: 0))
                items.removeAll(keepingCapacity: true)
            }
        }
        if !items.isEmpty { blocks.append(Block(items, offset: 0)) }
    }

    public var isEmpty: Bool { blocks.isEmpty }

    /// Every element, sorted by start (costs their number).
    public var elements: [Element] {
        var all: [Element] = []
        for block in blocks {
            for index in block.items.indices { all.append(block.element(index)) }
        }
        return all
    }

    /// The elements whose ranges meet `low...high` (start at or before `high`, end at or after
    /// `low`), in order: a superset callers filter. Reads only the blocks that reach it.
    public func elements(near low: Int, _ high: Int) -> [Element] {
        var found: [Element] = []
        for block in blocks {
            if block.start > high { break }   // blocks are sorted by start
            guard block.end >= low else { continue }
            for index in block.items.indices {
                let element = block.element(index)
                if element.range.lowerBound > high { break }
                if element.range.upperBound >= low { found.append(element) }
            }
        }
        return found
    }

    /// `edited` was replaced by text `delta` bytes longer: every range moves as
    /// `RangeShift.map` says, and those of which nothing survives go.
    public mutating func follow(_ edited: Range<Int>, delta: Int) {
        let a = edited.lowerBound, b = edited.upperBound
        var index = 0
        while index < blocks.count {
            if blocks[index].end <= a {
                index += 1   // every range ends at or before the edit: it stays
                continue
            }
            let start = blocks[index].start
            if start >= b {
                blocks[index].offset += delta   // every range starts at or after the edit's end (none is empty): it moves
                index += 1
                continue
            }
            let block = blocks[index]
            var kept: [Element] = []
            kept.reserveCapacity(block.items.count)
            for item in block.items.indices {
                var element = block.element(item)
                guard let moved = RangeShift.map(element.range, through: edited, delta: delta), !moved.isEmpty else { continue }
                element.range = moved
                kept.append(element)
            }
            if kept.isEmpty {
                blocks.remove(at: index)
            } else {
                blocks[index] = Block(kept, offset: 0)
                index += 1
            }
        }
    }

    /// `inserted` now holds a replacement with styling `incoming` (ranges in the same
    /// offsets): what overlapped it is cut out of it, as `AttributedText.restyle` does (an
    /// empty `inserted` inside a range splits it), and `incoming` comes in.
    public mutating func restyle(_ inserted: Range<Int>, with incoming: [Element]) {
        var pieces: [Element] = []
        var index = 0
        while index < blocks.count {
            let block = blocks[index]
            if block.start > inserted.upperBound { break }   // blocks are sorted by start
            guard block.end >= inserted.lowerBound else {
                index += 1
                continue
            }
            var kept: [Element] = []
            var cut = false
            for item in block.items.indices {
                let element = block.element(item)
                let r = element.range
                guard r.overlaps(inserted) || (inserted.isEmpty && r.contains(inserted.lowerBound)) else {
                    kept.append(element)
                    continue
                }
                cut = true
                for piece in [r.lowerBound..<max(r.lowerBound, inserted.lowerBound), min(r.upperBound, inserted.upperBound)..<r.upperBound]
                where !piece.isEmpty && !piece.overlaps(inserted) {
                    var part = element
                    part.range = piece
                    pieces.append(part)
                }
            }
            guard cut else {
                index += 1
                continue
            }
            if kept.isEmpty {
                blocks.remove(at: index)
            } else {
                blocks[index] = Block(kept, offset: 0)
                index += 1
            }
        }
        for element in pieces + incoming where !element.range.isEmpty { insert(element) }
    }

    /// Puts `element` after every element that starts at or before it.
    private mutating func insert(_ element: Element) {
        let start = element.range.lowerBound
        // The last block starting at or before `element` (or the first block).
        var low = 0, high = blocks.count
        while low < high {
            let middle = (low + high) / 2
            if blocks[middle].start <= start { low = middle + 1 } else { high = middle }
        }
        let index = max(0, low - 1)
        guard index < blocks.count else {
            blocks.append(Block([element], offset: 0))
            return
        }
        var stored = element
        stored.range = (start - blocks[index].offset)..<(element.range.upperBound - blocks[index].offset)
        let items = blocks[index].items
        var position = items.count
        while position > 0 && items[position - 1].range.lowerBound > stored.range.lowerBound { position -= 1 }
        blocks[index].items.insert(stored, at: position)
        blocks[index].maxEnd = max(blocks[index].maxEnd, stored.range.upperBound)
        if blocks[index].items.count >= 2 * blockSize {
            let all = blocks[index].items, offset = blocks[index].offset
            let half = all.count / 2
            blocks.replaceSubrange(index...index, with: [Block(Array(all[..<half]), offset: offset),
                                                         Block(Array(all[half...]), offset: offset)])
        }
    }
}
