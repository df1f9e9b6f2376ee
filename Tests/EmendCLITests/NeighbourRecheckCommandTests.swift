import Foundation
import XCTest

/// `--write` and `--diff` apply a suggestion unseen only while the checkers still propose it
/// once the suggestions before it in its sentence are applied (`NeighbourRecheck`): two
/// suggestions that read each other's words ("thanks for you're message" → "your messaged")
/// do not both go in, and independent neighbours ("They has a example") both do.
final class NeighbourRecheckCommandTests: XCTestCase {
    /// LanguageTool's pair on "you're message" (IN_YOU_RE_NN, BEEN_PART_AGREEMENT) and two
    /// independent neighbours, each proposed only where its whole pattern stands.
    private static let edits: [(String, String, String, String, String)] = [
        ("you're", "your", "grammar", "IN_YOU_RE_NN", "Did you mean “your”?"),
        ("message", "messaged", "grammar", "BEEN_PART_AGREEMENT", "Consider using a past participle here."),
        ("has", "have", "grammar", "HE_VERB_AGR", "Use “have” with “They”."),
        ("a", "an", "grammar", "EN_A_VS_AN", "Use “an” before a vowel."),
    ]
    private static let contexts = ["you're": "you're message", "message": "you're message", "has": "They has", "a": "a example"]

    func testNeighboursThatReadEachOtherAreNotBothApplied() throws {
        let sandbox = try ReplayChecker.sandbox(Self.edits, contexts: Self.contexts)
        let text = "Thanks for you're message. They has a example ready.\n"
        sandbox.write("note.txt", text)
        let diff = sandbox.run(["proofread", "--diff", "note.txt"], timeout: 120)
        XCTAssertEqual(diff.status, 1, diff.stderr)
        XCTAssertTrue(diff.stdout.contains("+Thanks for your message. They have an example ready."), diff.stdout)
        XCTAssertTrue(diff.stderr.contains("1 suggestion not applied (the checkers no longer propose it"), diff.stderr)

        let written = sandbox.run(["proofread", "--write", "note.txt"], timeout: 120)
        XCTAssertEqual(written.status, 0, written.stderr)
        XCTAssertEqual(sandbox.read("note.txt"), "Thanks for your message. They have an example ready.\n", written.stderr)
        XCTAssertTrue(written.stderr.contains("applied 3 suggestions"), written.stderr)

        let piped = sandbox.run(["proofread", "--write", "-"], stdin: text, timeout: 120)
        XCTAssertEqual(piped.stdout, "Thanks for your message. They have an example ready.\n", piped.stderr)

        // Shown for review all the same: the report lists all four.
        let report = sandbox.run(["proofread", "--json", "-"], stdin: text, timeout: 120)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])
        XCTAssertEqual((json["matches"] as? [Any])?.count, 4, report.stdout)
    }

    /// With LanguageTool (LingoTweaker) as discovered: the pair testers saw.
    func testTheRealCheckersDoNotWriteYourMessaged() throws {
        let sandbox = try RealCheckers.sandbox()
        sandbox.write("note.txt", "Hello Anna, thanks for you're message.\n")
        let written = sandbox.run(["proofread", "--write", "note.txt"], timeout: 300)
        XCTAssertTrue(written.status == 0 || written.status == 4, "\(written.status): \(written.stderr)")
        XCTAssertFalse(sandbox.read("note.txt").contains("messaged"), sandbox.read("note.txt") + written.stderr)
    }
}
