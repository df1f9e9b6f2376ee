import Glibc

/// Names this machine knows that no English dictionary has: its installed packages (dpkg's
/// package lists), the executables on `PATH`, and the library functions of the manual's
/// section 3 (`malloc`) — listed once per process, the first time a flag asks. Why: READMEs name the tools and libraries they use, and each
/// checker takes them for misspellings (`pcre` → "pure", `gunzip` → "unzip", `passwd` →
/// "passed", `malloc` → "mallow", `dbus` → "dubs", `readline` → "redline") or capitalises a
/// command at a sentence start (`gzip` → "Gzip"). A word the system knows as a name is not a
/// spelling error; a word of the American dictionary is never taken for a name (`make`, `less`
/// and `which` are commands too, and "make" at a sentence start still needs its capital).
public struct SystemNames: Sendable {
    private let storage: LazyValue<SortedNames>
    /// English words: never names (asked only about a word that is a name, so seldom read).
    private let lexicon: Lexicon

    /// Lower-case names, English words included (`contains` leaves those out).
    public var names: Set<String> { storage.value.set }

    public init(names: Set<String>, lexicon: Lexicon = .none) {
        storage = LazyValue(SortedNames(names.filter { $0.count >= 3 }))
        self.lexicon = lexicon
    }

    init(loading load: @escaping @Sendable () -> SortedNames, lexicon: Lexicon) {
        storage = LazyValue(load)
        self.lexicon = lexicon
    }

    public static let none = SystemNames(names: [])

    /// This machine's names, listed the first time a flag asks about one (directory listings
    /// only: dpkg's package lists, `PATH`, the manual), kept in the user's cache until one of
    /// those directories changes (`SystemNamesCache`).
    public static let installed = SystemNames(loading: {
        SystemNamesCache(file: SystemNamesCache.standardFile())
            .sortedNames(packageDirectory: "/var/lib/dpkg/info", path: getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin",
                         manualDirectories: ["/usr/share/man/man3"])
    }, lexicon: Lexicon.installed.primary)

    /// Whether `word` (any case) is one of the names and no English word.
    public func contains(_ word: String) -> Bool {
        storage.value.contains(word.lowercased()) && lexicon.knows(word) != true
    }

    /// The names of the packages dpkg has installed (`NAME.list` or `NAME:ARCH.list` in
    /// `packageDirectory`), the executables of the directories of `path` (`:` separated) and
    /// the manual pages in `manualDirectories`.
    public static func listed(packageDirectory: String, path: String, manualDirectories: [String]) -> Set<String> {
        var names: Set<String> = []
        for file in SystemFiles.names(in: packageDirectory) where file.hasSuffix(".list") {
            names.formUnion(packageWords(String(file.dropLast(5).prefix { $0 != ":" })))
        }
        for directory in path.split(separator: ":") where !directory.isEmpty {
            for name in SystemFiles.names(in: String(directory)) where isName(name) {
                if access("\(directory)/\(name)", X_OK) == 0 { names.insert(name) }
            }
        }
        for directory in manualDirectories {
            for file in SystemFiles.names(in: directory) {
                // malloc.3.gz, readline.3readline.gz, passwd.1ssl.gz: the name before the first dot.
                let name = String(file.prefix { $0 != "." })
                if isName(name) { names.insert(name) }
            }
        }
        return names
    }

    /// The words a package's name stands for: the name, each part between `-`, `.` and `+`, each
    /// without its trailing digits (`libpcre2-8-0` → `pcre2`, `pcre`), and a library's name
    /// without `lib` (`libreadline8` → `readline`). Package names are ASCII (dpkg allows
    /// `a-z0-9+-.`), and they are taken apart as bytes: as Characters this took a fifth of a
    /// warm one-line `emend proofread`'s time, the first time a spelling flag asked for a name.
    static func packageWords(_ package: String) -> Set<String> {
        guard package.utf8.allSatisfy({ $0 < 0x80 }) else { return characterPackageWords(package) }
        let lower = package.utf8.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 + 32 : $0 }
        var words: Set<String> = []
        func add(_ form: ArraySlice<UInt8>) {
            var end = form.endIndex
            while end > form.startIndex, form[end - 1] >= UInt8(ascii: "0"), form[end - 1] <= UInt8(ascii: "9") { end -= 1 }
            for word in [form, form[form.startIndex..<end]] where isName(word) {
                words.insert(String(decoding: word, as: UTF8.self))
            }
        }
        let separators: [UInt8] = [UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "+")]
        for part in [lower[...]] + lower.split(whereSeparator: separators.contains) {
            add(part)
            if part.starts(with: "lib".utf8), part.count > 5 { add(part.dropFirst(3)) }
        }
        return words
    }

    /// `packageWords` over Characters: the definition, for a name that is not ASCII.
    static func characterPackageWords(_ package: String) -> Set<String> {
        var words: Set<String> = []
        let lower = package.lowercased()
        for part in [lower] + lower.split(whereSeparator: { "-.+".contains($0) }).map(String.init) {
            var forms = [part]
            if part.hasPrefix("lib"), part.count > 5 { forms.append(String(part.dropFirst(3))) }
            for form in forms {
                words.insert(form)
                let bare = String(form.reversed().drop { $0.isNumber }.reversed())
                words.insert(bare)
            }
        }
        return words.filter(isName)
    }

    /// Lower-case ASCII letters and digits, starting with a letter, at least three long, with
    /// one letter or more after the first: what a word in prose could be.
    static func isName(_ name: String) -> Bool {
        guard name.count >= 3 else { return false }
        return isName(name.utf8)
    }

    /// `isName` of ASCII bytes (each byte a Character; any other byte fails the test).
    static func isName<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
        guard bytes.count >= 3, let first = bytes.first, first >= UInt8(ascii: "a"), first <= UInt8(ascii: "z") else { return false }
        return bytes.allSatisfy { ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z")) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) }
    }
}
