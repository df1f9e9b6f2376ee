/// A small open-addressing map from keys to the single position where they occur (-1 when they repeat).
/// It grows with the number of distinct keys, so that few distinct keys stay in cache.
struct UniqueKeyTable {
    private struct Entry {
        var key: UInt64
        var position: Int
    }

    private static let empty = Int.min
    private var entries: [Entry] = Array(repeating: Entry(key: 0, position: UniqueKeyTable.empty), count: 256)
    private var mask = 255
    private var count = 0

    @inline(__always)
    private func slot(for key: UInt64) -> Int {
        var slot = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
        while true {
            let entry = entries[slot]
            if entry.position == Self.empty || entry.key == key { return slot }
            slot = (slot + 1) & mask
        }
    }

    /// Records that `key` occurs at `position` (`position >= 0`).
    mutating func note(_ key: UInt64, at position: Int) {
        let s = slot(for: key)
        if entries[s].position != Self.empty {
            entries[s].position = -1
            return
        }
        entries[s] = Entry(key: key, position: position)
        count += 1
        if count * 2 > entries.count { grow() }
    }

    /// The only position of `key`, -1 if it occurs more than once, nil if never.
    @inline(__always)
    func position(of key: UInt64) -> Int? {
        let position = entries[slot(for: key)].position
        return position == Self.empty ? nil : position
    }

    private mutating func grow() {
        let old = entries
        entries = Array(repeating: Entry(key: 0, position: Self.empty), count: old.count * 2)
        mask = entries.count - 1
        for entry in old where entry.position != Self.empty { entries[slot(for: entry.key)] = entry }
    }
}
