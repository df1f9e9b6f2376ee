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
    func sorted() -> OrderedEdits {
        if let inOrder { return inOrder }
        var all: [ProviderEdit] = []
        all.reserveCapacity(count)
        for batch in batches { all.append(contentsOf: batch) }
        // Stable: an edit's place in arrival order breaks ties.
        let order = all.indices.sorted { a, b in
            let left = all[a].range.lowerBound, right = all[b].range.lowerBound
            return left < right || (left == right && a < b)
        }
        return OrderedEdits(batches: [order.map { all[$0] }], count: count, backwards: false)
    }
}

/// Edits in ascending order of their start, taken from the front a slice at a time; reads
/// the batches they arrived in (back to front for edits that came descending) without
/// gathering them into one array.
struct OrderedEdits: Sendable {
    private let batches: [[ProviderEdit]]
    private let backwards: Bool
    /// The next edit: its batch, and its place in that batch.
    private var batch: Int
    private var offset: Int
    /// How many are left to take.
    private(set) var remaining: Int

    fileprivate init(batches: [[ProviderEdit]], count: Int, backwards: Bool) {
        self.batches = batches
        self.backwards = backwards
        remaining = count
        if backwards {
            batch = batches.count - 1
            offset = batch >= 0 ? batches[batch].count - 1 : 0
        } else {
            batch = 0
            offset = 0
        }
    }

    /// The next edit by start; nil once all were taken.
    mutating func next() -> ProviderEdit? {
        guard remaining > 0 else { return nil }
        let edit = batches[batch][offset]
        remaining -= 1
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
