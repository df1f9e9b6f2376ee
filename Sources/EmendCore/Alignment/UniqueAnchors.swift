/// Patience-style anchors: runs of `k` ids that occur exactly once in each range, kept in an order
/// that increases in both sequences (longest such chain) and without overlaps.
enum UniqueAnchors {
    /// Start indices `(inA, inB)` of the anchor runs, ascending.
    static func find(_ a: [Int32], _ aRange: Range<Int>, _ b: [Int32], _ bRange: Range<Int>,
                     k: Int) -> [(Int, Int)] {
        guard aRange.count >= k && bRange.count >= k && k > 0 else { return [] }
        let keysA = keys(a, aRange, k)
        let keysB = keys(b, bRange, k)
        var inA = UniqueKeyTable()
        for (index, key) in keysA.enumerated() { inA.note(key, at: index) }
        var inB = UniqueKeyTable()
        for (index, key) in keysB.enumerated() where (inA.position(of: key) ?? -1) >= 0 { inB.note(key, at: index) }
        var pairs: [(Int, Int)] = []
        for (index, key) in keysA.enumerated() {
            guard inA.position(of: key) == index, let j = inB.position(of: key), j >= 0 else { continue }
            let i = aRange.lowerBound + index
            let jb = bRange.lowerBound + j
            if k == 1 || a[i..<(i + k)].elementsEqual(b[jb..<(jb + k)]) { pairs.append((i, jb)) }
        }
        var anchors: [(Int, Int)] = []
        for pair in longestIncreasing(pairs) {
            if let last = anchors.last, pair.0 < last.0 + k || pair.1 < last.1 + k { continue }
            anchors.append(pair)
        }
        return anchors
    }

    /// One key per window of `k` ids: the id itself for k == 1, a polynomial hash otherwise.
    private static func keys(_ s: [Int32], _ range: Range<Int>, _ k: Int) -> [UInt64] {
        if k == 1 { return s[range].map { UInt64(UInt32(bitPattern: $0)) } }
        let base: UInt64 = 0x100_0000_01b3
        var power: UInt64 = 1
        for _ in 1..<k { power = power &* base }
        var result: [UInt64] = []
        result.reserveCapacity(range.count - k + 1)
        var h: UInt64 = 0
        for i in range {
            h = h &* base &+ UInt64(UInt32(bitPattern: s[i])) &+ 1
            if i - range.lowerBound >= k - 1 {
                result.append(h)
                let outgoing = s[i - k + 1]
                h = h &- (UInt64(UInt32(bitPattern: outgoing)) &+ 1) &* power
            }
        }
        return result
    }

    /// The longest chain of pairs (given in increasing first component) whose second component increases.
    private static func longestIncreasing(_ pairs: [(Int, Int)]) -> [(Int, Int)] {
        guard !pairs.isEmpty else { return [] }
        var tails: [Int] = []
        var previous = [Int](repeating: -1, count: pairs.count)
        for (index, pair) in pairs.enumerated() {
            var lo = 0
            var hi = tails.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if pairs[tails[mid]].1 < pair.1 { lo = mid + 1 } else { hi = mid }
            }
            if lo > 0 { previous[index] = tails[lo - 1] }
            if lo == tails.count { tails.append(index) } else { tails[lo] = index }
        }
        var chain: [(Int, Int)] = []
        var index = tails[tails.count - 1]
        while index >= 0 {
            chain.append(pairs[index])
            index = previous[index]
        }
        return chain.reversed()
    }
}
