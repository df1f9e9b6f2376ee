import Glibc

/// The benchmark engine's text: UTF-8 bytes with a gap where the last edit was (a gap buffer).
///
/// Why not a flat array: a replace in a flat array moves every byte after it, and that copy
/// (the engine's cost, not Emend's) ran inside the dispatch that sends Emend's replace. A revert
/// that puts a 16 MB original back 64 KiB at a time from its end replaced at the same place
/// 256 times, and the array moved the rest of the document each time: about half of each
/// replace's dispatch. Here a replace moves only the bytes between the gap and the edit (none
/// for edits at one place) and the bytes put in.
struct GapBytes {
    private var storage: [UInt8]
    /// The gap is `storage[gapStart..<gapEnd]`; the text is the storage around it.
    private var gapStart: Int
    private var gapEnd: Int

    /// `reserving`: room for a text of that many bytes made at once (see `ByteEngine`).
    init(_ text: String, reserving: Int = 0) {
        let bytes = Array(text.utf8)
        storage = bytes + [UInt8](repeating: 0, count: max(reserving - bytes.count, 1 << 20))
        gapStart = bytes.count
        gapEnd = storage.count
    }

    /// The text's length in bytes.
    var count: Int { storage.count - (gapEnd - gapStart) }

    /// The text as one array (costs its length: for checks outside the measured stages).
    var bytes: [UInt8] { Array(storage[..<gapStart]) + storage[gapEnd...] }

    /// The text as a `String`, copied once (what the engine gives Emend as a context).
    var string: String {
        String(unsafeUninitializedCapacity: count) { buffer in
            let head = gapStart, tail = storage.count - gapEnd
            storage.withUnsafeBufferPointer { stored in
                guard let from = stored.baseAddress, let into = buffer.baseAddress else { return }
                into.update(from: from, count: head)
                (into + head).update(from: from + gapEnd, count: tail)
            }
            return head + tail
        }
    }

    /// Replaces `range` of the text with `replacement`.
    mutating func replace(_ range: Range<Int>, with replacement: some Collection<UInt8>) {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "a replace out of the text")
        // Bring the gap to the range (moving only the bytes outside it), then let it take the range.
        if gapStart > range.upperBound { moveGap(to: range.upperBound) }
        if gapStart < range.lowerBound { moveGap(to: range.lowerBound) }
        gapEnd += range.upperBound - gapStart
        gapStart = range.lowerBound
        let added = replacement.count
        if gapEnd - gapStart < added { grow(toHold: added) }
        let at = gapStart
        storage.withUnsafeMutableBufferPointer { buffer in
            let room = UnsafeMutableBufferPointer(rebasing: buffer[at..<(at + added)])
            let copied: Void? = replacement.withContiguousStorageIfAvailable { bytes in
                guard let from = bytes.baseAddress, let into = room.baseAddress else { return }
                into.update(from: from, count: added)
            }
            if copied == nil { _ = room.initialize(from: replacement) }
        }
        gapStart += added
    }

    /// Moves the gap so that it starts at `position` of the text.
    private mutating func moveGap(to position: Int) {
        guard position != gapStart else { return }
        let (from, to, moved) = position < gapStart
            ? (position, gapEnd - (gapStart - position), gapStart - position)
            : (gapEnd, gapStart, position - gapStart)
        storage.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            _ = memmove(base + to, base + from, moved)
        }
        if position < gapStart {
            gapEnd -= moved
        } else {
            gapEnd += moved
        }
        gapStart = position
    }

    /// Makes the gap at least `added` bytes long (copies the text: rare, outside steady edits).
    private mutating func grow(toHold added: Int) {
        let tail = storage[gapEnd...]
        var larger = Array(storage[..<gapStart])
        let size = max(2 * storage.count, count + added + (1 << 20))
        larger += [UInt8](repeating: 0, count: size - gapStart - tail.count)
        larger += tail
        gapEnd = size - tail.count
        storage = larger
    }
}
