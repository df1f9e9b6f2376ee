import Foundation
import XCTest
import EmendTestSupport

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

    /// `emend proofread --interactive review.txt` on a terminal, without colour.
    private func review() throws -> PseudoTerminalRun {
        try PseudoTerminalRun(sandbox, ["proofread", "--interactive", "review.txt"], environment: ["NO_COLOR": "1"])
    }

    func testAcceptOneRejectOneThenTheRest() throws {
        let run = try review()
        run.waitFor("review.txt:1:9: spelling: “recieve” may be misspelled.")
        run.answer(["(1/4) Apply this change [y,n,w,a,d,q,?]? ": "y"])
        run.waitFor("(2/4) Apply this change")
        XCTAssertEqual(sandbox.read("review.txt"), text, "nothing is written before the end")
        run.type("?")
        run.answer(["q - quit; keep what was decided so far": "n"])
        run.waitFor("“They” takes “have”.")
        run.answer(["(3/4)": "y", "(4/4)": "n"])
        run.waitFor("review.txt: applied 2 of 4 suggestions.")
        XCTAssertEqual(run.finish(), 0)
        XCTAssertEqual(sandbox.read("review.txt"), "We will receive teh parts.\nThey have a plan for tomorow.\n")
        XCTAssertEqual(sandbox.listing(), ["review.txt"])
    }

    func testAddToDictionaryWritesTheWordAndSkipsItsOtherSuggestions() throws {
        sandbox.write("review.txt", "We will recieve teh parts; recieve them.\n")
        let run = try review()
        run.answer(["(1/3) Apply this change [y,n,w,a,d,q,?]? ": "w"])
        run.waitFor("Added “recieve” to \(sandbox.root)/config/emend/dictionary.txt.")
        run.answer(["(2/3)": "y"])
        run.waitFor("review.txt: applied 1 of 3 suggestions.")
        XCTAssertEqual(run.finish(), 0)
        XCTAssertEqual(sandbox.read("review.txt"), "We will recieve the parts; recieve them.\n", "the second recieve was not asked")
        XCTAssertEqual(try String(contentsOfFile: sandbox.root + "/config/emend/dictionary.txt", encoding: .utf8), "recieve\n")
    }

    func testQuitKeepsWhatWasDecided() throws {
        // As `git add -p`: q applies what was accepted before it, and nothing after.
        let run = try review()
        run.answer(["(1/4)": "y", "(2/4)": "n", "(3/4)": "q"])
        run.waitFor("Quit: review.txt: applied 1 of 4 suggestions.")
        // q is a decision, as d: exit 0, as rewrite --interactive's q (and git add -p).
        XCTAssertEqual(run.finish(), 0, "q ends the review as rewrite --interactive's does")
        XCTAssertEqual(sandbox.read("review.txt"), "We will receive teh parts.\nThey has a plan for tomorow.\n")
        XCTAssertEqual(sandbox.listing(), ["review.txt"])

        sandbox.write("review.txt", text)
        let first = try review()
        first.answer(["(1/4)": "q"])
        first.waitFor("Quit: review.txt: no changes applied; the file was not changed.")
        XCTAssertEqual(first.finish(), 0)
        XCTAssertEqual(sandbox.read("review.txt"), text)
    }

    func testAcceptAllAndRejectTheRest() throws {
        let all = try review()
        all.answer(["(1/4)": "n", "(2/4)": "a"])
        all.waitFor("applied 3 of 4 suggestions")
        XCTAssertEqual(all.finish(), 0)
        XCTAssertEqual(sandbox.read("review.txt"), "We will recieve the parts.\nThey have a plan for tomorrow.\n")

        sandbox.write("review.txt", text)
        let none = try review()
        none.answer(["(1/4)": "d"])
        none.waitFor("no changes applied; the file was not changed.")
        XCTAssertEqual(none.finish(), 0)
        XCTAssertEqual(sandbox.read("review.txt"), text)
    }

    func testEndOfInputQuits() throws {
        let run = try review()
        run.answer(["(1/4)": "\u{04}"])   // ^D
        run.waitFor("Quit: review.txt: no changes applied; the file was not changed.")
        XCTAssertEqual(run.finish(), 0)
        XCTAssertEqual(sandbox.read("review.txt"), text)
    }

    /// Colour is SGR (`ESC [ ... m`); NO_COLOR turns it off, not the spinner, which is cursor
    /// control (`\r ESC [ K`) and shows once a run takes a quarter second. Whether a run took
    /// that long depended on the machine's load, so both runs here take at least 0.6 s (a
    /// second checker, the slow fixture, answers after 600 ms): the spinner shows in both,
    /// whatever the machine's speed, and the plain one has no escape sequence but its.
    func testColourOnATerminalButNotWithNO_COLOR() throws {
        try FileManager.default.createDirectory(atPath: sandbox.root + "/config/emend", withIntermediateDirectories: true)
        try "[tools]\nproofread = [\"org.emend.fixture\", \"org.emend.fixture.slow\"]\n"
            .write(toFile: sandbox.root + "/config/emend/config.toml", atomically: true, encoding: .utf8)
        let slow = ["EMEND_FIXTURE_SLOW_CHECKER_MS": "600"]
        let spinner = "\r\u{1B}[K"
        let coloured = try PseudoTerminalRun(sandbox, ["proofread", "review.txt"], environment: slow)
        XCTAssertEqual(coloured.finish(), 1)
        XCTAssertTrue(coloured.screen.contains("\u{1B}[1m"), coloured.screen)
        XCTAssertTrue(coloured.screen.contains(spinner), "the spinner of a run of 0.6 s: \(coloured.screen)")
        let plain = try PseudoTerminalRun(sandbox, ["proofread", "review.txt"], environment: slow.merging(["NO_COLOR": "1"]) { $1 })
        XCTAssertEqual(plain.finish(), 1)
        XCTAssertTrue(plain.screen.contains(spinner), "the spinner of a run of 0.6 s: \(plain.screen)")
        XCTAssertFalse(plain.screen.replacingOccurrences(of: spinner, with: "").contains("\u{1B}["),
                       "no escape sequence but the spinner's: \(plain.screen)")
        XCTAssertTrue(plain.screen.contains("review.txt:1:9: spelling:"), plain.screen)
    }

    func testInteractiveNeedsATerminal() {
        let result = sandbox.run(["proofread", "--interactive", "review.txt"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("--interactive needs a terminal"), result.stderr)
    }
}
