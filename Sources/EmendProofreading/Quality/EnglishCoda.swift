/// Lower-case words that cannot be English because of how they end: `systemd`, `glibc`,
/// `fluentd`, `libxcb`. Why: English words end with a vowel, one consonant, a doubled one or
/// one of a few dozen clusters (`nd`, `ght`, `rst`, `mpt`, ... and any of them with a plural
/// `s`); Unix names end otherwise (a daemon's `d`, a library's `c`), and the suggestion that
/// cuts the extra letter ("systemd" → "system") is a false alarm. Slips at the end of a real
/// word are kept when the suggestion fixes them the way slips are fixed (`strenght` →
/// "strength": two letters swapped; `doesnt` → "doesn't": one restored) — see
/// `EnglishOnset.isSlipFix`. Words of four letters or fewer are left alone: in "adn" one
/// checker's poor guess ("ad") would otherwise drop its vote for a real slip of "and".
public enum EnglishCoda {
    /// The clusters English words end with (letters after the last vowel; y is a vowel, and
    /// w after a vowel counts with it: "crowd", "hawk").
    static let clusters: Set<String> = [
        "ch", "ck", "ct", "ft", "gh", "ght", "gn", "gm", "ld", "lf", "lk", "lm", "ln", "lp", "lt", "lth", "lch", "lst",
        "mb", "mn", "mp", "mph", "mpt", "nc", "nch", "nct", "nd", "ng", "ngth", "ngst", "nk", "nt", "nth", "nx", "ph",
        "pt", "pth", "rb", "rc", "rch", "rd", "rf", "rg", "rk", "rl", "rld", "rm", "rn", "rp", "rsh", "rst", "rt", "rth",
        "rtz", "sc", "sch", "sh", "sk", "sm", "sp", "st", "tch", "th", "tz", "wd", "wk", "wl", "wn", "wth", "xt", "xth",
        "dth", "fth", "lfth", "cht", "ts", "ds",
    ]

    /// The consonants after the last vowel of `word`.
    static func coda(_ word: String) -> String {
        // Bytes: a vowel is ASCII, so the letters after the last one start right after it.
        let bytes = Array(word.utf8)
        var start = bytes.count
        while start > 0, !"aeiouy".utf8.contains(bytes[start - 1]) { start -= 1 }
        return String(decoding: bytes[start...], as: UTF8.self)
    }

    /// Whether `coda` is one an English word may end with.
    static func isEnglish(_ coda: String) -> Bool {
        if coda.count <= 1 || clusters.contains(coda) { return true }
        let letters = Array(coda)
        if letters.count == 2, letters[0] == letters[1] { return true }   // ll, ss, ff, ...
        if coda.hasSuffix("s") { return isEnglish(String(coda.dropLast())) }   // a plural, a verb's s
        return false
    }

    /// Whether the spelling flag on `word` (lower-case ASCII letters), suggesting
    /// `replacement`, is on a word no English word could be.
    public static func applies(word: String, replacement: String) -> Bool {
        // Shorter words say too little: "adn" is a slip of "and" whatever a checker cuts.
        guard word.count >= 5, word.utf8.allSatisfy({ $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }) else { return false }
        let end = coda(word)
        guard end.count >= 2, end.count < word.count, !isEnglish(end) else { return false }
        return !EnglishOnset.isSlipFix(word, replacement.lowercased())
    }
}
