/// Myers' O((N+M)·D) shortest edit script between two id sequences, with a cap on D.
enum MyersDiff {
    /// Changed hunks between `a[aRange]` and `b[bRange]` (absolute indices), or `nil` when the
    /// shortest script needs more than `maxEdits` insertions and deletions or more than `work`
    /// steps; the steps taken are subtracted from `work` either way.
    static func hunks(_ a: [Int32], _ aRange: Range<Int>, _ b: [Int32], _ bRange: Range<Int>,
                      maxEdits: Int, work: inout Int) -> [DiffHunk]? {
        let n = aRange.count
        let m = bRange.count
        let limit = min(maxEdits, n + m)
        var steps = 0
        let allowed = work
        let marks = a.withUnsafeBufferPointer { pa in
            b.withUnsafeBufferPointer { pb in
                script(pa, aRange.lowerBound, n, pb, bRange.lowerBound, m, limit, allowed, &steps)
            }
        }
        work -= steps
        guard let (deleted, inserted) = marks else { return nil }
        return hunks(deleted, inserted, aRange.lowerBound, bRange.lowerBound)
    }

    /// Marks the deleted elements of `a` and inserted elements of `b` of one shortest script.
    private static func script(_ a: UnsafeBufferPointer<Int32>, _ aLo: Int, _ n: Int,
                               _ b: UnsafeBufferPointer<Int32>, _ bLo: Int, _ m: Int,
                               _ limit: Int, _ allowed: Int, _ steps: inout Int) -> ([Bool], [Bool])? {
        let offset = limit + 1
        // v[offset + k]: the furthest x reached on diagonal k; trace keeps v's live part before each round.
        var v = [Int32](repeating: 0, count: 2 * limit + 3)
        var trace: [Int32] = []
        var traceStart: [Int] = []
        var found = -1
        v.withUnsafeMutableBufferPointer { v in
            outer: for d in 0...limit {
                if steps > allowed { return }
                steps += 2 * d + 1
                traceStart.append(trace.count)
                if d > 0 { trace.append(contentsOf: v[(offset - d + 1)...(offset + d - 1)]) }
                for k in stride(from: -d, through: d, by: 2) {
                    var x: Int
                    if k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]) {
                        x = Int(v[offset + k + 1])
                    } else {
                        x = Int(v[offset + k - 1]) + 1
                    }
                    var y = x - k
                    let snakeStart = x
                    while x < n && y < m && a[aLo + x] == b[bLo + y] {
                        x += 1
                        y += 1
                    }
                    steps += x - snakeStart
                    v[offset + k] = Int32(truncatingIfNeeded: x)
                    if x >= n && y >= m {
                        found = d
                        break outer
                    }
                }
            }
        }
        guard found >= 0 else { return nil }
        var deleted = [Bool](repeating: false, count: n)
        var inserted = [Bool](repeating: false, count: m)
        var x = n
        var y = m
        var d = found
        while d > 0 {
            let base = traceStart[d] + d - 1
            let k = x - y
            let down = k == -d || (k != d && trace[base + k - 1] < trace[base + k + 1])
            let previousK = down ? k + 1 : k - 1
            let previousX = Int(trace[base + previousK])
            let previousY = previousX - previousK
            if down { inserted[previousY] = true } else { deleted[previousX] = true }
            x = previousX
            y = previousY
            d -= 1
        }
        return (deleted, inserted)
    }

    /// Groups the marks into maximal hunks.
    private static func hunks(_ deleted: [Bool], _ inserted: [Bool], _ aLo: Int, _ bLo: Int) -> [DiffHunk] {
        var result: [DiffHunk] = []
        var i = 0
        var j = 0
        let n = deleted.count
        let m = inserted.count
        while i < n || j < m {
            if i < n && j < m && !deleted[i] && !inserted[j] {
                i += 1
                j += 1
                continue
            }
            let startI = i
            let startJ = j
            while (i < n && deleted[i]) || (j < m && inserted[j]) {
                while i < n && deleted[i] { i += 1 }
                while j < m && inserted[j] { j += 1 }
            }
            if i == startI && j == startJ {
                // Unreachable for a consistent script; keep the rest as one change rather than loop.
                i = n
                j = m
            }
            result.append(DiffHunk(a: (aLo + startI)..<(aLo + i), b: (bLo + startJ)..<(bLo + j)))
        }
        return result
    }
}
