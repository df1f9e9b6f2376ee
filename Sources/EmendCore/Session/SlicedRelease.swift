/// Lets go of a large array a slice per queue item instead of all at once.
///
/// Why: an ended session of a million suggestions freed them (each an object with an anchor
/// of its own), its million changes and its context in the dispatch that ended it: hundreds
/// of milliseconds of the engine's thread. Handed here, they go a slice at a time, each slice
/// a queue item of its own, so a dispatch frees at most what its budget allows (the queue
/// stays busy meanwhile, and the engine's loop goes on dispatching as for any other work).
enum SlicedRelease {
    /// How many elements one queue item frees when slices are not bounded by time (a
    /// dispatch budget of items: runs that must be the same each time).
    static let slice = 2048
    /// Elements freed between two reads of the clock (and together, by one `removeLast`):
    /// a suggestion costs about a microsecond and a half (its anchor leaves the rope's marks).
    static let checkEvery = 16
    /// Elements freed between two merges of the allocator's freed blocks
    /// (`mergeFreedBlocks`): the merge's cost grows with what was freed since the one
    /// before, so it stays a small part of a slice.
    static let mergeEvery = 256
    /// Up to how many elements a release frees at once, where it is asked, when slices are
    /// bounded by time (a session of usual size: a fraction of a millisecond).
    static let freedAtOnce = 256

    /// Frees `items` from the end, a slice per queue item of `queue` (about half a
    /// millisecond, `WorkSlice`; `slice` elements when the queue's slices are not bounded by time), then
    /// runs `then` (in the last of them); small arrays go at once. The caller must not keep
    /// a copy: the array is freed in place.
    static func release<Element>(_ items: consuming [Element], slice: Int = Self.slice, on queue: WorkQueue,
                                 then: @escaping () -> Void = {}) {
        guard items.count > (queue.slicesByTime ? min(slice, freedAtOnce) : slice) else {
            if items.isEmpty, isLarge(items) { freeElsewhere(items) }
            return then()
        }
        let held = Held(items)
        let bound = Self.bound(on: queue, slice: slice)
        weak let target = queue
        func step() {
            var item = Slice(bound)
            while let count = item.next(atMost: held.items.count) {
                held.items.removeLast(count)
            }
            item.end()
            if held.items.isEmpty {
                if isLarge(held.items) { freeElsewhere(held.take()) }
                return then()
            }
            target?.post(step)
        }
        queue.post(step)
    }

    /// Lets go of `items` a slice per queue item as `release` does, but only `detach` runs on
    /// the engine's thread (what must: an anchor leaving its context's text); the elements
    /// themselves are freed on a thread of their own, a slice's worth at a time (a slice of
    /// fewer than `freedAtOnce` here).
    /// Why: accepting a million suggestions freed their objects, anchors and strings on the
    /// engine's thread, and a free there that left the top of the heap free had glibc give
    /// it back (`brk`, megabytes of pages): dispatches of 11.7–13.0 ms beside two CPU hogs
    /// (perf: 85% in `__brk` under `SlicedRelease`). The freeing thread now does that.
    static func releaseDetaching<Element>(_ items: consuming [Element], on queue: WorkQueue,
                                          detach: @escaping (Element) -> Void, then: @escaping () -> Void = {}) {
        let held = Held(items)
        let bound = Self.bound(on: queue, slice: slice)
        weak let target = queue
        func step() {
            var work = WorkSlice(bound, checkEvery: checkEvery)
            var batch: [Element] = []
            while !held.items.isEmpty, work.takesAnother() {
                let element = held.items.removeLast()
                detach(element)
                batch.append(element)
            }
            // A few (a session of usual size) cost less to free here than a thread to start.
            if batch.count >= freedAtOnce { freeElsewhere(consume batch) }
            if held.items.isEmpty {
                if isLarge(held.items) { freeElsewhere(held.take()) }
                return then()
            }
            target?.post(step)
        }
        guard !held.items.isEmpty else { return then() }
        queue.post(step)
    }

    /// The time one queue item frees for, when slices are bounded by time: half of
    /// `WorkSlice.standardMicroseconds`. Why less: a dispatch is its 3 ms budget plus the item
    /// it began last, and an ended session's release is hundreds of items in a row, so its
    /// dispatches were 3.6–4.0 ms with millisecond slices; nothing waits on a release, so
    /// shorter items cost only a few more dispatches.
    static let microseconds: Int64 = 500

    /// What ends a slice on `queue`: `microseconds` when its slices are bounded by time
    /// (never fewer than `WorkSlice.minimumElements` elements, nor than `slice`), else `slice`
    /// elements.
    static func bound(on queue: WorkQueue, slice: Int) -> WorkSlice.Bound {
        guard queue.slicesByTime else { return .elements(max(1, slice)) }
        return .time(microseconds: microseconds, minimum: max(1, min(WorkSlice.minimumElements, slice)))
    }

    /// One queue item's worth of freeing: how many elements to free next, a few at a time
    /// (`checkEvery`) until its `WorkSlice` ends, with the allocator's freed blocks merged
    /// every `mergeEvery` elements and at its end (`mergeFreedBlocks`).
    /// Why by time: a slice of 2,048 suggestions (an object, an anchor leaving the rope's
    /// marks, strings each) took 2–3 ms, and a dispatch is its 3 ms budget plus one item:
    /// reverting a million changes had dispatches of 5.1–6.5 ms (perf: `SlicedRelease`'s
    /// slices of suggestions, with `malloc_consolidate` under them).
    struct Slice {
        private var work: WorkSlice
        private var unmerged = 0
        private(set) var freed = 0

        init(_ bound: WorkSlice.Bound) { work = WorkSlice(bound, checkEvery: SlicedRelease.checkEvery) }

        /// How many of `available` elements to free now (at most `checkEvery`), nil when the
        /// slice is over or nothing is left; merges what was freed before when it is due.
        mutating func next(atMost available: Int) -> Int? {
            if unmerged >= SlicedRelease.mergeEvery {
                mergeFreedBlocks()
                unmerged = 0
            }
            var count = 0
            while count < min(available, SlicedRelease.checkEvery), work.takesAnother() { count += 1 }
            guard count > 0 else { return nil }
            unmerged += count
            freed += count
            return count
        }

        /// Merges what the slice freed since the last merge.
        mutating func end() {
            if unmerged > 0 { mergeFreedBlocks() }
            unmerged = 0
        }
    }

    /// Lets go of `value` on a thread of its own (the last reference must be the caller's,
    /// handed over). Only for what nothing on the engine's thread reaches any more and whose
    /// freeing touches nothing shared: an empty buffer, an ended session's contexts (anchors
    /// hold those weakly). Why: giving back the pages of a million changes' buffer (96 MB)
    /// and of the rope's tables of marks took the kernel tens of milliseconds of the
    /// dispatch that let go of them.
    static func freeElsewhere<Value>(_ value: consuming Value) {
        let box = Unmanaged.passRetained(Box(value))
        do {
            try RuntimeThread.start { box.release() }
        } catch {
            box.release()
        }
    }

    /// Has the C allocator merge the small blocks freed so far. Why: glibc keeps small freed
    /// blocks (fastbins) unmerged until a block of 64 KB or more is asked for or freed, and
    /// then merges every one of them at once. The slices of an ended session's million
    /// suggestions (an object, an anchor and strings each) were merged by whatever freed a
    /// large buffer next (a batch of the provider's edits, the free slots' buffer growing):
    /// 25 ms of one queue item. Asking for and freeing a block of 96 KB (below the size glibc
    /// maps on its own) every `mergeEvery` elements of a slice and at its end merges those
    /// blocks then: a few hundred elements' worth each time, so the merges of a slice are
    /// bounded as the slice is (a merge after a fixed 2,048 was itself a part of the longest
    /// dispatches). Other allocators just hand the block out and take it back.
    static func mergeFreedBlocks() {
        // Swift's allocation (malloc underneath): a malloc and free pair is optimised away.
        UnsafeMutableRawPointer.allocate(byteCount: 96 << 10, alignment: 16).deallocate()
    }

    /// Whether an array's buffer is large enough (a megabyte) to be freed elsewhere.
    private static func isLarge<Element>(_ items: [Element]) -> Bool {
        items.capacity * MemoryLayout<Element>.stride >= 1 << 20
    }

    private final class Box<Value> {
        let value: Value
        init(_ value: consuming Value) { self.value = value }
    }

    fileprivate final class Held<Element> {
        var items: [Element]
        init(_ items: [Element]) { self.items = items }

        /// The items, which this lets go of.
        func take() -> [Element] {
            var taken: [Element] = []
            swap(&taken, &items)
            return taken
        }
    }
}

extension Session {
    /// Lets go of what an ended session holds in bulk: its suggestions a slice per queue item
    /// (their anchors leave the contexts' texts one by one while those are still alive, so the
    /// texts are light when they go), and the contexts last; the provider's edits, the saved
    /// versions and the contexts' changes on a thread of their own when they are many.
    func releaseInSlices(on queue: WorkQueue) {
        // Taken out of the session: the last references to the contexts are the release's,
        // which frees them on a thread of its own once nothing anchored in them is left.
        var contexts: [SessionContext] = []
        swap(&contexts, &self.contexts)
        var versions: [[LedgerHunk]] = [[]]
        swap(&versions, &self.versions)
        // The changes and the edits are values (ranges, texts, strings) that nothing on the
        // engine's thread reaches once taken out, so they may go anywhere. Why not a slice per
        // queue item as the suggestions: freeing their blocks' buffers is where the C
        // allocator gives back the pages at the top of its heap (glibc's `heap_trim`: a
        // `madvise` of 32 MB after a million changes, about a millisecond, perf with
        // `-e syscalls:sys_enter_madvise --call-graph dwarf`), which made the item that freed
        // the block the longest of reverting (4.0–4.7 ms CPU in shape `shuffled`).
        let values = ValuesLetGo(changes: versions + contexts.flatMap { $0.ledger.takeHunks() }, edits: run.takeEdits())
        // The values' references must be the last before they go: with `versions` still
        // holding the saved versions, whichever of the two let go last freed them, and when
        // that was this thread, a rewrite's 4 MB version made on the analysis thread went back
        // to that thread's arena here, which glibc then trimmed (a `madvise` of 65 MB: 3-5 ms
        // of the dispatch, perf `-e syscalls:sys_enter_madvise --call-graph dwarf`).
        versions = []
        if values.areMany { SlicedRelease.freeElsewhere(consume values) }
        let texts = run.takeTexts()
        if texts.areLong { SlicedRelease.freeElsewhere(consume texts) }
        let held = SlicedRelease.Held(contexts)
        contexts = []
        SlicedRelease.releaseDetaching(takeSuggestions(), on: queue, detach: { $0.anchor.release() }) {
            let contexts = held.take()
            if contexts.contains(where: \.holdsMuch) { SlicedRelease.freeElsewhere(contexts) }
        }
    }

    /// An ended session's changes (the ledger's blocks and the saved versions) and the
    /// provider's edits (the batches they came in), which nothing else holds.
    private struct ValuesLetGo {
        let changes: [[LedgerHunk]]
        let edits: [[ProviderEdit]]

        /// Whether freeing them may cost more than a fraction of a millisecond: more than a
        /// few hundred, or a long text among them (a refused rewrite's 16 MB change).
        var areMany: Bool {
            let count = changes.reduce(0) { $0 + $1.count } + edits.reduce(0) { $0 + $1.count }
            guard count <= SlicedRelease.freedAtOnce else { return true }
            // Lengths as the ledger keeps them: reading `text` would join a long change's pieces.
            return changes.joined().contains { $0.textCount + $0.base.count >= 1 << 16 }
        }
    }
}
