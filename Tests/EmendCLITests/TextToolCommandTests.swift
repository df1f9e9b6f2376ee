import Foundation
import XCTest

final class TextToolCommandTests: XCTestCase {
    private var sandbox: CLISandbox!

    override func setUp() {
        sandbox = CLISandbox()
    }

    func testRewriteTonesPrintAndWrite() throws {
        let text = "I am sure it is fine. We are ready, do not worry.\n"
        sandbox.write("r.txt", text)
        let friendly = sandbox.run(["rewrite", "--tone", "friendly", "r.txt"])
        XCTAssertEqual(friendly.status, 0, friendly.stderr)
        XCTAssertEqual(friendly.stdout, "I'm sure it's fine. We're ready, don't worry.\n")
        // No model is installed here: the built-in fixture answered, and says so.
        XCTAssertTrue(friendly.stderr.contains("org.emend.fixture, a built-in test fixture"), friendly.stderr)
        XCTAssertEqual(sandbox.read("r.txt"), text, "without --write the file stays")
        let concise = sandbox.run(["rewrite", "--tone", "concise", "-"], stdin: "It is really very good.")
        XCTAssertEqual(concise.stdout, "It is good.\n")
        let professional = sandbox.run(["rewrite", "--tone", "professional", "--write", "r.txt"])
        XCTAssertEqual(professional.status, 5, "the text is professional already: the rewrite changes nothing (a poor result)")
        XCTAssertTrue(professional.stderr.contains("the result is poor"), professional.stderr)
        XCTAssertEqual(sandbox.read("r.txt"), "I am sure it is fine. We are ready, do not worry.\n")
        XCTAssertEqual(sandbox.run(["rewrite", "--tone", "friendly", "--write", "r.txt"]).status, 0)
        XCTAssertEqual(sandbox.read("r.txt"), "I'm sure it's fine. We're ready, don't worry.\n")
        XCTAssertEqual(sandbox.listing(), ["r.txt"])
    }

    /// A model answers with the prose alone: the file's own line breaks around it (its final
    /// newline above all) stay exactly as they were, printed and written.
    func testAWholeFileRewriteKeepsTheLineBreaksAroundTheText() {
        sandbox.write("w.txt", "\nIt is the part to change.\n\n")
        sandbox.environment["EMEND_FIXTURE_ANSWER"] = "IT IS THE PART TO CHANGE."
        let printed = sandbox.run(["rewrite", "--describe", "upper case", "w.txt"])
        XCTAssertEqual(printed.status, 0, printed.stderr)
        XCTAssertEqual(printed.stdout, "\nIT IS THE PART TO CHANGE.\n\n")
        let written = sandbox.run(["rewrite", "--describe", "upper case", "--write", "w.txt"])
        XCTAssertEqual(written.status, 0, written.stderr)
        XCTAssertEqual(sandbox.read("w.txt"), "\nIT IS THE PART TO CHANGE.\n\n")
        sandbox.write("one.txt", "It is the part to change.\n")
        sandbox.environment["EMEND_FIXTURE_ANSWER"] = "it is the part to change."
        XCTAssertEqual(sandbox.run(["rewrite", "--describe", "lower case", "--write", "one.txt"]).status, 0)
        XCTAssertEqual(sandbox.read("one.txt"), "it is the part to change.\n")
        sandbox.environment["EMEND_FIXTURE_ANSWER"] = "IT IS THE PART TO CHANGE.   "
        let followUp = sandbox.run(["follow-up", "upper case", "--write", "one.txt"])
        XCTAssertEqual(followUp.status, 0, followUp.stderr)
        XCTAssertEqual(sandbox.read("one.txt"), "IT IS THE PART TO CHANGE.\n")
    }

    func testRewriteSelectionAndJSON() throws {
        let text = "Keep this. It is the part to change. Keep that too.\n"
        sandbox.write("s.txt", text)
        // Bytes 11..<36: "It is the part to change."
        let result = sandbox.run(["rewrite", "--describe", "upper case", "--selection", "11:36", "--json", "s.txt"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(object["tool"] as? String, "rewrite-described")
        XCTAssertEqual(object["provider"] as? String, "org.emend.fixture")
        XCTAssertEqual(object["result"] as? String, "IT IS THE PART TO CHANGE. ")
        XCTAssertEqual(object["original"] as? String, "It is the part to change. ")
        XCTAssertEqual(object["written"] as? Bool, false)
        let range = try XCTUnwrap(object["range"] as? [String: Any])
        XCTAssertEqual(range["offset"] as? Int, 11)
        XCTAssertEqual(range["length"] as? Int, 26)
        XCTAssertEqual(sandbox.run(["rewrite", "--describe", "upper case", "--selection", "11:36", "--write", "s.txt"]).status, 0)
        XCTAssertEqual(sandbox.read("s.txt"), "Keep this. IT IS THE PART TO CHANGE. Keep that too.\n")
    }

    /// Nothing to work on is the input's fault (exit 2), said as such, not a provider
    /// failure (exit 3) with advice to look at the installed providers.
    func testEmptyTextIsAnInputError() {
        sandbox.write("empty.txt", "")
        sandbox.write("blank.txt", "\n  \n")
        for (arguments, message) in [(["summarize", "empty.txt"], "empty.txt is empty: nothing to summarize"),
                                     (["rewrite", "--tone", "concise", "blank.txt"], "blank.txt has only white space: nothing to rewrite"),
                                     (["rewrite", "--tone", "concise", "--diff", "empty.txt"], "empty.txt is empty: nothing to rewrite")] {
            let result = sandbox.run(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), result.stderr)
            XCTAssertFalse(result.stderr.contains("emend providers"), result.stderr)
        }
        XCTAssertEqual(sandbox.read("blank.txt"), "\n  \n")
    }

    func testSummarizeFormats() {
        sandbox.write("plan.txt", "The plan is ready. We ship on Monday. Tests pass.\n")
        XCTAssertEqual(sandbox.run(["summarize", "plan.txt"]).stdout, "The plan is ready.\n")
        XCTAssertEqual(sandbox.run(["summarize", "--format", "key-points", "plan.txt"]).stdout,
                       "- The plan is ready.\n- We ship on Monday.\n- Tests pass.\n")
        XCTAssertEqual(sandbox.run(["summarize", "--format", "list", "plan.txt"]).stdout,
                       "- The plan is ready.\n- We ship on Monday.\n- Tests pass.\n")
        XCTAssertEqual(sandbox.run(["summarize", "--format", "table", "plan.txt"]).stdout,
                       "#\tSentence\n1\tThe plan is ready.\n2\tWe ship on Monday.\n3\tTests pass.\n",
                       "a plain-text engine gets a table as tab-separated lines")
        XCTAssertEqual(sandbox.read("plan.txt"), "The plan is ready. We ship on Monday. Tests pass.\n")
        let written = sandbox.run(["summarize", "--write", "plan.txt"])
        XCTAssertEqual(written.status, 0, written.stderr)
        XCTAssertEqual(sandbox.read("plan.txt"), "The plan is ready.\n", "the file's final newline stays")
        XCTAssertEqual(sandbox.run(["summarize", "--format", "poem", "plan.txt"]).status, 2)
    }

    func testComposeAloneAndIntoAFile() {
        let alone = sandbox.run(["compose", "--prompt", "thanks for the quick review"])
        XCTAssertEqual(alone.status, 0, alone.stderr)
        XCTAssertEqual(alone.stdout, "Thanks for the quick review.\n")
        sandbox.write("mail.txt", "Hello,\n")
        XCTAssertEqual(sandbox.run(["compose", "--prompt", "see you soon", "--write", "mail.txt"]).status, 0)
        XCTAssertEqual(sandbox.read("mail.txt"), "Hello,\nSee you soon.\n", "the file still ends with its newline")
        XCTAssertEqual(sandbox.run(["compose", "--prompt", "dear all", "--selection", "0", "--write", "mail.txt"]).status, 0)
        XCTAssertEqual(sandbox.read("mail.txt"), "Dear all.\nHello,\nSee you soon.\n", "composed text stands apart from what follows")
        XCTAssertEqual(sandbox.run(["compose", "mail.txt"]).status, 2, "--prompt is required")
    }

    /// follow-up rebuilds the last rewrite's session (original, then the stored result) and
    /// refines it; written or not, it can go on refining.
    func testFollowUpRefinesTheLastRewrite() throws {
        let text = "I'm happy. It's done.\n"
        sandbox.write("f.txt", text)
        let none = sandbox.run(["follow-up", "make it warmer", "f.txt"])
        XCTAssertEqual(none.status, 2)
        XCTAssertTrue(none.stderr.contains("no earlier rewrite to follow up on"), none.stderr)

        XCTAssertEqual(sandbox.run(["rewrite", "--tone", "professional", "f.txt"]).stdout, "I am happy. It is done.\n")
        let poor = sandbox.run(["rewrite", "--tone", "concise", "f.txt"])
        XCTAssertEqual(poor.status, 5, "a rewrite that changes nothing is a poor result")
        XCTAssertTrue(poor.stderr.contains("the result is poor, so nothing was applied"), poor.stderr)
        XCTAssertEqual(sandbox.read("f.txt"), text)
        XCTAssertEqual(sandbox.run(["rewrite", "--tone", "professional", "f.txt"]).status, 0, "the follow-up state is this rewrite's")
        let upper = sandbox.run(["follow-up", "now in upper case", "f.txt"])
        XCTAssertEqual(upper.status, 0, upper.stderr)
        XCTAssertEqual(upper.stdout, "I AM HAPPY. IT IS DONE.\n")
        XCTAssertEqual(sandbox.read("f.txt"), text)

        // The state lives under $XDG_STATE_HOME/emend/rewrites, keyed by the absolute path.
        let states = try FileManager.default.contentsOfDirectory(atPath: sandbox.root + "/state/emend/rewrites")
        XCTAssertEqual(states.count, 1)

        let warmer = sandbox.run(["follow-up", "make it warmer", "--write", "f.txt"])
        XCTAssertEqual(warmer.status, 5, "friendly changes nothing in the upper-case result: a poor result")
        XCTAssertTrue(warmer.stderr.contains("the result is poor"), warmer.stderr)
        XCTAssertEqual(sandbox.read("f.txt"), text, "a poor follow-up writes nothing")
        let lower = sandbox.run(["follow-up", "lower case please", "--write", "f.txt"])
        XCTAssertEqual(lower.status, 0, lower.stderr)
        XCTAssertEqual(sandbox.read("f.txt"), "i am happy. it is done.\n")

        // A file edited elsewhere meanwhile: the result is no longer there.
        sandbox.write("f.txt", "Something else entirely.\n")
        let changed = sandbox.run(["follow-up", "make it warmer", "f.txt"])
        XCTAssertEqual(changed.status, 2)
        XCTAssertTrue(changed.stderr.contains("changed since its last rewrite"), changed.stderr)
    }

    func testRewriteFailuresAndUsage() {
        sandbox.write("x.txt", "Make it [fixture:fail] now.\n")
        let failed = sandbox.run(["rewrite", "--tone", "friendly", "x.txt"])
        XCTAssertEqual(failed.status, 3, failed.stderr)
        XCTAssertTrue(failed.stderr.contains("x.txt: org.emend.fixture: fixture: the text asked for a failure"), failed.stderr)
        let noTone = sandbox.run(["rewrite", "x.txt"])
        XCTAssertEqual(noTone.status, 2)
        XCTAssertTrue(noTone.stderr.contains("--tone friendly|professional|concise"), noTone.stderr)
        sandbox.write("y.txt", "Plain words.\n")
        let unknownChange = sandbox.run(["rewrite", "--describe", "in the style of a pirate", "y.txt"])
        XCTAssertEqual(unknownChange.status, 3, "the fixture has no rule for that change")
    }
}

/// The fact guard on the command line: a result that changes a fact is printed as a poor
/// result with what changed (exit 5, apart from a provider's failure or timeout: 3) and never
/// written, unless --force.
final class FactGuardCommandTests: XCTestCase {
    func testAChangedFactFailsWithTheReasonUnlessForced() {
        let sandbox = CLISandbox()
        let text = "We meet [fixture:fabricate] to plan.\n"
        sandbox.write("n.txt", text)
        let refused = sandbox.run(["rewrite", "--tone", "professional", "--write", "n.txt"])
        XCTAssertEqual(refused.status, 5, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("the result is poor, so nothing was applied"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("adds ‘Monday’"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("adds ‘5pm’"), refused.stderr)
        XCTAssertEqual(sandbox.read("n.txt"), text, "nothing written")

        let forced = sandbox.run(["rewrite", "--tone", "professional", "--force", "--write", "n.txt"])
        XCTAssertEqual(forced.status, 0, forced.stderr)
        XCTAssertTrue(forced.stderr.contains("warning:") && forced.stderr.contains("--force"), forced.stderr)
        XCTAssertEqual(sandbox.read("n.txt"), "We meet on Monday at 5pm to plan.\n")
    }
}
