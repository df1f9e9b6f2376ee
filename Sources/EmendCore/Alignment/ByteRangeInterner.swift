/// Gives equal byte strings (ranges of the original or the proposed bytes) the same small integer id.
struct ByteRangeInterner {
    private let original: [UInt8]
    private let proposed: [UInt8]
    private var slots: [Int32]
    private var hashes: [UInt64] = []
    private var inProposed: [Bool] = []
    private var ranges: [Range<Int>] = []

    init(original: [UInt8], proposed: [UInt8], capacity: Int = 64) {
        self.original = original
        self.proposed = proposed
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        slots = Array(repeating: -1, count: size)
    }

    /// The id of the bytes `range` of the proposed (`inProposed`) or original text.
    mutating func id(_ range: Range<Int>, inProposed side: Bool) -> Int32 {
        let hash = side ? Self.hash(proposed, range) : Self.hash(original, range)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let entry = slots[slot]
            if entry < 0 { break }
            if hashes[Int(entry)] == hash && matches(Int(entry), range, side) { return entry }
            slot = (slot + 1) & mask
        }
        let id = Int32(hashes.count)
        hashes.append(hash)
        inProposed.append(side)
        ranges.append(range)
        slots[slot] = id
        if hashes.count * 2 > slots.count { grow() }
        return id
    }

    private func matches(_ entry: Int, _ range: Range<Int>, _ side: Bool) -> Bool {
        let other = ranges[entry]
        guard other.count == range.count else { return false }
        let lhs = inProposed[entry] ? proposed : original
        let rhs = side ? proposed : original
        return lhs.withUnsafeBufferPointer { l in
            rhs.withUnsafeBufferPointer { r in
                var i = other.lowerBound
                var j = range.lowerBound
                while i < other.upperBound {
                    if l[i] != r[j] { return false }
                    i += 1
                    j += 1
                }
                return true
            }
        }
    }

    private mutating func grow() {
        slots = Array(repeating: -1, count: slots.count * 2)
        let mask = slots.count - 1
        for (id, hash) in hashes.enumerated() {
            var slot = Int(truncatingIfNeeded: hash) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(id)
        }
    }

    /// FNV-1a over the bytes, finished with a multiply-xorshift so the low bits spread well.
    private static func hash(_ bytes: [UInt8], _ range: Range<Int>) -> UInt64 {
        bytes.withUnsafeBufferPointer { buffer in
            var h: UInt64 = 0xcbf2_9ce4_8422_2325
            for i in range {
                h = (h ^ UInt64(buffer[i])) &* 0x0000_0100_0000_01b3
            }
            h ^= UInt64(range.count)
            h = (h ^ (h >> 33)) &* 0xff51_afd7_ed55_8ccd
            return h ^ (h >> 33)
        }
    }
}
