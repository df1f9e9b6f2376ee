import EmendProofreading
import EmendProviders
import Glibc
import XCTest

/// The user's word list and ignored rules: the capitalisation rule, adding from two
/// writers, and bad entries refused without touching the file.
final class PersonalDictionaryTests: XCTestCase {
    private func temporaryDirectory() -> String {
        var template = Array("/tmp/emend-dictionary-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        XCTAssertNotNil(made)
        return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private func contents(_ path: String) -> String {
        guard let file = fopen(path, "r") else { return "" }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        while true {
            let c = fgetc(file)
            if c == EOF { break }
            bytes.append(UInt8(c))
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    func testLowerCaseEntryAcceptsCapitalisedAndUpperCaseForms() {
        let dictionary = PersonalDictionary(words: ["libjpeg", "OpenSSL"])
        XCTAssertTrue(dictionary.contains("libjpeg"))
        XCTAssertTrue(dictionary.contains("Libjpeg"))
        XCTAssertTrue(dictionary.contains("LIBJPEG"))
        XCTAssertFalse(dictionary.contains("LibJpeg"))
        XCTAssertTrue(dictionary.contains("OpenSSL"))
        XCTAssertTrue(dictionary.contains("OPENSSL"))
        XCTAssertFalse(dictionary.contains("openssl"))
        XCTAssertFalse(dictionary.contains("Openssl"))
        XCTAssertFalse(dictionary.contains(""))
        XCTAssertFalse(dictionary.contains("libpng"))
    }

    func testStandardDirectoryFollowsXDG() {
        XCTAssertEqual(PersonalDictionary.standardDirectory(environment: ["XDG_CONFIG_HOME": "/x/cfg", "HOME": "/home/a"]), "/x/cfg/emend")
        XCTAssertEqual(PersonalDictionary.standardDirectory(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/home/a"]), "/home/a/.config/emend")
        XCTAssertNil(PersonalDictionary.standardDirectory(environment: [:]))
    }

    func testAddCreatesTheDirectoryAndSecondLoaderSeesBothWriters() throws {
        let root = temporaryDirectory()
        let directory = root + "/nested/emend"
        var first = PersonalDictionary.load(directory: directory)
        var second = PersonalDictionary.load(directory: directory)
        try first.add(word: "  pixbuf ")
        try second.add(word: "CMake")
        try first.add(word: "pixbuf")       // already there: no second line
        try second.ignore(rule: "LongSentences")
        let reloaded = PersonalDictionary.load(directory: directory)
        XCTAssertEqual(reloaded.words, ["pixbuf", "CMake"])
        XCTAssertEqual(reloaded.ignoredRules, ["LongSentences"])
        XCTAssertTrue(reloaded.ignores(rule: "LongSentences"))
        XCTAssertEqual(contents(directory + "/dictionary.txt"), "pixbuf\nCMake\n")
    }

    func testCommentsBlankLinesAndMissingFinalNewline() throws {
        let directory = temporaryDirectory()
        let path = directory + "/dictionary.txt"
        let file = fopen(path, "w")!
        fputs("# my words\n\n  ATK  \r\nv6b", file)
        fclose(file)
        var dictionary = PersonalDictionary.load(directory: directory)
        XCTAssertEqual(dictionary.words, ["ATK", "v6b"])
        try dictionary.add(word: "gettext")
        XCTAssertEqual(contents(path), "# my words\n\n  ATK  \r\nv6b\ngettext\n")
        XCTAssertEqual(PersonalDictionary.load(directory: directory).words, ["ATK", "v6b", "gettext"])
    }

    func testBadEntriesAreRefusedAndLeaveTheFileAlone() throws {
        let directory = temporaryDirectory()
        var dictionary = PersonalDictionary.load(directory: directory)
        try dictionary.add(word: "ok")
        for bad in ["", "   ", "two words", "tab\there", "#comment", "bell\u{07}"] {
            XCTAssertThrowsError(try dictionary.add(word: bad), bad)
        }
        XCTAssertThrowsError(try dictionary.ignore(rule: "has space"))
        XCTAssertEqual(contents(directory + "/dictionary.txt"), "ok\n")
        var nowhere = PersonalDictionary.load(directory: nil)
        XCTAssertThrowsError(try nowhere.add(word: "word"))
    }
}
