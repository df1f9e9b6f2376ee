import EmendCore
import Glibc

/// The words of the installed English Hunspell dictionaries (every `en_*.dic` in the usual
/// directories: `en_US`, `en_GB`, ...), lower-cased, as their stems are listed — read once per
/// user and mapped by each process (`LexiconCache`). Why: two rules need to know whether a word is English at all, whoever flagged it —
/// a command's name (`gzip`, `pcre`) is a name only when no English dictionary has it, and a
/// spelling flag on a word that no dictionary has needs no majority of the spellers
/// (`ProofreadingCombiner`). The stems are the dictionary's own lines, without the affix rules
/// that inflect them, so `knows` also tries the word without a common English ending.
public struct Lexicon: Sendable {
    /// One dictionary's lower-cased stems: in the heap, or in a mapped file shared by every
    /// process of the user.
    enum Stems: Sendable {
        case set(Set<String>)
        case table(WordTable)

        func contains(_ word: String) -> Bool {
            switch self {
            case .set(let words): words.contains(word)
            case .table(let table): table.contains(word)
            }
        }

        /// Whether the stems are read through a mapped file.
        var isMapped: Bool {
            if case .table = self { return true }
            return false
        }
    }

    private let storage: LazyValue<[String: Stems]>

    /// Stems per dictionary name (`en_US`) (read now, for a lazy lexicon).
    var stems: [String: Stems] { storage.value }

    public init(words: [String: Set<String>]) {
        storage = LazyValue(words.mapValues { .set($0) })
    }

    /// A lexicon read by `load` the first time it is asked.
    init(loading load: @escaping @Sendable () -> [String: Stems]) {
        storage = LazyValue(load)
    }

    /// No dictionary: every question is answered "unknown" (`knows` is nil).
    public static let none = Lexicon(words: [:])

    /// The English dictionaries of this machine, read the first time a question needs them
    /// (some tenths of a second in a debug build, so not for a request that asks nothing),
    /// through the user's cache file (`LexiconCache`).
    public static let installed = Lexicon(loading: {
        LexiconCache(file: LexiconCache.standardFile()).stems(directories: standardDirectories, prefix: "en")
    })

    /// Where the English dictionaries are looked for, first found first.
    static let standardDirectories = ["/usr/share/hunspell", "/usr/share/myspell/dicts"]

    public var isEmpty: Bool { stems.isEmpty }

    /// The names of the dictionaries (`en_US`), sorted.
    public var dictionaryNames: [String] { stems.keys.sorted() }

    /// Whether the words are read already (asking for them costs nothing more).
    public var isRead: Bool { storage.isMade }

    /// Whether any dictionary has `word` (case aside, perhaps with a common ending), or nil when
    /// there is no dictionary to ask.
    public func knows(_ word: String) -> Bool? {
        guard !isEmpty else { return nil }
        return stems.values.contains { Self.has(word, in: $0) }
    }

    /// The American dictionary alone when it is installed, else all: what "an English word"
    /// means to `SystemNames`. Why not all: en_GB lists `gzip`, a command and no word.
    public var primary: Lexicon {
        let all = self
        return Lexicon(loading: { all.stems["en_US"].map { ["en_US": $0] } ?? all.stems })
    }

    /// Whether the dictionary `name` (`en_GB`) has `word`, or nil when it is not installed.
    public func knows(_ word: String, in name: String) -> Bool? {
        stems[name].map { Self.has(word, in: $0) }
    }

    static let endings = ["'s", "s", "es", "ed", "d", "ing", "ly", "er", "ers", "est", "ies", "ied", "ness"]

    private static func has(_ word: String, in stems: Stems) -> Bool {
        let lower = word.lowercased()
        if stems.contains(lower) { return true }
        for ending in endings where lower.count > ending.count + 2 && lower.hasSuffix(ending) {
            let stem = String(lower.dropLast(ending.count))
            if stems.contains(stem) || stems.contains(stem + "e") { return true }
            if ending.hasPrefix("i"), stems.contains(stem + "y") { return true }                          // copies → copy
            if let last = stem.last, stem.count > 2, stem.dropLast().last == last, stems.contains(String(stem.dropLast())) {
                return true                                                                                  // stopped → stop
            }
        }
        return false
    }

    /// The stems of every `PREFIX*.dic` (with its `.aff`) in `directories`; the first directory
    /// that has a name wins, as Hunspell's search does. Read as bytes (a line's stem ends at
    /// `/`, a tab or a space; the first line is the count): some 100,000 stems in a few tens of
    /// ms in a release build.
    public static func read(directories: [String], prefix: String) -> Lexicon {
        Lexicon(words: readStems(directories: directories, prefix: prefix))
    }

    /// The stems `read` reads, by dictionary name.
    static func readStems(directories: [String], prefix: String) -> [String: Set<String>] {
        var words: [String: Set<String>] = [:]
        for directory in directories {
            for name in dictionaryNames(in: directory) where name.hasPrefix(prefix) && words[name] == nil {
                guard let bytes = SystemFiles.bytes(of: "\(directory)/\(name).dic") else { continue }
                var stems: Set<String> = []
                stems.reserveCapacity(bytes.count / 10)
                bytes.withUnsafeBufferPointer { b in
                    var i = 0
                    while i < b.count, b[i] != 0x0A { i += 1 }   // the count
                    while i < b.count {
                        i += 1
                        let start = i
                        while i < b.count, b[i] != 0x0A, b[i] != UInt8(ascii: "/"), b[i] != 0x09, b[i] != 0x20 { i += 1 }
                        if i > start {
                            stems.insert(String(decoding: UnsafeBufferPointer(rebasing: b[start..<i]), as: UTF8.self).lowercased())
                        }
                        while i < b.count, b[i] != 0x0A { i += 1 }
                    }
                }
                words[name] = stems
            }
        }
        return words
    }

    /// Names of the `.dic` files that have an `.aff` beside them.
    static func dictionaryNames(in directory: String) -> [String] {
        let files = Set(SystemFiles.names(in: directory))
        return files.filter { $0.hasSuffix(".dic") }.map { String($0.dropLast(4)) }.filter { files.contains($0 + ".aff") }.sorted()
    }
}

/// A value made the first time it is asked for, once, under a lock.
final class LazyValue<Value: Sendable>: @unchecked Sendable {
    private let lock = Lock()
    private var made: Value?
    private let make: @Sendable () -> Value

    init(_ value: Value) {
        made = value
        make = { value }
    }

    init(_ make: @escaping @Sendable () -> Value) {
        self.make = make
    }

    var isMade: Bool { lock.withLock { made != nil } }

    var value: Value {
        lock.withLock {
            if let made { return made }
            let value = make()
            made = value
            return value
        }
    }
}

/// Reading the machine's files without Foundation: whole small files and directory listings.
enum SystemFiles {
    /// The bytes of `path` as UTF-8 text (invalid bytes repaired), or nil.
    static func contents(of path: String) -> String? {
        bytes(of: path).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The bytes of `path`, or nil.
    static func bytes(of path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count > 0 { bytes += buffer[0..<count]; continue }
            if count == 0 { break }
            if errno == EINTR { continue }
            return nil
        }
        return bytes
    }

    /// The names in `directory` (not `.` and `..`), or none when it cannot be read.
    static func names(in directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeMutablePointer(to: &entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: entry.pointee.d_name)) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
