import EmendCore
import Glibc

/// The user's own words and the rules they silenced, kept as two plain files in
/// `$XDG_CONFIG_HOME/emend/` (default `~/.config/emend/`) so that the CLI, the language
/// server, the Neovim plugin and every proofreading provider share one list, and so that a
/// person can edit them with any editor:
///
/// - `dictionary.txt`: one word a line (UTF-8). A word in lower case also accepts its
///   capitalised and upper-case forms ("libjpeg" accepts "Libjpeg" at a sentence start and
///   "LIBJPEG"); a word with capitals accepts itself and its upper-case form only
///   ("OpenSSL" does not accept "openssl").
/// - `ignored-rules.txt`: one rule id a line (the `rule` of a suggestion, e.g. a
///   provider's `SPELLING` or `LongSentences`).
///
/// In both, blank lines and lines starting with `#` are skipped and surrounding white
/// space is trimmed. A missing file is an empty list. Adding fails with `.invalidArgument`
/// for an entry that cannot be one line of the file, and with `.refused` when the file
/// cannot be written (the C ABI's EMEND_E_REFUSED): different remedies for the caller.
public struct PersonalDictionary: Sendable, Equatable {
    /// The words as written in the file.
    public private(set) var words: Set<String>
    /// Rule ids whose suggestions are not shown.
    public private(set) var ignoredRules: Set<String>
    /// The directory holding the two files; nil when neither `XDG_CONFIG_HOME` nor `HOME`
    /// says where (then nothing can be added).
    public let directory: String?

    public init(words: Set<String> = [], ignoredRules: Set<String> = [], directory: String? = nil) {
        self.words = words
        self.ignoredRules = ignoredRules
        self.directory = directory
    }

    /// Reads both files from `directory` (nil: an empty dictionary that cannot grow).
    /// Unreadable files count as empty: a broken word list must not stop proofreading. (The
    /// standard directory is found by EmendProviders, which knows the configuration's place:
    /// `PersonalDictionary.load(environment:)`.)
    public static func load(directory: String?) -> PersonalDictionary {
        guard let directory else { return PersonalDictionary() }
        return PersonalDictionary(words: Set(entries(in: directory + "/" + wordFileName)),
                                  ignoredRules: Set(entries(in: directory + "/" + ruleFileName)),
                                  directory: directory)
    }

    public static let wordFileName = "dictionary.txt"
    public static let ruleFileName = "ignored-rules.txt"

    /// Whether `word` is one of the user's words (see the type's note on capitals).
    public func contains(_ word: Substring) -> Bool {
        if word.isEmpty { return false }
        if words.contains(String(word)) { return true }
        let lower = word.lowercased()
        if words.contains(lower) {
            // Any of: all lower (already tried), Capitalised, ALL UPPER.
            return word == word.uppercased()[...] || word.dropFirst() == lower.dropFirst()
        }
        // An entry with capitals accepts its upper-case form.
        if word == word.uppercased()[...] {
            return words.contains { $0.uppercased() == word }
        }
        return false
    }

    public func contains(_ word: String) -> Bool { contains(word[...]) }

    /// Whether suggestions of `rule` are not to be shown.
    public func ignores(rule: String) -> Bool { ignoredRules.contains(rule) }

    /// Adds `word` to `dictionary.txt` (creating the directory and the file); adding a word
    /// already there changes nothing. Words with white space or control characters, and
    /// empty ones, are refused: the file holds one word a line.
    public mutating func add(word: String) throws(EmendError) {
        let word = Self.trimmed(word)
        try Self.checkEntry(word, what: "word")
        if words.contains(word) { return }
        try append(word, to: Self.wordFileName)
        words.insert(word)
    }

    /// Adds `rule` to `ignored-rules.txt`.
    public mutating func ignore(rule: String) throws(EmendError) {
        let rule = Self.trimmed(rule)
        try Self.checkEntry(rule, what: "rule id")
        if ignoredRules.contains(rule) { return }
        try append(rule, to: Self.ruleFileName)
        ignoredRules.insert(rule)
    }

    // MARK: - Files

    private func append(_ entry: String, to name: String) throws(EmendError) {
        guard let directory else {
            throw EmendError(.refused, "no configuration directory: set XDG_CONFIG_HOME or HOME")
        }
        try Self.makeDirectories(directory)
        let path = directory + "/" + name
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw EmendError(.refused, "\(path): cannot be written: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        // Start on a line of its own when someone left the file without a final newline.
        var bytes = Array(entry.utf8) + [0x0A]
        if Self.lastByte(of: path).map({ $0 != 0x0A }) == true { bytes.insert(0x0A, at: 0) }
        // One write of a short line with O_APPEND: two processes adding at once each get
        // their whole line.
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count else {
            throw EmendError(.refused, "\(path): cannot be written: \(String(cString: strerror(errno)))")
        }
    }

    private static func lastByte(of path: String) -> UInt8? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        guard lseek(fd, -1, SEEK_END) >= 0 else { return nil }
        var byte: UInt8 = 0
        return read(fd, &byte, 1) == 1 ? byte : nil
    }

    private static func makeDirectories(_ path: String) throws(EmendError) {
        var prefix = ""
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += "/" + part
            if mkdir(prefix, 0o755) != 0 && errno != EEXIST {
                throw EmendError(.refused, "\(prefix): cannot be created: \(String(cString: strerror(errno)))")
            }
        }
    }

    private static func entries(in path: String) -> [String] {
        guard let text = SystemFiles.contents(of: path) else { return [] }
        return text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
            .map { trimmed(String($0)) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }

    private static func trimmed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first...last])
    }

    private static func checkEntry(_ entry: String, what: String) throws(EmendError) {
        if entry.isEmpty { throw EmendError(.invalidArgument, "an empty \(what) cannot be added") }
        if entry.hasPrefix("#") { throw EmendError(.invalidArgument, "a \(what) cannot start with #") }
        if entry.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.properties.generalCategory == .control }) {
            throw EmendError(.invalidArgument, "a \(what) cannot contain white space or control characters: \"\(entry)\"")
        }
    }
}
