/// Lets go of a large array a slice per queue item instead of all at once.
///
/// Why: an ended session of a million suggestions freed them (each an object with an anchor
/// of its own), its million changes and its context in the dispatch that ended it: hundreds
/// of milliseconds of the engine's thread. Handed here, they go a slice at a time, each slice
/// a queue item of its own, so a dispatch frees at most what its budget allows (the queue
/// stays busy meanwhile, and the engine's loop goes on dispatching as for any other work).
enum SlicedRelease {
    /// How many elements one queue item frees by default (a suggestion costs well under a
    /// microsecond).
    static let slice = 2048

    /// Frees `items` from the end, `slice` at a time, in queue items of `queue`, then runs
    /// `then` (in the last of them); small arrays go at once. The caller must not keep a
    /// copy: the array is freed in place.
    static func release<Element>(_ items: consuming [Element], slice: Int = Self.slice, on queue: WorkQueue,
                                 then: @escaping () -> Void = {}) {
        guard items.count > slice else {
            if items.isEmpty, isLarge(items) { freeElsewhere(items) }
            return then()
        }
        let held = Held(items)
        weak let target = queue
        func step() {
            held.items.removeLast(min(slice, held.items.count))
            mergeFreedBlocks()
            if held.items.isEmpty {
                if isLarge(held.items) { freeElsewhere(held.take()) }
                return then()
            }
            target?.post(step)
        }
        queue.post(step)
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
    /// maps on its own) after each slice merges that slice's blocks then: a slice's worth.
    /// Other allocators just hand the block out and take it back.
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

    /// Frees each of `arrays` as `release` does, one after another from the last, then runs
    /// `then`; small arrays (a ledger's blocks of a few hundred changes) go together, up to
    /// `slice` elements per queue item, a larger one a slice per item from its end. Why together but not all at once: a million changes
    /// are thousands of blocks, and freeing each in the item of the one before (or all in one)
    /// freed them all in one dispatch.
    static func release<Element>(each arrays: consuming [[Element]], slice: Int = Self.slice, on queue: WorkQueue,
                                 then: @escaping () -> Void = {}) {
        guard !arrays.isEmpty else { return then() }
        let held = Held(arrays)
        weak let target = queue
        func step() {
            var freed = 0
            while freed < slice, let last = held.items.indices.last {
                let count = held.items[last].count
                if count <= slice - freed {
                    // Whole: its elements here, a large buffer's pages on a thread of its own.
                    if isLarge(held.items[last]) {
                        held.items[last].removeAll(keepingCapacity: true)
                        freeElsewhere(held.items.removeLast())
                    } else {
                        held.items.removeLast()
                    }
                    freed += max(1, count)
                } else if freed == 0 {
                    // A large one: a slice from its end, in place.
                    held.items[last].removeLast(slice)
                    freed = slice
                } else {
                    break
                }
            }
            mergeFreedBlocks()
            if held.items.isEmpty { return then() }
            target?.post(step)
        }
        queue.post(step)
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
    /// Lets go of what an ended session holds in bulk, a slice per queue item: its
    /// suggestions first (their anchors leave the contexts' texts one by one while those are
    /// still alive, so the texts are light when they go), then the provider's edits, the
    /// saved versions and the contexts' changes, and the contexts last.
    func releaseInSlices(on queue: WorkQueue) {
        // Taken out of the session: the last references to the contexts are the release's,
        // which frees them on a thread of its own once nothing anchored in them is left.
        var contexts: [SessionContext] = []
        swap(&contexts, &self.contexts)
        var versions: [[LedgerHunk]] = [[]]
        swap(&versions, &self.versions)
        // The ledger's changes come in blocks of a few hundred, freed a slice's worth per
        // queue item. The changes and the edits are held in boxes the closures below take
        // them from, not captured: a captured array stays referenced by its closure, so the
        // slices freed a copy (copy-on-write) while the closure, destroyed at the chain's end,
        // freed the original at once on the engine's thread (perf, shuffled revert of a
        // million changes: the ledger's 96 MB buffer given back by `munmap` in the last
        // dispatch, under the chain's closure contexts).
        let changes = SlicedRelease.Held(versions + contexts.flatMap { $0.ledger.takeHunks() })
        let edits = SlicedRelease.Held(run.takeEdits())
        let held = SlicedRelease.Held(contexts)
        contexts = []
        SlicedRelease.release(takeSuggestions(), on: queue) {
            // A batch of the provider's edits is thousands of them: one per queue item.
            SlicedRelease.release(edits.take(), slice: 1, on: queue) {
                SlicedRelease.release(each: changes.take(), on: queue) {
                    let contexts = held.take()
                    if contexts.contains(where: \.holdsMuch) { SlicedRelease.freeElsewhere(contexts) }
                }
            }
        }
    }
}
