import Foundation
import XCTest
import EmendTestSupport

/// `emend rewrite --interactive` on a pseudo-terminal: each change of the rewrite as a hunk,
/// one key per decision (y keep, n drop, a, d, q keeps what was decided); the file is written
/// once at the end with the changes kept. `--diff` prints the hunks without asking.
final class RewriteReviewTests: XCTestCase {
    private var sandbox: CLISandbox!
    private let text = "I am sure it is fine. We are ready, do not worry.\n"

    override func setUp() {
        sandbox = CLISandbox()
        sandbox.write("r.txt", text)
    }

    /// `emend ARGUMENTS --interactive FILE` on a terminal, without colour.
    private func review(_ arguments: [String], _ file: String = "r.txt") throws -> PseudoTerminalRun {
        try PseudoTerminalRun(sandbox, arguments + ["--interactive", file], environment: ["NO_COLOR": "1"])
    }

    func testKeepOneDropOneThenQuitKeepsWhatWasDecided() throws {
        let run = try review(["rewrite", "--tone", "friendly"])
        run.waitFor("@@ r.txt:1:1: change 1/4 @@")
        run.waitFor("-I am sure it is fine. We are ready, do not worry.")
        run.waitFor("+I'm sure it is fine. We are ready, do not worry.")
        run.answer(["(1/4) Keep this change [y,n,a,d,q,?]? ": "y"])
        run.waitFor("(2/4) Keep this change")
        XCTAssertEqual(sandbox.read("r.txt"), text, "nothing is written before the end")
        run.type("?")
        run.answer(["q - quit; keep what was decided so far": "n"])
        // Each hunk is in the original text, as diff -u shows it: the kept change is not in it.
        run.waitFor("@@ r.txt:1:23: change 3/4 @@")
        run.waitFor("-I am sure it is fine. We are ready, do not worry.")
        run.waitFor("+I am sure it is fine. We're ready, do not worry.")
        run.answer(["(3/4)": "q"])
        run.waitFor("Quit: r.txt: kept 1 of 4 changes.")
        XCTAssertEqual(run.finish(), 0)
        XCTAssertEqual(sandbox.read("r.txt"), "I'm sure it is fine. We are ready, do not worry.\n")
        XCTAssertEqual(sandbox.listing(), ["r.txt"])
    }

    func testDropOneThenKeepTheRest() throws {
        let run = try review(["rewrite", "--tone", "friendly"])
        run.answer(["(1/4)": "n", "(2/4)": "a"])
        run.waitFor("r.txt: kept 3 of 4 changes.")
        XCTAssertEqual(run.finish(), 0)
        XCTAssertEqual(sandbox.read("r.txt"), "I am sure it's fine. We're ready, don't worry.\n")
    }

    func testDropEverythingLeavesTheFileUntouched() throws {
        let run = try review(["rewrite", "--tone", "friendly"])
        run.answer(["(1/4)": "d"])
        run.waitFor("r.txt: no changes kept; the file was not changed.")
        XCTAssertEqual(run.finish(), 0)
        XCTAssertEqual(sandbox.read("r.txt"), text)
    }

    func testDiffPrintsEachChangeAsAHunk() throws {
        let result = sandbox.run(["rewrite", "--tone", "friendly", "--diff", "r.txt"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, """
            @@ r.txt:1:1: change 1/4 @@
            -I am sure it is fine. We are ready, do not worry.
            +I'm sure it is fine. We are ready, do not worry.
            @@ r.txt:1:11: change 2/4 @@
            -I am sure it is fine. We are ready, do not worry.
            +I am sure it's fine. We are ready, do not worry.
            @@ r.txt:1:23: change 3/4 @@
            -I am sure it is fine. We are ready, do not worry.
            +I am sure it is fine. We're ready, do not worry.
            @@ r.txt:1:37: change 4/4 @@
            -I am sure it is fine. We are ready, do not worry.
            +I am sure it is fine. We are ready, don't worry.

            """)
        XCTAssertEqual(sandbox.read("r.txt"), text, "--diff alone writes nothing")
        XCTAssertEqual(sandbox.run(["rewrite", "--tone", "friendly", "--diff", "--write", "r.txt"]).status, 0)
        XCTAssertEqual(sandbox.read("r.txt"), "I'm sure it's fine. We're ready, don't worry.\n")
    }

    func testComposeReviewedKeepsOrDropsWhatWasWritten() throws {
        sandbox.write("c.txt", "Hello.\n")
        sandbox.write("w.txt", "Hello.\n")
        XCTAssertEqual(sandbox.run(["compose", "--prompt", "say thanks for the flowers", "--write", "w.txt"]).status, 0)
        let keep = try review(["compose", "--prompt", "say thanks for the flowers"], "c.txt")
        keep.waitFor("+Say thanks for the flowers.")
        keep.answer(["(1/1) Keep this change": "y"])
        keep.waitFor("c.txt: kept 1 of 1 changes.")
        XCTAssertEqual(keep.finish(), 0)
        XCTAssertEqual(sandbox.read("c.txt"), sandbox.read("w.txt"), "keeping every change is --write")

        sandbox.write("c.txt", "Hello.\n")
        let drop = try review(["compose", "--prompt", "say thanks for the flowers"], "c.txt")
        drop.answer(["(1/1) Keep this change": "n"])
        drop.waitFor("c.txt: no changes kept; the file was not changed.")
        XCTAssertEqual(drop.finish(), 0)
        XCTAssertEqual(sandbox.read("c.txt"), "Hello.\n")
    }

    func testFollowUpDiffShowsTheChangesAgainstTheOriginal() throws {
        XCTAssertEqual(sandbox.run(["rewrite", "--tone", "friendly", "--write", "r.txt"]).status, 0)
        let rewritten = sandbox.read("r.txt")
        let result = sandbox.run(["follow-up", "uppercase", "--diff", "r.txt"])
        XCTAssertEqual(result.status, 0, result.stderr)
        // Each hunk in the original's line and positions, as diff -u shows it.
        XCTAssertTrue(result.stdout.hasPrefix("@@ r.txt:1:1: change 1/3 @@\n-I am sure it is fine. We are ready, do not worry.\n+I'M SURE IT'S FINE. We are ready, do not worry.\n"),
                      result.stdout)
        XCTAssertTrue(result.stdout.contains("@@ r.txt:1:37: change 3/3 @@\n-I am sure it is fine. We are ready, do not worry.\n+I am sure it is fine. We are ready, DON'T WORRY.\n"),
                      result.stdout)
        XCTAssertEqual(sandbox.read("r.txt"), rewritten, "--diff alone writes nothing")
    }

    func testInteractiveNeedsATerminalAndAFile() throws {
        let piped = sandbox.run(["rewrite", "--tone", "friendly", "--interactive", "r.txt"])
        XCTAssertEqual(piped.status, 2)
        XCTAssertTrue(piped.stderr.contains("--interactive needs a terminal"), piped.stderr)
        XCTAssertEqual(sandbox.run(["rewrite", "--tone", "friendly", "--interactive", "--diff", "r.txt"]).status, 2)
    }
}
