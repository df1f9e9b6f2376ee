/// Where each line of a document starts (UTF-8 byte offsets). LSP ends a line at "\n",
/// "\r\n" or a lone "\r". Why kept up to date by edits instead of recomputed: a keystroke in
/// a 1 MB document must not rescan the megabyte.
struct LineIndex: Sendable, Equatable {
    private(set) var starts: [Int]

    init(_ bytes: [UInt8]) {
        var starts = [0]
        LineIndex.scan(bytes, from: 0, to: bytes.count, into: &starts)
        self.starts = starts
    }

    var lineCount: Int { starts.count }

    /// Appends the start of every line that begins inside `from..<to` (after a break there).
    private static func scan(_ bytes: [UInt8], from: Int, to: Int, into starts: inout [Int]) {
        var i = from
        while i < to {
            let byte = bytes[i]
            if byte == 0x0A {
                starts.append(i + 1)
            } else if byte == 0x0D && (i + 1 >= bytes.count || bytes[i + 1] != 0x0A) {
                starts.append(i + 1)
            }
            i += 1
        }
    }

    /// The line holding byte `offset` (the last line whose start is at or before it).
    func line(containing offset: Int) -> Int {
        var low = 0
        var high = starts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if starts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        return low
    }

    /// Updates the index after `range` of the old text became `count` new bytes; `bytes` is
    /// the new text.
    mutating func replace(_ range: Range<Int>, newCount: Int, in bytes: [UInt8]) {
        let delta = newCount - range.count
        // From the line before the edit's first byte: an edit right after a "\r" may join it to a "\n".
        let first = line(containing: max(range.lowerBound - 1, 0))
        // Old starts after the edit (and after a "\r" it may have split from its "\n") stay, shifted.
        var low = first, high = starts.count
        while low < high {
            let mid = (low + high) / 2
            if starts[mid] > range.upperBound + 1 { high = mid } else { low = mid + 1 }
        }
        let keep = low
        let rescanEnd = keep < starts.count ? starts[keep] + delta : bytes.count
        var updated = Array(starts[0...first])
        var found: [Int] = []
        LineIndex.scan(bytes, from: starts[first], to: rescanEnd, into: &found)
        updated += found.filter { $0 < rescanEnd || keep == starts.count }
        if keep < starts.count {
            updated.reserveCapacity(updated.count + starts.count - keep)
            for index in keep..<starts.count { updated.append(starts[index] + delta) }
        }
        starts = updated
    }
}
