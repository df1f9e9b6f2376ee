/// Prefix sums of a sequence of counts with logarithmic updates and searches: where each
/// chunk of a `TextRope` starts, in bytes, UTF-16 units or code points.
struct FenwickTree {
    private var tree: [Int]

    init(_ values: [Int]) {
        tree = [0] + values
        for index in 1..<tree.count {
            let parent = index + (index & -index)
            if parent < tree.count { tree[parent] += tree[index] }
        }
    }

    var count: Int { tree.count - 1 }

    /// Puts `value` after the last one (costs the logarithm of the count: the node of the
    /// new value sums the values its range covers, all of which are already in).
    mutating func append(_ value: Int) {
        let index = tree.count
        let covered = index & -index
        tree.append(value + prefix(index - 1) - prefix(index - covered))
    }

    /// Takes the last value off (no other node covers it).
    mutating func removeLast() {
        precondition(tree.count > 1, "no value to remove")
        tree.removeLast()
    }

    /// The sum of the first `n` values.
    func prefix(_ n: Int) -> Int {
        var sum = 0, index = n
        while index > 0 {
            sum += tree[index]
            index -= index & -index
        }
        return sum
    }

    /// Adds `delta` to value `index` (0-based).
    mutating func add(_ delta: Int, at index: Int) {
        var i = index + 1
        while i < tree.count {
            tree[i] += delta
            i += i & -i
        }
    }

    /// The index of the value in which the running sum passes `target`: the largest `i`
    /// with `prefix(i) <= target`, as (i, prefix(i)). Values must not be negative.
    func search(_ target: Int) -> (index: Int, prefix: Int) {
        var position = 0, sum = 0
        var step = 1
        while step * 2 < tree.count { step *= 2 }
        while step > 0 {
            let next = position + step
            if next < tree.count, sum + tree[next] <= target {
                position = next
                sum += tree[next]
            }
            step /= 2
        }
        return (position, sum)
    }
}
