/// The one span where two texts differ (common prefix and suffix taken off), on character
/// boundaries: the edit that turns the client's text into the coordinator's.
enum ChangedSpan {
    static func between(_ old: [UInt8], _ new: [UInt8]) -> (range: Range<Int>, text: String)? {
        guard old != new else { return nil }
        var prefix = 0
        while prefix < old.count && prefix < new.count && old[prefix] == new[prefix] { prefix += 1 }
        // Back to a character boundary.
        while prefix > 0 && prefix < old.count && old[prefix] & 0xC0 == 0x80 { prefix -= 1 }
        var suffix = 0
        while suffix < old.count - prefix && suffix < new.count - prefix
                && old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
        while suffix > 0 && old.count - suffix < old.count && old[old.count - suffix] & 0xC0 == 0x80 { suffix -= 1 }
        let range = prefix..<(old.count - suffix)
        return (range, String(decoding: new[prefix..<(new.count - suffix)], as: UTF8.self))
    }
}
