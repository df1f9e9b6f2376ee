/// A provider's edits as they arrived: the batches it sent them in, and whether their order
/// is ascending or reversed so far.
///
/// Why: a proofreader may emit a million edits, in any order. Gathering them into one array
/// copied every edit again each time the array grew (tens of milliseconds of one dispatch),
/// and sorting them took the engine's thread for hundreds. Each batch is looked at once as
/// it arrives (its own dispatch), so the order is known at the end for free: edits that came
/// in ascending order are read as they are, edits that came in strictly descending order are
/// read back to front (what a stable sort would give), and only edits in no order at all
/// need the sort, which `sorted()` does wherever the caller runs it (off the engine's thread).
struct ArrivedEdits: Sendable {
    private var batches: [[ProviderEdit]] = []
    private(set) var count = 0
    /// Every edit starts at or after the one before it.
    private var ascending = true
    /// Every edit starts strictly before the one before it (ties would be read in the
    /// opposite order of a stable sort's).
    private var strictlyDescending = true
    private var lastStart: Int?

    init() {}

    /// Edits already in one array (the alignment of a full corrected text).
    init(_ edits: [ProviderEdit]) { append(edits) }

    var isEmpty: Bool { count == 0 }

    /// Takes the next batch; costs the batch, never the edits before it.
    mutating func append(_ batch: [ProviderEdit]) {
        guard !batch.isEmpty else { return }
        for edit in batch {
            let start = edit.range.lowerBound
            if let lastStart {
                if start < lastStart { ascending = false }
                if start >= lastStart { strictlyDescending = false }
            }
            lastStart = start
        }
        count += batch.count
        batches.append(batch)
    }

    /// The batches, taken out (for `SlicedRelease`).
    consuming func takeBatches() -> [[ProviderEdit]] { batches }

    /// The edits by start, when reading them so costs nothing more (they came ascending or
    /// strictly descending); nil when they need `sorted()`.
    var inOrder: OrderedEdits? {
        if ascending { return OrderedEdits(batches: batches, count: count, backwards: false) }
        if strictlyDescending { return OrderedEdits(batches: batches, count: count, backwards: true) }
        return nil
    }

    /// The edits by start, ties in the order they came (a stable sort): n log n, so the
    /// coordinator runs it on a thread of its own for edits that came in no order.
    /// The order is where each edit is in the batches (8 bytes an edit), not the edits
    /// copied: a sorted copy of a million edits (80 MB, four strings each) was let go on the
    /// engine's thread after the last suggestion was made, 20-30 ms of one dispatch, while
    /// the batches themselves are let go on a thread of their own (`Session.releaseInSlices`).
    func sorted() -> OrderedEdits {
        if let inOrder { return inOrder }
        // (start, place): the place (batch, offset) rises in arrival order, so it breaks ties
        // as a stable sort would, and no two keys are equal.
        var keyed: [(start: Int, place: Int)] = []
        keyed.reserveCapacity(count)
        for (index, batch) in batches.enumerated() {
            for (offset, edit) in batch.enumerated() {
                keyed.append((edit.range.lowerBound, OrderedEdits.place(batch: index, offset: offset)))
            }
        }
        keyed.sort { $0.start < $1.start || ($0.start == $1.start && $0.place < $1.place) }
        return OrderedEdits(batches: batches, order: keyed.map(\.place))
    }
}

/// Edits in ascending order of their start, taken from the front a slice at a time; reads
/// the batches they arrived in (back to front for edits that came descending) without
/// gathering them into one array.
struct OrderedEdits: Sendable {
    private let batches: [[ProviderEdit]]
    private let backwards: Bool
    /// For edits that came in no order: the place of each edit by start (see `place`).
    private let order: [Int]?
    /// The next edit: its batch, and its place in that batch (or in `order`).
    private var batch: Int
    private var offset: Int
    /// How many are left to take.
    private(set) var remaining: Int

    fileprivate init(batches: [[ProviderEdit]], count: Int, backwards: Bool) {
        self.batches = batches
        self.backwards = backwards
        order = nil
        remaining = count
        if backwards {
            batch = batches.count - 1
            offset = batch >= 0 ? batches[batch].count - 1 : 0
        } else {
            batch = 0
            offset = 0
        }
    }

    fileprivate init(batches: [[ProviderEdit]], order: [Int]) {
        self.batches = batches
        self.order = order
        backwards = false
        batch = 0
        offset = 0
        remaining = order.count
    }

    /// An edit's batch and offset in it, as one integer (a batch holds fewer than 2^32).
    fileprivate static func place(batch: Int, offset: Int) -> Int { batch << 32 | offset }

    /// The next edit by start; nil once all were taken.
    mutating func next() -> ProviderEdit? {
        guard remaining > 0 else { return nil }
        remaining -= 1
        if let order {
            let place = order[offset]
            offset += 1
            return batches[place >> 32][place & 0xFFFF_FFFF]
        }
        let edit = batches[batch][offset]
        if backwards {
            offset -= 1
            if offset < 0, batch > 0 {
                batch -= 1
                offset = batches[batch].count - 1
            }
        } else {
            offset += 1
            if offset == batches[batch].count {
                batch += 1
                offset = 0
            }
        }
        return edit
    }
}
