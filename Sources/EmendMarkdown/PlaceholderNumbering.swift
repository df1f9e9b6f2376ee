import EmendText

/// Protected parts of the written text (merged where they overlap) and the placeholders
/// handed out for them, numbered in the order they are written, skipping the numbers of
/// tokens the text itself holds.
struct PlaceholderNumbering {
    /// Disjoint protected scalar ranges, sorted.
    let ranges: [Range<Int>]
    private(set) var placeholders: [Placeholder] = []
    /// Numbers of tokens written literally in the text, never handed out.
    private let reserved: Set<Int>
    private var lastNumber = 0

    init(_ ranges: [Range<Int>], reserved: Set<Int> = []) {
        self.reserved = reserved
        self.ranges = ranges.mergedRanges()
    }

    /// The protected range that holds scalar `index`, if any.
    func range(containing index: Int) -> Range<Int>? {
        var low = 0, high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].upperBound <= index { low = middle + 1 } else { high = middle }
        }
        return low < ranges.count && ranges[low].contains(index) ? ranges[low] : nil
    }

    /// A new token for the protected bytes `bytes`.
    mutating func token(for bytes: Range<Int>) -> String {
        lastNumber += 1
        while reserved.contains(lastNumber) { lastNumber += 1 }
        let token = PlaceholderToken.make(lastNumber)
        placeholders.append(Placeholder(token: token, range: bytes))
        return token
    }
}
