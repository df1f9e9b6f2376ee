/// Words whose trailing period does not end a sentence (abbreviations, initials, dotted acronyms).
enum SentenceAbbreviations {
    /// How the period after a word behaves.
    enum Kind { case always, unlessCapitalFollows }

    /// Lowercased abbreviations without their final period.
    static let known = [
        "mr", "mrs", "ms", "mx", "dr", "prof", "sr", "jr", "st", "vs", "e.g", "i.e",
        "cf", "approx", "dept", "fig", "figs", "gen", "gov", "lt", "col", "capt", "sgt", "rev",
        "hon", "mt", "ave", "esp", "incl", "resp", "viz", "al", "ca", "vol", "pp", "eq", "ref",
        "z.b", "d.h", "bzw", "usw", "u.a", "mme", "mlle",
    ]

    /// Abbreviations that may also close a sentence: they end one when a capital letter follows.
    static let sentenceFinal = ["etc"]

    private static let knownKeys = Set(known.map { key(Array($0.utf8)[...]) })
    private static let sentenceFinalKeys = Set(sentenceFinal.map { key(Array($0.utf8)[...]) })

    /// Classifies the word `bytes[word]` (the text just before a period, without it); `nil` for ordinary words.
    static func kind(of bytes: [UInt8], _ word: Range<Int>) -> Kind? {
        guard !word.isEmpty else { return nil }
        let slice = bytes[word]
        guard slice.allSatisfy({ $0 < 0x80 }) else { return kind(of: String(decoding: slice, as: UTF8.self)) }
        if slice.count <= 8 {
            let k = key(slice)
            if sentenceFinalKeys.contains(k) { return .unlessCapitalFollows }
            if knownKeys.contains(k) { return .always }
        }
        if slice.count == 1 { return slice.first! >= 0x41 && slice.first! <= 0x5A ? .always : nil }
        var dotted = slice.count >= 3 && slice.count % 2 == 1
        for (offset, byte) in slice.enumerated() where dotted {
            let isLetter = (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A
            dotted = offset % 2 == 0 ? isLetter : byte == 0x2E
        }
        return dotted ? .always : nil
    }

    /// The general (non-ASCII) case of `kind(of:_:)`.
    private static func kind(of word: String) -> Kind? {
        let lower = word.lowercased()
        if sentenceFinal.contains(lower) { return .unlessCapitalFollows }
        if known.contains(lower) { return .always }
        if word.count == 1, let c = word.first { return c.isUppercase ? .always : nil }
        let parts = word.split(separator: ".", omittingEmptySubsequences: false)
        if parts.count >= 2 && parts.allSatisfy({ $0.count == 1 && $0.first!.isLetter }) { return .always }
        return nil
    }

    /// Up to eight ASCII bytes, lowercased, packed into one integer.
    private static func key(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var k: UInt64 = 0
        for byte in bytes {
            let lower = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
            k = (k << 8) | UInt64(lower)
        }
        return k
    }
}
