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

    /// A binary file named alone is called binary, not sent to iconv as if it were Latin-1;
    /// a binary file that is valid UTF-8 (NUL bytes only) is still read as text, as before.
    func testBinaryFileIsNamedBinary() {
        sandbox.write("image.bin", bytes: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0xFF, 0xD8])
        let result = sandbox.run(["proofread", "image.bin"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("image.bin: a binary file (a NUL byte at byte offset 8), not text"), result.stderr)
        XCTAssertFalse(result.stderr.contains("iconv"), result.stderr)
        XCTAssertEqual(sandbox.run(["rewrite", "--tone", "friendly", "image.bin"]).status, 2)
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
        // Each example stays on one line of an 80-column help (a wrapped comment would start
        // a line of its own at column 0 and read as a command).
        let examples = help.stdout.components(separatedBy: "Examples:\n").last?
            .components(separatedBy: "\n\n").first?.split(separator: "\n") ?? []
        XCTAssertGreaterThan(examples.count, 5, help.stdout)
        for line in examples { XCTAssertTrue(line.hasPrefix("  emend "), "a wrapped example line: \(line)") }
        XCTAssertEqual(sandbox.run(["--version"]).stdout, "0.1.0\n")
        // The man pages are generated from these texts (generate-manual), which drops any
        // character beyond ASCII: "(.md, .org, …)" became "(.md, .org, )" in emend-proofread(1).
        for command in ["proofread", "rewrite", "summarize", "compose", "follow-up", "providers", "config", "doctor", "lsp",
                        "service", "service status", "service stop", "service run"] {
            let text = sandbox.run(command.split(separator: " ").map(String.init) + ["--help"]).stdout
            XCTAssertFalse(text.isEmpty, command)
            XCTAssertTrue(text.unicodeScalars.allSatisfy(\.isASCII), "\(command) --help has a character the man page loses")
        }
    }
}
