/// Whether an edit only moves the boundaries between words: joins two words into one
/// (`libgcc_s and` → `libgcc_sand`, `some times` → `sometimes`) or cuts one in two (`plugin`
/// → `plug in`, `alot` → `a lot`). Why its own test: such an edit changes what is named, not
/// how it is spelt, so `--write` applies it only when the word is in no dictionary
/// (`WriteSafety`), and never next to a word shaped like code (`EditHazard`).
public enum WordBoundaries {
    /// True when `original` and `replacement` hold the same characters apart from spaces
    /// (letter case aside) and a different number of words.
    public static func joinsOrSplits(_ original: String, _ replacement: String) -> Bool {
        let a = words(original), b = words(replacement)
        guard a.count != b.count, !a.isEmpty, !b.isEmpty else { return false }
        return a.joined().lowercased() == b.joined().lowercased()
    }

    static func words(_ text: String) -> [Substring] {
        text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\u{A0}" })
    }
}
