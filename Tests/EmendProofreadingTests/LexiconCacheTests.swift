import Glibc
import XCTest
@testable import EmendProofreading

/// The installed dictionaries' stems are written once to a file of hash tables and mapped by
/// every process (`LexiconCache`, `WordTable`): the mapped lexicon must answer exactly as the
/// stems read into the heap do, notice a changed dictionary, and survive a damaged file.
final class LexiconCacheTests: XCTestCase {
    private var directory = ""
    private var dictionaries = ""
    private var cacheFile = ""

    override func setUpWithError() throws {
        var template = Array("/tmp/emend-lexicon-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw XCTSkip("no temporary directory") }
        directory = String(cString: made)
        dictionaries = directory + "/hunspell"
        mkdir(dictionaries, 0o755)
        cacheFile = directory + "/cache/emend/lexicon"
        write("en_US.dic", "5\nCopy/S\nstop/SG\nrelease\ncafé/S\nNaïve\n")
        write("en_US.aff", "SET UTF-8\n")
        write("en_GB.dic", "2\ncolour/S\norganise\n")
        write("en_GB.aff", "SET UTF-8\n")
        write("en_ZA.dic", "1\nrobot\n")  // no .aff: not a dictionary
        write("de_DE.dic", "1\nHaus\n")
        write("de_DE.aff", "SET UTF-8\n")
        age()
    }

    override func tearDown() {
        _ = try? FileManagerLess.remove(directory)
    }

    private func write(_ name: String, _ text: String) {
        let fd = open(dictionaries + "/" + name, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        _ = text.utf8CString.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count - 1) }
        close(fd)
    }

    /// Files changed within the last second are not cached (they may change again unseen):
    /// the fixtures are dated back, each time to another second.
    private var ageSeconds = 1_000_000
    private func age() {
        ageSeconds += 1
        var times = [timespec(tv_sec: ageSeconds, tv_nsec: 0), timespec(tv_sec: ageSeconds, tv_nsec: 0)]
        for name in SystemFiles.names(in: dictionaries) { utimensat(AT_FDCWD, dictionaries + "/" + name, &times, 0) }
        utimensat(AT_FDCWD, dictionaries, &times, 0)
    }

    /// Waits for the file the first process writes in the background (at most a minute).
    private func waitForFile(_ expected: [UInt8]? = nil) {
        for _ in 0..<6000 {
            if let bytes = SystemFiles.bytes(of: cacheFile), expected.map({ $0 == bytes }) ?? true { return }
            usleep(10_000)
        }
    }

    private func mapped() -> Lexicon {
        let stems = LexiconCache(file: cacheFile).stems(directories: [dictionaries], prefix: "en")
        return Lexicon(loading: { stems })
    }

    private let questions = ["copy", "Copy", "copies", "COPIES", "stopped", "stop", "releases", "released", "release",
                             "café", "cafe\u{301}", "cafés", "naïve", "Naïve", "colour", "colours", "organise", "organize",
                             "robot", "haus", "relase", "", "x", "cafe", "naive"]

    func testAMappedLexiconAnswersAsTheDictionariesReadIntoTheHeap() {
        let heap = Lexicon.read(directories: [dictionaries], prefix: "en")
        let first = mapped()
        XCTAssertEqual(first.stems.mapValues(\.isMapped), ["en_US": false, "en_GB": false], "the first process reads the dictionaries")
        waitForFile()
        let second = mapped()
        XCTAssertEqual(second.stems.mapValues(\.isMapped), ["en_US": true, "en_GB": true])
        XCTAssertEqual(second.dictionaryNames, heap.dictionaryNames)
        for word in questions {
            XCTAssertEqual(second.knows(word), heap.knows(word), word)
            XCTAssertEqual(second.knows(word, in: "en_GB"), heap.knows(word, in: "en_GB"), word)
            XCTAssertEqual(second.primary.knows(word), heap.primary.knows(word), word)
        }
        XCTAssertEqual(second.knows("cafe\u{301}s"), true, "a decomposed é is the same letter, as in a Set<String>")
        XCTAssertEqual(second.knows("colours"), true)
        XCTAssertEqual(second.knows("relase"), false)
        XCTAssertNil(second.knows("colour", in: "en_AU"))
    }

    func testAChangedDictionaryIsReadAgain() {
        XCTAssertEqual(mapped().knows("frobnicate"), false)
        waitForFile()
        let old = SystemFiles.bytes(of: cacheFile)
        write("en_GB.dic", "3\ncolour/S\norganise\nfrobnicate\n")
        age()
        XCTAssertEqual(mapped().knows("frobnicate"), true, "a stale file was used")
        for _ in 0..<6000 where SystemFiles.bytes(of: cacheFile) == old { usleep(10_000) }
        let after = mapped()
        XCTAssertEqual(after.knows("frobnicate"), true)
        XCTAssertEqual(after.stems["en_GB"]?.isMapped, true)
        // A new dictionary in the directory counts as well.
        write("en_AU.dic", "1\nbarbie\n")
        write("en_AU.aff", "SET UTF-8\n")
        age()
        XCTAssertEqual(mapped().knows("barbie", in: "en_AU"), true)
    }

    func testAJustChangedDictionaryIsReadButNotCached() {
        write("en_US.dic", "1\nfresh\n")   // now: within the last second
        let lexicon = mapped()
        XCTAssertEqual(lexicon.knows("fresh"), true)
        XCTAssertEqual(lexicon.stems["en_US"]?.isMapped, false)
        usleep(200_000)
        XCTAssertNotEqual(access(cacheFile, F_OK), 0, "a file was written of a dictionary that may change again unseen")
    }

    func testADamagedFileIsNeverReadPastItsEndAndIsWrittenAgain() throws {
        _ = mapped()
        waitForFile()
        let whole = try XCTUnwrap(SystemFiles.bytes(of: cacheFile))
        for damaged in [Array(whole.prefix(whole.count / 2)), Array(whole.prefix(whole.count - 4)), Array(whole.prefix(10)), [],
                        whole + [1, 2, 3, 4], [UInt8](repeating: 0xFF, count: whole.count)] {
            SystemNamesCache.write(bytes: damaged, to: cacheFile)
            let lexicon = mapped()
            XCTAssertEqual(lexicon.knows("copies"), true)
            XCTAssertEqual(lexicon.knows("colours"), true)
            XCTAssertEqual(lexicon.knows("relase"), false)
            waitForFile(whole)
            XCTAssertEqual(SystemFiles.bytes(of: cacheFile), whole, "the damaged file was not written again")
            XCTAssertEqual(mapped().stems["en_US"]?.isMapped, true)
        }
        // Tables whose sizes hold but whose slots point anywhere: wrong answers at worst, no crash.
        let marker = Array("\n--\n".utf8)
        let headerEnd = try XCTUnwrap((0..<whole.count).first { Array(whole[$0...].prefix(4)) == marker }) + 4
        var scrambled = whole
        for index in stride(from: (headerEnd + 3) / 4 * 4 + 8, to: whole.count, by: 3) { scrambled[index] = 0xFF }
        SystemNamesCache.write(bytes: scrambled, to: cacheFile)
        let lexicon = mapped()
        for word in questions { _ = lexicon.knows(word) }
    }

    func testATableHasEveryWordItWasMadeOfAndNoOther() throws {
        var generator = SystemRandomNumberGenerator()
        let letters = Array("abcdefghijklmnopqrstuvwxyz'éøß-")
        var words: Set<String> = []
        while words.count < 5000 {
            words.insert(String((0..<Int.random(in: 1...12, using: &generator)).map { _ in letters.randomElement(using: &generator)! }))
        }
        var bytes: [UInt8] = []
        WordTable.write(words, to: &bytes)
        XCTAssertEqual(bytes.count % 4, 0)
        try bytes.withUnsafeBytes { raw in
            let (table, size) = try XCTUnwrap(WordTable.read(raw))
            XCTAssertEqual(size, bytes.count)
            for word in words { XCTAssertTrue(table.contains(word), word) }
            for _ in 0..<5000 {
                let other = String((0..<Int.random(in: 1...12, using: &generator)).map { _ in letters.randomElement(using: &generator)! })
                XCTAssertEqual(table.contains(other), words.contains(other), other)
            }
            XCTAssertNil(WordTable.read(UnsafeRawBufferPointer(rebasing: raw[0..<(raw.count - 4)])), "a cut table was read")
        }
    }
}

/// Removes a directory tree without Foundation's FileManager (nftw is not in the Glibc module).
private enum FileManagerLess {
    static func remove(_ path: String) throws {
        for name in SystemFiles.names(in: path) {
            let child = path + "/" + name
            var info = stat()
            if lstat(child, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR { try remove(child) } else { unlink(child) }
        }
        rmdir(path)
    }
}
