/// Names kept as one buffer of bytes, sorted by their UTF-8 bytes, and looked up by binary
/// search. Why not a `Set<String>`: the machine's 3,000-odd names (`SystemNamesCache`) are read
/// by every `emend proofread` whose checkers flag a word, and hashing each into a set cost a
/// tenth of a warm one-line proofread's CPU; read as lines of the cache file, they are only
/// split (and sorted, when the file was not written in this order).
struct SortedNames: Sendable {
    /// The names' bytes, one after the other.
    private let bytes: [UInt8]
    /// Each name's bytes in `bytes`, in ascending byte order, without duplicates.
    private let ranges: [Range<Int>]

    /// `names`, in any order.
    init<Names: Sequence<String>>(_ names: Names) {
        var bytes: [UInt8] = []
        var ranges: [Range<Int>] = []
        for name in Set(names) {
            let start = bytes.count
            bytes.append(contentsOf: name.utf8)
            ranges.append(start..<bytes.count)
        }
        self.init(bytes: bytes, ranges: ranges)
    }

    /// The non-empty lines (`\n`-separated) of `lines`, one name each.
    init(lines: ArraySlice<UInt8>) {
        let bytes = Array(lines)
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(bytes.count / 8)
        var start = 0
        bytes.withUnsafeBufferPointer { b in
            for i in 0..<b.count where b[i] == 0x0A {
                if i > start { ranges.append(start..<i) }
                start = i + 1
            }
        }
        if bytes.count > start { ranges.append(start..<bytes.count) }
        self.init(bytes: bytes, ranges: ranges)
    }

    private init(bytes: [UInt8], ranges: [Range<Int>]) {
        self.bytes = bytes
        let ascending = bytes.withUnsafeBufferPointer { b in
            zip(ranges, ranges.dropFirst()).allSatisfy { Self.compare(b, $0, b, $1) < 0 }
        }
        if ascending {
            self.ranges = ranges
        } else {
            let sorted = bytes.withUnsafeBufferPointer { b in ranges.sorted { Self.compare(b, $0, b, $1) < 0 } }
            // Duplicates (a file written by hand) are kept once.
            var unique: [Range<Int>] = []
            unique.reserveCapacity(sorted.count)
            bytes.withUnsafeBufferPointer { b in
                for range in sorted where unique.last.map({ Self.compare(b, $0, b, range) != 0 }) ?? true {
                    unique.append(range)
                }
            }
            self.ranges = unique
        }
    }

    var count: Int { ranges.count }

    /// Whether `name` (its exact bytes) is one of the names.
    func contains(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { key in
            bytes.withUnsafeBufferPointer { b in
                var low = 0, high = ranges.count
                while low < high {
                    let middle = (low + high) / 2
                    let order = Self.compare(b, ranges[middle], key, 0..<key.count)
                    if order == 0 { return true }
                    if order < 0 { low = middle + 1 } else { high = middle }
                }
                return false
            }
        }
    }

    /// Every name, as strings.
    var set: Set<String> {
        Set(ranges.map { String(decoding: bytes[$0], as: UTF8.self) })
    }

    /// The names in ascending byte order, one a line, each line ended by `\n`.
    var lines: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + ranges.count)
        for range in ranges {
            out.append(contentsOf: bytes[range])
            out.append(0x0A)
        }
        return out
    }

    /// The order of `a[x]` and `b[y]` by their bytes: negative, 0 or positive.
    private static func compare(_ a: UnsafeBufferPointer<UInt8>, _ x: Range<Int>,
                                _ b: UnsafeBufferPointer<UInt8>, _ y: Range<Int>) -> Int {
        let common = min(x.count, y.count)
        var i = 0
        while i < common {
            let left = a[x.lowerBound + i], right = b[y.lowerBound + i]
            if left != right { return left < right ? -1 : 1 }
            i += 1
        }
        return x.count - y.count
    }
}
