import Foundation
import XCTest

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

    func testKeepOneDropOneThenQuitKeepsWhatWasDecided() throws {
        let run = try PseudoTerminalRun(sandbox, ["rewrite", "--tone", "friendly", "--interactive", "r.txt"], environment: ["NO_COLOR": "1"])
        run.waitFor("@@ r.txt:1:1: change 1/4 @@")
        run.waitFor("-I am sure it's fine. We're ready, don't worry.")
        run.waitFor("+I'm sure it's fine. We're ready, don't worry.")
        run.waitFor("(1/4) Keep this change [y,n,a,d,q,?]? ")
        run.type("y")
        run.waitFor("(2/4) Keep this change")
        XCTAssertEqual(sandbox.read("r.txt"), text, "nothing is written before the end")
        run.type("?")
        run.waitFor("q - quit; keep what was decided so far")
        run.type("n")
        // The next hunk shows the text as it stands: the dropped change's original is back.
        run.waitFor("-I'm sure it is fine. We are ready, don't worry.")
        run.waitFor("(3/4)")
        run.type("q")
        run.waitFor("Quit: r.txt: kept 1 of 4 changes.")
        XCTAssertEqual(run.finish(), 0)
        XCTAssertEqual(sandbox.read("r.txt"), "I'm sure it is fine. We are ready, do not worry.\n")
        XCTAssertEqual(sandbox.listing(), ["r.txt"])
    }

    func testDropOneThenKeepTheRest() throws {
        let run = try PseudoTerminalRun(sandbox, ["rewrite", "--tone", "friendly", "--interactive", "r.txt"], environment: ["NO_COLOR": "1"])
        run.waitFor("(1/4)")
        run.type("n")
        run.waitFor("(2/4)")
        run.type("a")
        run.waitFor("r.txt: kept 3 of 4 changes.")
        XCTAssertEqual(run.finish(), 0)
        XCTAssertEqual(sandbox.read("r.txt"), "I am sure it's fine. We're ready, don't worry.\n")
    }

    func testDropEverythingLeavesTheFileUntouched() throws {
        let run = try PseudoTerminalRun(sandbox, ["rewrite", "--tone", "friendly", "--interactive", "r.txt"], environment: ["NO_COLOR": "1"])
        run.waitFor("(1/4)")
        run.type("d")
        run.waitFor("r.txt: no changes kept; the file was not changed.")
        XCTAssertEqual(run.finish(), 0)
        XCTAssertEqual(sandbox.read("r.txt"), text)
    }

    func testDiffPrintsEachChangeAsAHunk() throws {
        let result = sandbox.run(["rewrite", "--tone", "friendly", "--diff", "r.txt"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, """
            @@ r.txt:1:1: change 1/4 @@
            -I am sure it's fine. We're ready, don't worry.
            +I'm sure it's fine. We're ready, don't worry.
            @@ r.txt:1:10: change 2/4 @@
            -I'm sure it is fine. We're ready, don't worry.
            +I'm sure it's fine. We're ready, don't worry.
            @@ r.txt:1:21: change 3/4 @@
            -I'm sure it's fine. We are ready, don't worry.
            +I'm sure it's fine. We're ready, don't worry.
            @@ r.txt:1:34: change 4/4 @@
            -I'm sure it's fine. We're ready, do not worry.
            +I'm sure it's fine. We're ready, don't worry.

            """)
        XCTAssertEqual(sandbox.read("r.txt"), text, "--diff alone writes nothing")
        XCTAssertEqual(sandbox.run(["rewrite", "--tone", "friendly", "--diff", "--write", "r.txt"]).status, 0)
        XCTAssertEqual(sandbox.read("r.txt"), "I'm sure it's fine. We're ready, don't worry.\n")
    }

    func testInteractiveNeedsATerminalAndAFile() throws {
        let piped = sandbox.run(["rewrite", "--tone", "friendly", "--interactive", "r.txt"])
        XCTAssertEqual(piped.status, 2)
        XCTAssertTrue(piped.stderr.contains("--interactive needs a terminal"), piped.stderr)
        XCTAssertEqual(sandbox.run(["rewrite", "--tone", "friendly", "--interactive", "--diff", "r.txt"]).status, 2)
    }
}
