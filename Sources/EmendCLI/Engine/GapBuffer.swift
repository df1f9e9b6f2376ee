/// The command's document as a gap buffer: bytes before and after a gap that moves to each
/// edit. Why: a proofread delivers its replaces in document order, so each one moves the gap
/// by the distance from the last; replacing bytes of one array would move everything after
/// every edit (10,000 replaces of a 10 MB file: gigabytes of copying).
struct GapBuffer {
    private var storage: [UInt8]
    private var gapStart: Int
    private var gapEnd: Int

    init(_ bytes: [UInt8]) {
        storage = bytes + [UInt8](repeating: 0, count: 4096)
        gapStart = bytes.count
        gapEnd = storage.count
    }

    var count: Int { storage.count - (gapEnd - gapStart) }

    /// The whole text, in order.
    var bytes: [UInt8] { Array(storage[..<gapStart]) + storage[gapEnd...] }

    mutating func replace(_ range: Range<Int>, with replacement: some Collection<UInt8>) {
        moveGap(to: range.lowerBound)
        gapEnd += range.count
        if gapEnd - gapStart < replacement.count { grow(by: replacement.count) }
        for byte in replacement {
            storage[gapStart] = byte
            gapStart += 1
        }
    }

    private mutating func moveGap(to offset: Int) {
        if offset < gapStart {
            let moved = gapStart - offset
            storage.withUnsafeMutableBufferPointer { buffer in
                let base = buffer.baseAddress!
                (base + gapEnd - moved).update(from: base + offset, count: moved)
            }
            gapStart -= moved
            gapEnd -= moved
        } else if offset > gapStart {
            let moved = offset - gapStart
            storage.withUnsafeMutableBufferPointer { buffer in
                let base = buffer.baseAddress!
                (base + gapStart).update(from: base + gapEnd, count: moved)
            }
            gapStart += moved
            gapEnd += moved
        }
    }

    private mutating func grow(by needed: Int) {
        let extra = max(needed, storage.count / 2, 4096)
        storage.insert(contentsOf: [UInt8](repeating: 0, count: extra), at: gapEnd)
        gapEnd += extra
    }
}
