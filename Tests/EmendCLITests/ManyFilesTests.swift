import Foundation
import XCTest

/// `emend proofread FILE... DIR...`: every text file once, one set of checkers for all,
/// reports under each file's name, the worst exit status.
final class ManyFilesTests: XCTestCase {
    private var sandbox: CLISandbox!

    override func setUp() {
        sandbox = CLISandbox()
    }

    /// a.md, b.txt and dir/ with text files (one nested, one hidden, one binary, one that is
    /// not text by its name, a link back to a.md).
    private func makeTree() {
        sandbox.write("a.md", "We will recieve it.\n")
        sandbox.write("b.txt", "See you tomorow.\n")
        try! FileManager.default.createDirectory(atPath: sandbox.path("dir/sub"), withIntermediateDirectories: true)
        try! FileManager.default.createDirectory(atPath: sandbox.path("dir/.hidden"), withIntermediateDirectories: true)
        sandbox.write("dir/c.md", "I beleive so.\n")
        sandbox.write("dir/sub/d.txt", "It is wierd.\n")
        sandbox.write("dir/sub/clean.rst", "Nothing wrong here.\n")
        sandbox.write("dir/.hidden/e.md", "Hidden teh text.\n")
        sandbox.write("dir/image.txt", bytes: [0x89, 0x50, 0x4E, 0x47, 0x00, 0x00, 0x0D, 0x0A] + Array("teh".utf8))
        sandbox.write("dir/code.c", "int teh = 0;\n")
        symlink(sandbox.path("a.md"), sandbox.path("dir/link.md"))
    }

    func testFilesAndDirectoriesAreEachCheckedOnce() {
        makeTree()
        let result = sandbox.run(["proofread", "a.md", "b.txt", "dir/", "a.md"])
        XCTAssertEqual(result.status, 1, result.stderr)
        let out = result.stdout
        XCTAssertEqual(out.lines(containing: ": spelling:"), [
            "a.md:1:9: spelling: “recieve” may be misspelled. [SPELLING]",
            "b.txt:1:9: spelling: “tomorow” may be misspelled. [SPELLING]",
            "dir/c.md:1:3: spelling: “beleive” may be misspelled. [SPELLING]",
            "dir/sub/d.txt:1:7: spelling: “wierd” may be misspelled. [SPELLING]",
        ], out)
        XCTAssertFalse(out.contains("“teh”"), "hidden, binary and non-text files are not checked:\n\(out)")
        XCTAssertTrue(result.stderr.contains("emend: note: dir/image.txt: skipped (a binary file)"), result.stderr)
        XCTAssertTrue(result.stderr.contains("dir/sub/clean.rst: no suggestions"), result.stderr)
        XCTAssertTrue(result.stderr.contains("emend: 5 files checked, 1 skipped: 4 suggestions in 4 files"), result.stderr)
    }

    func testJSONIsKeyedByFile() throws {
        makeTree()
        let result = sandbox.run(["proofread", "--json", "b.txt", "dir"])
        XCTAssertEqual(result.status, 1, result.stderr)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: [String: Any]])
        XCTAssertEqual(Set(object.keys), ["b.txt", "dir/c.md", "dir/link.md", "dir/sub/d.txt", "dir/sub/clean.rst"])
        let matches = try XCTUnwrap(object["dir/c.md"]?["matches"] as? [[String: Any]])
        XCTAssertEqual(matches.count, 1)
        XCTAssertEqual(matches.first?["offset"] as? Int, 2)
        XCTAssertEqual((object["dir/sub/clean.rst"]?["matches"] as? [Any])?.count, 0)
        XCTAssertEqual(object["b.txt"]?["file"] as? String, "b.txt")
    }

    func testExitStatusIsTheWorstAndTheOtherFilesAreStillChecked() throws {
        sandbox.write("ok.txt", "All fine.\n")
        sandbox.write("typo.txt", "A teh typo.\n")
        sandbox.write("fail.txt", "This [fixture:fail] text.\n")
        let failing = sandbox.run(["proofread", "ok.txt", "fail.txt", "typo.txt"])
        XCTAssertEqual(failing.status, 3, failing.stderr)
        XCTAssertTrue(failing.stderr.contains("fail.txt: org.emend.fixture: fixture: the text asked for a failure"), failing.stderr)
        XCTAssertTrue(failing.stdout.contains("typo.txt:1:3: spelling: “teh”"), failing.stdout)

        sandbox.write("latin1.txt", bytes: Array("caf".utf8) + [0xE9, 0x0A])
        let missing = sandbox.run(["proofread", "--json", "typo.txt", "nowhere.txt", "latin1.txt"])
        XCTAssertEqual(missing.status, 2, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("nowhere.txt: no such file or directory"), missing.stderr)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(missing.stdout.utf8)) as? [String: [String: Any]])
        XCTAssertEqual((object["typo.txt"]?["matches"] as? [Any])?.count, 1)
        XCTAssertEqual(object["latin1.txt"]?["exitStatus"] as? Int, 2)
        // A missing file is in the JSON as well, not only on stderr.
        XCTAssertEqual(object["nowhere.txt"]?["exitStatus"] as? Int, 2)
        XCTAssertTrue((object["nowhere.txt"]?["error"] as? String)?.contains("no such file or directory") == true)
        XCTAssertTrue((object["latin1.txt"]?["error"] as? String)?.contains("not valid UTF-8") == true)

        XCTAssertEqual(sandbox.run(["proofread", "ok.txt", "typo.txt"]).status, 1)
        let clean = sandbox.run(["proofread", "ok.txt", "ok.txt"])
        XCTAssertEqual(clean.status, 0, clean.stderr)
        XCTAssertTrue(clean.stderr.contains("emend: 1 file checked: no suggestions"), clean.stderr)
    }

    func testWriteAndDiffWorkFilePerFile() {
        sandbox.write("one.txt", "We will recieve it.\n")
        sandbox.write("two.md", "See you tomorow.\n")
        let diff = sandbox.run(["proofread", "--diff", "one.txt", "two.md"])
        XCTAssertEqual(diff.status, 1, diff.stderr)
        XCTAssertTrue(diff.stdout.contains("--- a/one.txt\n+++ b/one.txt\n"), diff.stdout)
        XCTAssertTrue(diff.stdout.contains("--- a/two.md\n+++ b/two.md\n"), diff.stdout)
        let write = sandbox.run(["proofread", "--write", "one.txt", "two.md"])
        XCTAssertEqual(write.status, 0, write.stderr)
        XCTAssertEqual(sandbox.read("one.txt"), "We will receive it.\n")
        XCTAssertEqual(sandbox.read("two.md"), "See you tomorrow.\n")
        XCTAssertTrue(write.stderr.contains("one.txt: applied 1 suggestion"), write.stderr)
    }

    func testOptionsThatTakeOneFileSaySo() {
        sandbox.write("one.txt", "Fine.\n")
        sandbox.write("two.txt", "Fine.\n")
        let interactive = sandbox.run(["proofread", "--interactive", "one.txt", "two.txt"])
        XCTAssertEqual(interactive.status, 2)
        XCTAssertTrue(interactive.stderr.contains("--interactive reviews one file at a time"), interactive.stderr)
        let stdin = sandbox.run(["proofread", "one.txt", "-"], stdin: "x\n")
        XCTAssertEqual(stdin.status, 2)
        XCTAssertTrue(stdin.stderr.contains("cannot be combined with files"), stdin.stderr)
        try! FileManager.default.createDirectory(atPath: sandbox.path("empty"), withIntermediateDirectories: true)
        let empty = sandbox.run(["proofread", "empty"])
        XCTAssertEqual(empty.status, 2)
        XCTAssertTrue(empty.stderr.contains("no text files in empty"), empty.stderr)
    }

    /// One set of checkers for every file: the replay checker (a real plugin in a provider
    /// host) is started once for three files.
    func testOneProviderHostServesEveryFile() throws {
        let sandbox = try ReplayChecker.sandbox([("recieve", "receive", "spelling", "R1", "")])
        sandbox.environment["EMEND_LOG"] = "1"
        sandbox.write("a.md", "We will recieve it.\n")
        sandbox.write("b.txt", "Did you recieve it?\n")
        sandbox.write("c.txt", "Nothing here.\n")
        let result = sandbox.run(["proofread", "a.md", "b.txt", "c.txt"])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertEqual(result.stdout.lines(containing: "“recieve”").count, 2, result.stdout)
        XCTAssertEqual(result.stderr.lines(containing: "provider host started").count, 1, result.stderr)
    }
}
