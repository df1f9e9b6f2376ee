/// Aligns two id sequences: trims common ends, splits on unique anchors, and runs a bounded Myers
/// diff on what is left; a piece that stays too costly becomes a single hunk.
enum SequenceDiff {
    /// Window sizes tried for anchors: single ids first, then runs (for text with few unique words).
    static let anchorSizes = [1, 8, 32]

    /// Myers steps one call may take at most.
    static let stepsPerCall = 4_000_000
    /// Pieces this small (total length) always get an exact Myers diff, whatever the budget says.
    static let alwaysExact = 64

    /// Sorted, non-adjacent changed hunks between `a` and `b`. With `anchorsFirst`, unique anchors
    /// are tried before Myers (good for lines and sentences); otherwise Myers goes first (tokens).
    /// `budget` is the number of Myers steps left for the whole alignment; it is used up here.
    static func hunks(_ a: [Int32], _ b: [Int32], anchorsFirst: Bool, budget: inout Int) -> [DiffHunk] {
        var result: [DiffHunk] = []
        var pending: [(Range<Int>, Range<Int>)] = [(0..<a.count, 0..<b.count)]
        while let (ra, rb) = pending.popLast() {
            var aLo = ra.lowerBound, aHi = ra.upperBound
            var bLo = rb.lowerBound, bHi = rb.upperBound
            while aLo < aHi && bLo < bHi && a[aLo] == b[bLo] { aLo += 1; bLo += 1 }
            while aLo < aHi && bLo < bHi && a[aHi - 1] == b[bHi - 1] { aHi -= 1; bHi -= 1 }
            if aLo == aHi || bLo == bHi {
                if aLo < aHi || bLo < bHi { result.append(DiffHunk(a: aLo..<aHi, b: bLo..<bHi)) }
                continue
            }
            let size = (aHi - aLo) + (bHi - bLo)
            let myersFirst = !anchorsFirst || size <= alwaysExact
            if myersFirst, let found = myers(a, aLo..<aHi, b, bLo..<bHi, &budget) {
                result.append(contentsOf: found)
                continue
            }
            if let gaps = anchoredGaps(a, aLo..<aHi, b, bLo..<bHi) {
                pending.append(contentsOf: gaps.reversed())
                continue
            }
            if !myersFirst, let found = myers(a, aLo..<aHi, b, bLo..<bHi, &budget) {
                result.append(contentsOf: found)
                continue
            }
            result.append(DiffHunk(a: aLo..<aHi, b: bLo..<bHi))
        }
        return merged(result)
    }

    /// Myers within the budget, with an edit cap that keeps the trace memory bounded.
    private static func myers(_ a: [Int32], _ ra: Range<Int>, _ b: [Int32], _ rb: Range<Int>,
                              _ budget: inout Int) -> [DiffHunk]? {
        let size = ra.count + rb.count
        var work = size <= alwaysExact ? size * size + size : min(max(budget, 0), stepsPerCall)
        guard work > 0 else { return nil }
        let granted = work
        let found = MyersDiff.hunks(a, ra, b, rb, maxEdits: 1_500, work: &work)
        budget -= granted - work
        return found
    }

    /// The stretches between unique anchors, or `nil` when no anchor size finds any.
    private static func anchoredGaps(_ a: [Int32], _ ra: Range<Int>,
                                     _ b: [Int32], _ rb: Range<Int>) -> [(Range<Int>, Range<Int>)]? {
        for k in anchorSizes {
            let anchors = UniqueAnchors.find(a, ra, b, rb, k: k)
            guard !anchors.isEmpty else { continue }
            var gaps: [(Range<Int>, Range<Int>)] = []
            var i = ra.lowerBound
            var j = rb.lowerBound
            for (ai, bj) in anchors {
                if i < ai || j < bj { gaps.append((i..<ai, j..<bj)) }
                i = ai + k
                j = bj + k
            }
            if i < ra.upperBound || j < rb.upperBound { gaps.append((i..<ra.upperBound, j..<rb.upperBound)) }
            return gaps
        }
        return nil
    }

    /// Joins hunks that touch.
    private static func merged(_ hunks: [DiffHunk]) -> [DiffHunk] {
        var result: [DiffHunk] = []
        result.reserveCapacity(hunks.count)
        for hunk in hunks {
            if let last = result.last, last.a.upperBound == hunk.a.lowerBound, last.b.upperBound == hunk.b.lowerBound {
                result[result.count - 1] = DiffHunk(a: last.a.lowerBound..<hunk.a.upperBound,
                                                    b: last.b.lowerBound..<hunk.b.upperBound)
            } else {
                result.append(hunk)
            }
        }
        return result
    }
}
