import EmendText

/// The written part of an attributed text as Unicode scalars, with the byte offset of each,
/// so that the writer can look at neighbours and map byte ranges to scalar indices.
struct SourceText {
    let scalars: [Unicode.Scalar]
    /// Byte offset in the whole text of each scalar, plus the end offset.
    let offsets: [Int]

    init(_ text: AttributedText, range: Range<Int>) {
        var scalars: [Unicode.Scalar] = []
        var offsets: [Int] = []
        var offset = range.lowerBound
        for scalar in text.substring(range).unicodeScalars {
            scalars.append(scalar)
            offsets.append(offset)
            offset += UTF8.width(scalar)
        }
        offsets.append(offset)
        self.scalars = scalars
        self.offsets = offsets
    }

    var count: Int { scalars.count }

    /// The index of the first scalar at or after byte `offset` (clamped to the part).
    func index(ofByte offset: Int) -> Int {
        var low = 0, high = scalars.count
        while low < high {
            let middle = (low + high) / 2
            if offsets[middle] < offset { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Scalar indices of a byte range, clipped to the part.
    func indices(ofBytes range: Range<Int>) -> Range<Int> {
        let lower = index(ofByte: range.lowerBound)
        return lower..<max(lower, index(ofByte: range.upperBound))
    }

    /// The byte range of scalar indices.
    func bytes(of range: Range<Int>) -> Range<Int> { offsets[range.lowerBound]..<offsets[range.upperBound] }

    /// Whether `pattern` occurs at scalar index `index`.
    func matches(_ pattern: [Unicode.Scalar], at index: Int) -> Bool {
        guard index >= 0, index + pattern.count <= scalars.count else { return false }
        return scalars[index..<(index + pattern.count)].elementsEqual(pattern)
    }
}
