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
    static func release<Element>(_ items: [Element], slice: Int = Self.slice, on queue: WorkQueue,
                                 then: @escaping () -> Void = {}) {
        guard items.count > slice else { return then() }
        let held = Held(items)
        weak let target = queue
        func step() {
            held.items.removeLast(min(slice, held.items.count))
            if held.items.isEmpty { return then() }
            target?.post(step)
        }
        queue.post(step)
    }

    /// Frees each of `arrays` as `release` does, one after another, then runs `then`.
    static func release<Element>(each arrays: [[Element]], slice: Int = Self.slice, on queue: WorkQueue,
                                 then: @escaping () -> Void = {}) {
        var rest = arrays
        guard let last = rest.popLast() else { return then() }
        release(last, slice: slice, on: queue) { release(each: rest, slice: slice, on: queue, then: then) }
    }

    private final class Held<Element> {
        var items: [Element]
        init(_ items: [Element]) { self.items = items }
    }
}

extension Session {
    /// Lets go of what an ended session holds in bulk, a slice per queue item: its
    /// suggestions first (their anchors leave the contexts' texts one by one while those are
    /// still alive, so the texts are light when they go), then the provider's edits, the
    /// saved versions and the contexts' changes, and the contexts last.
    func releaseInSlices(on queue: WorkQueue) {
        let contexts = self.contexts
        var versions: [[LedgerHunk]] = [[]]
        swap(&versions, &self.versions)
        let changes = versions + contexts.map { $0.ledger.takeHunks() }
        let edits = run.takeEdits()
        SlicedRelease.release(takeSuggestions(), on: queue) {
            // A batch of the provider's edits is thousands of them: one per queue item.
            SlicedRelease.release(edits, slice: 1, on: queue) {
                SlicedRelease.release(each: changes, on: queue) { _ = contexts }
            }
        }
    }
}
