/// How a byte range moves when another range of the same text is replaced.
public enum RangeShift {
    /// `r` after `edited` was replaced by text `delta` bytes longer (negative: shorter).
    /// A range before the edit stays; one after it moves by `delta`; one containing it
    /// stretches or shrinks; one partly overlapping keeps what survives. An insertion at a
    /// range's edge does not grow it. nil when nothing of `r` survives.
    public static func map(_ r: Range<Int>, through edited: Range<Int>, delta: Int) -> Range<Int>? {
        let a = edited.lowerBound, b = edited.upperBound
        if r.upperBound <= a { return r }
        if r.lowerBound >= b { return (r.lowerBound + delta)..<(r.upperBound + delta) }
        if r.isEmpty { return nil }
        if r.lowerBound <= a && r.upperBound >= b { return r.lowerBound..<(r.upperBound + delta) }
        let lower = r.lowerBound < a ? r.lowerBound : b + delta
        let upper = r.upperBound > b ? r.upperBound + delta : a
        return lower < upper ? lower..<upper : nil
    }
}
