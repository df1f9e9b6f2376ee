/// Runs a step for each element of a large array a slice per queue item.
///
/// Why: a revert marks each of a session's suggestions as no longer applied before the
/// original goes back; a million of them held one dispatch for milliseconds. A slice ends
/// after about a millisecond (`WorkSlice`; `slice` elements when the queue's dispatches are
/// not bounded by time). A small array (one slice) is still done where it is, so nothing
/// changes for a session of usual size.
enum SlicedLoop {
    /// How many elements one queue item takes when slices are not bounded by time.
    static let slice = 16_384
    /// Elements between two reads of the clock: a step here costs nanoseconds.
    static let checkEvery = 64

    /// Runs `body` for each of `items` in order, a slice per queue item of `queue` (the
    /// first slice at once), then `then`.
    static func forEach<Element>(_ items: [Element], slice: Int = Self.slice, on queue: WorkQueue,
                                 _ body: @escaping (Element) -> Void, then: @escaping () -> Void) {
        var next = 0
        let bound = WorkSlice.bound(on: queue, elements: slice)
        weak let target = queue
        func step() {
            var item = WorkSlice(bound, checkEvery: checkEvery)
            while next < items.count, item.takesAnother() {
                body(items[next])
                next += 1
            }
            if next == items.count { return then() }
            target?.post(step)
        }
        step()
    }
}

extension SlicedLoop {
    /// The elements of `items` that `isIncluded` keeps, in order, looked at a slice per queue
    /// item of `queue` (the first slice at once), handed to `then`. Why: asking for the
    /// underlines of a result's pending suggestions looked through all of them in one
    /// dispatch (a million suggestions: milliseconds).
    static func filter<Element>(_ items: [Element], slice: Int = Self.slice, on queue: WorkQueue,
                                _ isIncluded: @escaping (Element) -> Bool, then: @escaping ([Element]) -> Void) {
        let kept = Kept<Element>()
        forEach(items, slice: slice, on: queue, { if isIncluded($0) { kept.items.append($0) } },
                then: { then(kept.items) })
    }

    private final class Kept<Element> {
        var items: [Element] = []
    }
}
