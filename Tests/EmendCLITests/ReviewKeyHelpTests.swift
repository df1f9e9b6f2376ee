import Foundation
import XCTest
import EmendTestSupport

/// Every key an interactive review takes is named where a person looks for it: in its `?`
/// help, in the command's --help (and so in the man pages generated from it) and, for
/// proofread, in the examples of `emend --help`. The keys are read from the review's own
/// prompt on a terminal, so a key the review takes but the help leaves out fails here.
final class ReviewKeyHelpTests: XCTestCase {
    private var sandbox: CLISandbox!

    override func setUp() {
        sandbox = CLISandbox()
        sandbox.write("review.txt", "We will recieve teh parts.\n")
        sandbox.write("r.txt", "I am sure it is fine. We are ready, do not worry.\n")
    }

    /// The keys a review's prompt offers ("[y,n,a,d,q,?]"), read on the terminal, after which
    /// `?` is typed and each key must have a line of its own in the help it shows; then quits.
    private func offeredKeys(_ arguments: [String], question: String, file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        let run = try PseudoTerminalRun(sandbox, arguments, environment: ["NO_COLOR": "1"])
        run.waitFor("\(question) [", file: file, line: line)
        run.waitFor("]? ", file: file, line: line)
        guard let start = run.screen.range(of: "\(question) ["), let end = run.screen.range(of: "]? ", range: start.upperBound..<run.screen.endIndex) else {
            XCTFail("no prompt on the terminal: \(run.screen)", file: file, line: line)
            return []
        }
        let keys = run.screen[start.upperBound..<end.lowerBound].split(separator: ",").map(String.init)
        XCTAssertTrue(keys.count >= 5 && keys.contains("?"), "\(keys)", file: file, line: line)
        run.type("?")
        for key in keys { run.waitFor("\n\(key) - ", file: file, line: line) }
        run.type("q")
        XCTAssertEqual(run.finish(), 0, file: file, line: line)
        return keys
    }

    /// The --interactive option's help of `emend COMMAND --help`, its lines joined.
    private func interactiveHelp(_ command: String, file: StaticString = #filePath, line: UInt = #line) -> String {
        let help = sandbox.run([command, "--help"])
        XCTAssertEqual(help.status, 0, help.stderr, file: file, line: line)
        let text = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        guard let option = text.range(of: "--interactive Review") else {
            XCTFail("no --interactive in emend \(command) --help:\n\(help.stdout)", file: file, line: line)
            return ""
        }
        let rest = text[option.upperBound...]
        return String(rest[..<(rest.range(of: " --")?.lowerBound ?? rest.endIndex)])
    }

    /// Whether `help` names `key` as the option's help lists keys: ": y accept", ", ? help".
    private func names(_ help: String, _ key: String) -> Bool {
        help.contains(": \(key) ") || help.contains(", \(key) ")
    }

    func testProofreadHelpNamesEveryKeyTheReviewTakes() throws {
        let keys = try offeredKeys(["proofread", "--interactive", "review.txt"], question: "Apply this change")
        XCTAssertEqual(keys, ["y", "n", "w", "a", "d", "q", "?"])
        let help = interactiveHelp("proofread")
        for key in keys { XCTAssertTrue(names(help, key), "emend proofread --help leaves out \(key): \(help)") }
        let top = sandbox.run(["--help"]).stdout
        XCTAssertTrue(top.contains("emend proofread --interactive notes.md   # one by one: " + keys.joined(separator: ", ") + "\n"), top)
    }

    func testRewriteFollowUpAndComposeHelpNameEveryKeyTheReviewTakes() throws {
        let keys = try offeredKeys(["rewrite", "--tone", "friendly", "--interactive", "r.txt"], question: "Keep this change")
        XCTAssertEqual(keys, ["y", "n", "a", "d", "q", "?"])
        // follow-up and compose review with the same prompt (RewriteReview).
        for command in ["rewrite", "follow-up", "compose"] {
            let help = interactiveHelp(command)
            for key in keys { XCTAssertTrue(names(help, key), "emend \(command) --help leaves out \(key): \(help)") }
        }
    }
}
