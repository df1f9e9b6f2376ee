extension Sequence where Element == Range<Int> {
    /// The ranges sorted, without the empty ones, overlapping and touching ones joined: the
    /// disjoint cover of protected text that placeholders and edit checks walk in order.
    public func mergedRanges() -> [Range<Int>] {
        var result: [Range<Int>] = []
        for range in sorted(by: { $0.lowerBound < $1.lowerBound }) where !range.isEmpty {
            if let last = result.last, range.lowerBound <= last.upperBound {
                result[result.count - 1] = last.lowerBound..<Swift.max(last.upperBound, range.upperBound)
            } else {
                result.append(range)
            }
        }
        return result
    }
}
