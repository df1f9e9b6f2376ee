import EmendText

/// Lower-case words that cannot be English because of how they start: `ncurses`, `nginx`,
/// `gzip`, `wget`, `tmux`, `mkdir`, `ffmpeg`, `cmake`. Why: English words begin with a vowel,
/// one consonant or one of a few dozen clusters (`str`, `pl`, `sch`, ...); a word that starts
/// with another cluster is a Unix name or an abbreviation, and its suggestion ("ncurses" →
/// "nurses") is a false alarm. Slips at the start of a real word are kept: swapped letters
/// (`hte` → "the"), a dropped letter (`bcause` → "because") and a doubled letter (`thhe`)
/// are one keystroke from their suggestion.
public enum EnglishOnset {
    /// The clusters English words start with (letters before the first vowel; y is a vowel).
    static let clusters: Set<String> = [
        "bl", "br", "ch", "cl", "cr", "dr", "dw", "fl", "fr", "gh", "gl", "gn", "gr", "gw", "kh", "kl", "kn", "kr",
        "ph", "pl", "pn", "pr", "ps", "pt", "rh", "sc", "sh", "sk", "sl", "sm", "sn", "sp", "sq", "st", "sv", "sw",
        "th", "tr", "ts", "tw", "wh", "wr", "zh", "chr", "chl", "phr", "sch", "scl", "scr", "shr", "sph", "spl",
        "spr", "str", "thr", "schl", "schm", "schn", "schr", "mn", "cz",
    ]

    /// The consonants before the first vowel of `word`.
    static func onset(_ word: String) -> String {
        String(word.prefix { !"aeiouy".contains($0) })
    }

    /// Whether the spelling flag on `word` (lower-case ASCII letters), suggesting
    /// `replacement`, is on a word no English word could be.
    public static func applies(word: String, replacement: String) -> Bool {
        guard word.count >= 3, word.utf8.allSatisfy({ $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }) else { return false }
        let start = onset(word)
        guard start.count >= 2, start.count < word.count, !clusters.contains(start) else { return false }
        return !isSlipFix(word, replacement.lowercased())
    }

    /// Whether `replacement` fixes `word` the way a slip is fixed: one keystroke away, with
    /// two letters swapped, one restored or changed, or a doubled one removed (`hte` → "the",
    /// `bcause` → "because", `thhe` → "the"). Cutting any other letter is how a name becomes a
    /// word (`ncurses` → "nurses", `systemd` → "system"), not how a slip is undone.
    static func isSlipFix(_ word: String, _ replacement: String) -> Bool {
        guard EditDistance.withinOne(word, replacement) else { return false }
        if replacement.count >= word.count { return true }
        let letters = Array(word)
        return zip(letters, letters.dropFirst()).contains(where: { $0 == $1 })
    }
}
