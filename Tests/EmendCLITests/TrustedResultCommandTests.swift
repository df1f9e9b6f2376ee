import Foundation
import XCTest

/// Results a person can trust, on the command line, with the model's own answer handed to
/// the fixture (EMEND_FIXTURE_ANSWER): invented numbers in a table's cells are caught, a
/// forced summary keeps dropped links and code as paragraphs of their own, a follow-up loses
/// the model's chatter, and a timeout says it is one.
final class TrustedResultCommandTests: XCTestCase {
    private var sandbox: CLISandbox!

    override func setUp() {
        sandbox = CLISandbox()
    }

    func testATableWithInventedNumbersIsNotApplied() {
        let note = "Party at my place on Saturday, starting at 5. Alice brings the cake, Carol the drinks and Bob the music.\n"
        sandbox.write("party.txt", note)
        sandbox.environment["EMEND_FIXTURE_ANSWER"] =
            "| Time | Guest | Host |\n| --- | --- | --- |\n| 5 | alice | bob |\n| 10 | carol | bob |\n| 20 | bob | bob |\n| 30 | bob | bob |"
        let refused = sandbox.run(["summarize", "--format", "table", "--write", "party.txt"])
        XCTAssertEqual(refused.status, 5, "a poor result, not a provider failure: \(refused.stderr)")
        XCTAssertTrue(refused.stderr.contains("adds ‘10’, adds ‘20’, adds ‘30’"), refused.stderr)
        XCTAssertEqual(sandbox.read("party.txt"), note, "nothing written")

        sandbox.environment["EMEND_FIXTURE_ANSWER"] = "| Who | Brings |\n| --- | --- |\n| Alice | the cake |\n| Carol | the drinks |\n| Bob | the music |"
        let kept = sandbox.run(["summarize", "--format", "table", "party.txt"])
        XCTAssertEqual(kept.status, 0, kept.stderr)
        XCTAssertEqual(kept.stdout, "Who\tBrings\nAlice\tthe cake\nCarol\tthe drinks\nBob\tthe music\n")
    }

    func testAForcedSummaryPutsDroppedLinksAndCodeAfterItNotIntoASentence() {
        let note = "The deploy script moved. See https://example.com/deploy for the details, and run it like this:\n\n```\n./deploy.sh --prod\n```\n\nAsk Dana before Friday if anything breaks.\n"
        sandbox.write("deploy.md", note)
        sandbox.environment["EMEND_FIXTURE_ANSWER"] = "The deploy script moved; ask Dana before Friday if anything breaks."
        for arguments in [["summarize", "deploy.md"], ["summarize", "--force", "deploy.md"]] {
            let result = sandbox.run(arguments)
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(result.stdout,
                           "The deploy script moved; ask Dana before Friday if anything breaks.\n\nhttps://example.com/deploy\n\n```\n./deploy.sh --prod\n```\n")
            XCTAssertFalse(result.stderr.contains("adds"), "the link is the note's: \(result.stderr)")
        }
    }

    func testAFollowUpLosesTheModelsChatter() {
        sandbox.write("f.txt", "I'm happy. It's done.\n")
        XCTAssertEqual(sandbox.run(["rewrite", "--tone", "professional", "f.txt"]).status, 0)
        sandbox.environment["EMEND_FIXTURE_ANSWER"] = "Here's a revised version of the text:\n\nI am very happy. It is completely done.\n\n"
            + "This rephrased sentence aims to sound more emphatic while keeping the original meaning."
        let result = sandbox.run(["follow-up", "make it more emphatic", "--write", "f.txt"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "I am very happy. It is completely done.\n")
        XCTAssertEqual(sandbox.read("f.txt"), "I am very happy. It is completely done.\n", "the file's final newline stays")
    }

    func testATimeoutSaysItTimedOutAndNamesTimeout() {
        sandbox.write("slow.txt", "We meet at 5. Bring the notes.\n")
        sandbox.environment["EMEND_FIXTURE_CHUNK_DELAY_MS"] = "700"
        let result = sandbox.run(["rewrite", "--tone", "professional", "--timeout", "1", "slow.txt"])
        XCTAssertEqual(result.status, 3, "a timeout is no result, not a poor one (5): \(result.stderr)")
        XCTAssertTrue(result.stderr.contains("timed out: the provider did not finish within 1 s"), result.stderr)
        XCTAssertTrue(result.stderr.contains("--timeout SECONDS"), result.stderr)
        XCTAssertFalse(result.stderr.contains("poor"), result.stderr)
    }
}
