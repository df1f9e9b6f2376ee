import Foundation
import XCTest
import EmendCore
@testable import EmendProofreading

/// The shapes of technical prose that are no spelling errors — names called or indexed like
/// code, the machine's package and command names, British and American spellings — and the
/// word after a leading emoji, which must be checked like any other; each beside a real error
/// that stays flagged.
final class TechnicalNamesTests: XCTestCase {
    private let names = SystemNames(names: ["pcre", "gunzip", "passwd", "malloc", "dbus", "readline", "gzip", "make"],
                                    lexicon: Lexicon(words: ["en_US": ["make", "sure"]]))

    private func verdict(_ word: String, _ replacement: String, in text: String, category: String = "spelling",
                         rule: String = "SpellCheck", systemNames: SystemNames = .none, lexicon: Lexicon = .none) -> ProofreadingFilter.Verdict {
        ProofreadingFilter(text: text, systemNames: systemNames, lexicon: lexicon)
            .verdict(for: ProviderEdit(range: byteRange(of: word, in: text), replacement: replacement, category: category, ruleID: rule))
    }

    func testANameCalledOrIndexedLikeCodeIsNoMisspelling() {
        let text = "Call malloc() or pixbuf[0] first; the recieved value is freed."
        XCTAssertEqual(verdict("malloc", "mallow", in: text), .drop(.codeName("malloc")))
        XCTAssertEqual(verdict("pixbuf", "pickup", in: text), .drop(.codeName("pixbuf")))
        XCTAssertEqual(verdict("recieved", "received", in: text), .keep)
        XCTAssertEqual(verdict("libgcc", "libc", in: "Link libgcc_s and libm."), .drop(.technicalWord(.snakeCase)))
        XCTAssertEqual(verdict("freed", "feed", in: "It is freed."), .keep, "a sentence's full stop is no code")
    }

    func testTheMachinesPackageAndCommandNamesAreNoMisspellings() {
        let text = "Build with pcre, gunzip the archive, run passwd, link dbus and readline; teh rest is done."
        for (word, guess) in [("pcre", "pure"), ("gunzip", "unzip"), ("passwd", "passed"), ("dbus", "dubs"), ("readline", "redline")] {
            XCTAssertEqual(verdict(word, guess, in: text, systemNames: names), .drop(.systemName(word)), word)
            XCTAssertEqual(verdict(word, guess, in: text), .keep, "without the machine's names, \(word) is flagged as before")
        }
        XCTAssertEqual(verdict("teh", "the", in: text, systemNames: names), .keep)
    }

    func testALowerCaseCommandAtASentenceStartKeepsItsCase() {
        let text = "gzip compresses files. make sure it works."
        XCTAssertEqual(verdict("gzip", "Gzip", in: text, category: "grammar", rule: "UPPERCASE_SENTENCE_START", systemNames: names),
                       .drop(.systemName("gzip")))
        let first = byteRange(of: "gzip", in: text).lowerBound
        let capital = ProviderEdit(range: first..<(first + 1), replacement: "G", category: "grammar", ruleID: "SentenceCapitalization")
        XCTAssertEqual(ProofreadingFilter(text: text, systemNames: names).verdict(for: capital), .drop(.systemName("gzip")),
                       "a capital alone is the same advice")
        // "make" is an English word as well as a command: the sentence still needs its capital.
        XCTAssertEqual(verdict("make", "Make", in: text, category: "grammar", rule: "UPPERCASE_SENTENCE_START", systemNames: names), .keep)
        XCTAssertFalse(names.contains("make"))
    }

    func testTheNamesAreReadFromDpkgThePathAndTheManual() throws {
        let root = NSTemporaryDirectory() + "emend-system-names-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: root) }
        for directory in ["info", "bin", "man3"] {
            try FileManager.default.createDirectory(atPath: "\(root)/\(directory)", withIntermediateDirectories: true)
        }
        for package in ["libpcre2-8-0:amd64.list", "libreadline8:amd64.list", "dbus-daemon.list", "less.list", "less.md5sums"] {
            _ = FileManager.default.createFile(atPath: "\(root)/info/\(package)", contents: Data())
        }
        _ = FileManager.default.createFile(atPath: root + "/bin/gunzip", contents: Data("#!/bin/sh\n".utf8), attributes: [.posixPermissions: 0o755])
        _ = FileManager.default.createFile(atPath: root + "/bin/notes", contents: Data(), attributes: [.posixPermissions: 0o644])
        _ = FileManager.default.createFile(atPath: root + "/man3/malloc.3.gz", contents: Data())
        let listed = SystemNames.listed(packageDirectory: root + "/info", path: root + "/bin", manualDirectories: [root + "/man3"])
        let read = SystemNames(names: listed, lexicon: Lexicon(words: ["en_US": ["less", "daemon"]]))
        for name in ["pcre", "pcre2", "readline", "dbus", "gunzip", "malloc"] { XCTAssertTrue(read.contains(name), name) }
        XCTAssertFalse(read.contains("less"), "an English word is no name")
        XCTAssertFalse(read.contains("daemon"))
        XCTAssertFalse(read.contains("notes"), "not executable")
        XCTAssertFalse(listed.contains("amd64"), "the architecture is no name")
    }

    /// The byte-wise package words are the Character-wise definition's, for every package of
    /// this machine and some names made to test the edges.
    func testPackageWordsAreTheDefinitionsForEveryInstalledPackage() throws {
        var packages = ["libpcre2-8-0", "libreadline8", "LibFoo12", "lib", "libab", "libabc1", "g++-12", "x11", "a.b.c", "--", "",
                        "python3.11-minimal", "libc6", "zlib1g", "café-2", "lib٣٣abc٣"]
        packages += ((try? FileManager.default.contentsOfDirectory(atPath: "/var/lib/dpkg/info")) ?? [])
            .filter { $0.hasSuffix(".list") }.map { String($0.dropLast(5).prefix { $0 != ":" }) }
        for package in packages {
            XCTAssertEqual(SystemNames.packageWords(package), SystemNames.characterPackageWords(package), package)
        }
    }

    /// The names kept in the cache are the listed ones; a new command on the path, a new
    /// package or a removed one is seen by the next process (its directory's time changed),
    /// and a broken cache file is listed again.
    func testTheCachedNamesFollowTheirDirectories() throws {
        let root = NSTemporaryDirectory() + "emend-system-names-cache-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: root) }
        for directory in ["info", "bin", "man3"] {
            try FileManager.default.createDirectory(atPath: "\(root)/\(directory)", withIntermediateDirectories: true)
        }
        _ = FileManager.default.createFile(atPath: root + "/info/libpcre2-8-0:amd64.list", contents: Data())
        _ = FileManager.default.createFile(atPath: root + "/bin/gunzip", contents: Data(), attributes: [.posixPermissions: 0o755])
        _ = FileManager.default.createFile(atPath: root + "/man3/malloc.3.gz", contents: Data())
        // Listings of directories changed in the last second are not kept: these are older.
        sleep(2)
        let cache = SystemNamesCache(file: root + "/cache/emend/system-names")
        func names() -> Set<String> { cache.names(packageDirectory: root + "/info", path: root + "/bin", manualDirectories: [root + "/man3"]) }
        func listed() -> Set<String> { SystemNames.listed(packageDirectory: root + "/info", path: root + "/bin", manualDirectories: [root + "/man3"]) }

        XCTAssertEqual(names(), listed())
        XCTAssertTrue(FileManager.default.fileExists(atPath: root + "/cache/emend/system-names"), "no cache written")
        XCTAssertEqual(names(), listed(), "read back from the cache")
        XCTAssertTrue(names().isSuperset(of: ["pcre", "gunzip", "malloc"]))

        // A new entry changes its directory's time.
        _ = FileManager.default.createFile(atPath: root + "/bin/dbus-send", contents: Data(), attributes: [.posixPermissions: 0o755])
        _ = FileManager.default.createFile(atPath: root + "/bin/zstd", contents: Data(), attributes: [.posixPermissions: 0o755])
        try FileManager.default.removeItem(atPath: root + "/info/libpcre2-8-0:amd64.list")
        _ = FileManager.default.createFile(atPath: root + "/info/libreadline8:amd64.list", contents: Data())
        XCTAssertEqual(names(), listed())
        XCTAssertTrue(names().contains("zstd"), "a new command was not seen")
        XCTAssertTrue(names().contains("readline"), "a new package was not seen")
        XCTAssertFalse(names().contains("pcre"), "a removed package was still a name")
        let recent = try String(contentsOfFile: root + "/cache/emend/system-names", encoding: .utf8)
        XCTAssertTrue(recent.contains("gunzip\n") && !recent.contains("zstd"), "the listing of a directory changed just now was kept")
        sleep(2)
        XCTAssertEqual(names(), listed())
        XCTAssertTrue(try String(contentsOfFile: root + "/cache/emend/system-names", encoding: .utf8).contains("zstd\n"))

        // Another PATH is another list.
        XCTAssertEqual(cache.names(packageDirectory: root + "/info", path: root + "/man3", manualDirectories: []),
                       SystemNames.listed(packageDirectory: root + "/info", path: root + "/man3", manualDirectories: []))
        // A damaged file is not read as names.
        try "emend-system-names 1\ngarbage".write(toFile: root + "/cache/emend/system-names", atomically: false, encoding: .utf8)
        XCTAssertEqual(names(), listed())
    }

    func testThisMachineKnowsItsEssentialCommands() throws {
        try XCTSkipUnless(FileManager.default.fileExists(atPath: "/var/lib/dpkg/status"), "not a Debian system")
        XCTAssertTrue(SystemNames.installed.contains("gzip"))
        XCTAssertTrue(SystemNames.installed.contains("passwd"))
        XCTAssertFalse(SystemNames.installed.contains("recieve"))
    }

    func testABritishSpellingIsNoMisspellingWhenAnotherDictionaryHasIt() {
        let lexicon = Lexicon(words: ["en_US": ["color", "organize", "until"], "en_GB": ["colour", "organise", "until"]])
        let text = "The colours were organised untill noon."
        XCTAssertEqual(verdict("colours", "colors", in: text, lexicon: lexicon), .drop(.spellingVariant("colours")))
        XCTAssertEqual(verdict("organised", "organized", in: text, lexicon: lexicon), .drop(.spellingVariant("organised")))
        XCTAssertEqual(verdict("untill", "until", in: text, lexicon: lexicon), .keep, "a doubled l no dictionary has is a slip")
        XCTAssertEqual(verdict("colours", "colors", in: text), .keep, "no other dictionary to ask: the flag stands")
    }

    func testTheLexiconKnowsInflectedFormsOfItsStems() {
        let lexicon = Lexicon(words: ["en_US": ["copy", "stop", "release"]])
        for word in ["copies", "stopped", "releases", "Release", "released"] { XCTAssertEqual(lexicon.knows(word), true, word) }
        XCTAssertEqual(lexicon.knows("relase"), false)
        XCTAssertNil(Lexicon.none.knows("copy"))
    }

    func testAWordAfterALeadingEmojiIsChecked() {
        XCTAssertEqual(verdict("Relase", "Release", in: "# 🚀 Relase notes"), .keep)
        XCTAssertEqual(verdict("Improvd", "Improved", in: "- ✅ Improvd startup"), .keep)
        XCTAssertEqual(verdict("Improvd", "Improved", in: "- ✅️ Improvd startup"), .keep, "with an emoji presentation selector")
        XCTAssertEqual(verdict("Vulkan", "Vulcan", in: "We ship 🚀 Vulkan support."), .drop(.properName("Vulkan")),
                       "inside a sentence a capital still marks a name")
    }
}
