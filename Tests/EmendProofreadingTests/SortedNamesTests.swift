import XCTest
@testable import EmendProofreading

/// The machine's names as sorted lines (`SortedNames`): found by binary search whatever the
/// order they were written in, and the same names a set of them holds.
final class SortedNamesTests: XCTestCase {
    func testEveryNameIsFoundAndNoOther() {
        let names = ["zstd", "gunzip", "pcre", "pcre2", "dbus", "malloc", "readline", "ångström", "gzip"]
        let sorted = SortedNames(names)
        XCTAssertEqual(sorted.count, names.count)
        for name in names { XCTAssertTrue(sorted.contains(name), name) }
        for other in ["", "pcr", "pcre3", "zst", "zstdx", "a", "zzzz", "gzi", "ångströms", "Gzip"] {
            XCTAssertFalse(sorted.contains(other), other)
        }
        XCTAssertEqual(sorted.set, Set(names))
    }

    func testLinesInAnyOrderWithDuplicatesAndEmptyLinesAreTheSameNames() {
        let written = Array("readline\n\ngzip\nabc\ngzip\nzstd\n".utf8)[...]
        let read = SortedNames(lines: written)
        XCTAssertEqual(read.set, ["readline", "gzip", "abc", "zstd"])
        XCTAssertEqual(read.count, 4, "a duplicate line is one name")
        for name in ["readline", "gzip", "abc", "zstd"] { XCTAssertTrue(read.contains(name), name) }
        XCTAssertFalse(read.contains(""))
        XCTAssertEqual(String(decoding: read.lines, as: UTF8.self), "abc\ngzip\nreadline\nzstd\n", "written back in byte order")
        // Read back from its own lines (as the cache file is), it needs no sorting and is the same.
        let again = SortedNames(lines: read.lines[...])
        XCTAssertEqual(again.set, read.set)
        XCTAssertEqual(again.lines, read.lines)
        XCTAssertTrue(SortedNames(lines: Array("last".utf8)[...]).contains("last"), "a last line without its newline")
    }

    func testNoNames() {
        XCTAssertFalse(SortedNames([String]()).contains("gzip"))
        XCTAssertFalse(SortedNames(lines: []).contains(""))
        XCTAssertEqual(SortedNames(lines: []).lines, [])
    }
}
