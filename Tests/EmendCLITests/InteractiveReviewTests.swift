import Foundation
import XCTest

/// `emend proofread --interactive` on a pseudo-terminal: each suggestion in context, one
/// key per decision; the file is written only at the end; quitting keeps what was decided
/// before it (as `git add -p`).
final class InteractiveReviewTests: XCTestCase {
    private var sandbox: CLISandbox!
    private let text = "We will recieve teh parts.\nThey has a plan for tomorow.\n"

    override func setUp() {
        sandbox = CLISandbox()
        sandbox.write("review.txt", text)
    }

    func testAcceptOneRejectOneThenTheRest() throws {
        let run = try PseudoTerminalRun(sandbox, ["proofread", "--interactive", "review.txt"], environment: ["NO_COLOR": "1"])
        run.waitFor("review.txt:1:9: spelling: “recieve” may be misspelled.")
        run.waitFor("(1/4) Apply this change [y,n,w,a,d,q,?]? ")
        run.type("y")
        run.waitFor("(2/4) Apply this change")
        XCTAssertEqual(sandbox.read("review.txt"), text, "nothing is written before the end")
        run.type("?")
        run.waitFor("q - quit; keep what was decided so far")
        run.type("n")
        run.waitFor("“They” takes “have”.")
        run.waitFor("(3/4)")
        run.type("y")
        run.waitFor("(4/4)")
        run.type("n")
        run.waitFor("review.txt: applied 2 of 4 suggestions.")
        XCTAssertEqual(run.finish(), 0)
        XCTAssertEqual(sandbox.read("review.txt"), "We will receive teh parts.\nThey have a plan for tomorow.\n")
        XCTAssertEqual(sandbox.listing(), ["review.txt"])
    }

    func testAddToDictionaryWritesTheWordAndSkipsItsOtherSuggestions() throws {
        sandbox.write("review.txt", "We will recieve teh parts; recieve them.\n")
        let run = try PseudoTerminalRun(sandbox, ["proofread", "--interactive", "review.txt"], environment: ["NO_COLOR": "1"])
        run.waitFor("(1/3) Apply this change [y,n,w,a,d,q,?]? ")
        run.type("w")
        run.waitFor("Added “recieve” to \(sandbox.root)/config/emend/dictionary.txt.")
        run.waitFor("(2/3)")
        run.type("y")
        run.waitFor("review.txt: applied 1 of 3 suggestions.")
        XCTAssertEqual(run.finish(), 0)
        XCTAssertEqual(sandbox.read("review.txt"), "We will recieve the parts; recieve them.\n", "the second recieve was not asked")
        XCTAssertEqual(try String(contentsOfFile: sandbox.root + "/config/emend/dictionary.txt", encoding: .utf8), "recieve\n")
    }

    func testQuitKeepsWhatWasDecided() throws {
        // As `git add -p`: q applies what was accepted before it, and nothing after.
        let run = try PseudoTerminalRun(sandbox, ["proofread", "--interactive", "review.txt"], environment: ["NO_COLOR": "1"])
        run.waitFor("(1/4)")
        run.type("y")
        run.waitFor("(2/4)")
        run.type("n")
        run.waitFor("(3/4)")
        run.type("q")
        run.waitFor("Quit: review.txt: applied 1 of 4 suggestions.")
        XCTAssertEqual(run.finish(), 1, "suggestions remain")
        XCTAssertEqual(sandbox.read("review.txt"), "We will receive teh parts.\nThey has a plan for tomorow.\n")
        XCTAssertEqual(sandbox.listing(), ["review.txt"])

        sandbox.write("review.txt", text)
        let first = try PseudoTerminalRun(sandbox, ["proofread", "--interactive", "review.txt"], environment: ["NO_COLOR": "1"])
        first.waitFor("(1/4)")
        first.type("q")
        first.waitFor("Quit: review.txt: no changes applied; the file was not changed.")
        XCTAssertEqual(first.finish(), 1)
        XCTAssertEqual(sandbox.read("review.txt"), text)
    }

    func testAcceptAllAndRejectTheRest() throws {
        let all = try PseudoTerminalRun(sandbox, ["proofread", "--interactive", "review.txt"], environment: ["NO_COLOR": "1"])
        all.waitFor("(1/4)")
        all.type("n")
        all.waitFor("(2/4)")
        all.type("a")
        all.waitFor("applied 3 of 4 suggestions")
        XCTAssertEqual(all.finish(), 0)
        XCTAssertEqual(sandbox.read("review.txt"), "We will recieve the parts.\nThey have a plan for tomorrow.\n")

        sandbox.write("review.txt", text)
        let none = try PseudoTerminalRun(sandbox, ["proofread", "--interactive", "review.txt"], environment: ["NO_COLOR": "1"])
        none.waitFor("(1/4)")
        none.type("d")
        none.waitFor("no changes applied; the file was not changed.")
        XCTAssertEqual(none.finish(), 0)
        XCTAssertEqual(sandbox.read("review.txt"), text)
    }

    func testEndOfInputQuits() throws {
        let run = try PseudoTerminalRun(sandbox, ["proofread", "--interactive", "review.txt"], environment: ["NO_COLOR": "1"])
        run.waitFor("(1/4)")
        run.type("\u{04}")   // ^D
        run.waitFor("Quit: review.txt: no changes applied; the file was not changed.")
        XCTAssertEqual(run.finish(), 1)
        XCTAssertEqual(sandbox.read("review.txt"), text)
    }

    func testColourOnATerminalButNotWithNO_COLOR() throws {
        let coloured = try PseudoTerminalRun(sandbox, ["proofread", "review.txt"])
        XCTAssertEqual(coloured.finish(), 1)
        XCTAssertTrue(coloured.screen.contains("\u{1B}[1m"), coloured.screen)
        let plain = try PseudoTerminalRun(sandbox, ["proofread", "review.txt"], environment: ["NO_COLOR": "1"])
        XCTAssertEqual(plain.finish(), 1)
        XCTAssertFalse(plain.screen.contains("\u{1B}["), plain.screen)
        XCTAssertTrue(plain.screen.contains("review.txt:1:9: spelling:"), plain.screen)
    }

    func testInteractiveNeedsATerminal() {
        let result = sandbox.run(["proofread", "--interactive", "review.txt"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("--interactive needs a terminal"), result.stderr)
    }
}
