import Foundation
import XCTest

/// Usage and input errors exit 2 and say which file and what to do.
final class BadInputTests: XCTestCase {
    private var sandbox: CLISandbox!

    override func setUp() {
        sandbox = CLISandbox()
    }

    func testInvalidUTF8NamesTheByteOffset() {
        sandbox.write("latin1.txt", bytes: Array("Caf".utf8) + [0xE9] + Array(" au lait\n".utf8))
        let result = sandbox.run(["proofread", "latin1.txt"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("latin1.txt: not valid UTF-8 at byte offset 3 (line 1, byte 0xE9)"), result.stderr)
        XCTAssertTrue(result.stderr.contains("iconv -f latin1 -t utf-8 latin1.txt"), result.stderr)
        XCTAssertEqual(sandbox.run(["rewrite", "--tone", "friendly", "latin1.txt"]).status, 2)
        // A truncated sequence at the very end, after a line break.
        sandbox.write("cut.txt", bytes: Array("ok\n".utf8) + [0xF0, 0x9F])
        let cut = sandbox.run(["proofread", "cut.txt"])
        XCTAssertEqual(cut.status, 2)
        XCTAssertTrue(cut.stderr.contains("at byte offset 3 (line 2"), cut.stderr)
    }

    func testMissingFileAndDirectory() {
        let missing = sandbox.run(["proofread", "nope.md"])
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.stderr.contains("emend: nope.md: no such file"), missing.stderr)
        // A directory is checked file by file (ManyFilesTests); one with no text files is an error.
        let directory = sandbox.run(["proofread", "."])
        XCTAssertEqual(directory.status, 2)
        XCTAssertTrue(directory.stderr.contains("emend: no text files in ."), directory.stderr)
        let rewrite = sandbox.run(["rewrite", "--tone", "concise", "."])
        XCTAssertEqual(rewrite.status, 2)
        XCTAssertTrue(rewrite.stderr.contains(".: is a directory"), rewrite.stderr)
    }

    func testBadSelections() {
        sandbox.write("s.txt", "Hi 😀 teh.\n")
        let cases: [([String], String)] = [
            (["--selection", "5:2"], "START (5) is after END (2)"),
            (["--selection", "abc"], "write START:END with whole numbers"),
            (["--selection", "0:999"], "999 is past the end of s.txt, which has 13 UTF-8 bytes"),
            (["--selection", "4:6"], "offset 4 falls inside a character (counting UTF-8 bytes)"),
            (["--selection", "0:4", "--encoding", "utf16"], "offset 4 falls inside a character (counting UTF-16 units)"),
            (["--selection", "1:2:3"], "write START:END"),
        ]
        for (arguments, message) in cases {
            let result = sandbox.run(["proofread"] + arguments + ["s.txt"])
            XCTAssertEqual(result.status, 2, arguments.joined(separator: " "))
            XCTAssertTrue(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        // Valid: after the emoji in UTF-16 units (3 + 2).
        XCTAssertEqual(sandbox.run(["proofread", "--selection", "5:", "--encoding", "utf16", "s.txt"]).status, 1)
    }

    func testUsageErrorsExitTwo() {
        sandbox.write("t.txt", "Text.\n")
        for arguments in [["frobnicate"], ["proofread", "--json", "--diff", "t.txt"], ["proofread", "--encoding", "utf32", "t.txt"],
                          ["rewrite", "--tone", "angry", "t.txt"], ["rewrite", "--tone", "friendly", "--describe", "x", "t.txt"],
                          ["follow-up", "warmer"], ["proofread", "--timeout", "0", "t.txt"]] {
            let result = sandbox.run(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertFalse(result.stderr.isEmpty)
        }
        let help = sandbox.run(["--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("Exit codes: 0 nothing to report"), help.stdout)
        XCTAssertTrue(help.stdout.contains("follow-up"), help.stdout)
        XCTAssertEqual(sandbox.run(["--version"]).stdout, "0.1.0\n")
    }
}
