/// A changed stretch between two sequences: `a` (indices into the first) became `b` (indices into the second).
struct DiffHunk: Equatable {
    var a: Range<Int>
    var b: Range<Int>
}
