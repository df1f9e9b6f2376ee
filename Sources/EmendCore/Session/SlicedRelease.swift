/// Lets go of a large array a slice per queue item instead of all at once.
///
/// Why: an ended session of a million suggestions freed them (each an object with an anchor
/// of its own) in the dispatch that ended it: hundreds of milliseconds of the engine's
/// thread. Handed here, they go `slice` at a time, each slice a queue item of its own, so a
/// dispatch frees at most what its budget allows (the queue stays busy meanwhile, and the
/// engine's loop goes on dispatching as for any other work).
enum SlicedRelease {
    /// How many elements one queue item frees (a suggestion costs well under a microsecond).
    static let slice = 2048

    /// Frees `items` from the end, `slice` at a time, in queue items of `queue`; small
    /// arrays go at once. The caller must not keep a copy: the array is freed in place.
    static func release<Element>(_ items: [Element], on queue: WorkQueue) {
        guard items.count > slice else { return }
        let held = Held(items)
        weak let target = queue
        func step() {
            held.items.removeLast(min(slice, held.items.count))
            if !held.items.isEmpty { target?.post(step) }
        }
        queue.post(step)
    }

    private final class Held<Element> {
        var items: [Element]
        init(_ items: [Element]) { self.items = items }
    }
}
