import Foundation
import XCTest

/// A proofread whose second checker runs past its time limit is reported as partial: the
/// suggestions of the checker that answered, a warning naming the late one and the setting
/// to raise, and exit status 4 (never "no suggestions" with exit 0).
final class PartialResultTests: XCTestCase {
    private var sandbox: CLISandbox!

    override func setUp() {
        sandbox = CLISandbox()
        try! FileManager.default.createDirectory(atPath: sandbox.root + "/config/emend", withIntermediateDirectories: true)
    }

    private func configure(_ text: String) {
        try! text.write(toFile: sandbox.root + "/config/emend/config.toml", atomically: true, encoding: .utf8)
    }

    private let twoCheckers = """
        [tools]
        proofread = ["org.emend.fixture", "org.emend.fixture.slow"]
        [providers."org.emend.fixture.slow"]
        timeout_ms = 300

        """

    func testACheckerPastItsTimeLimitMakesAPartialResultWithExitFour() {
        configure(twoCheckers)
        sandbox.environment["EMEND_FIXTURE_SLOW_CHECKER_MS"] = "20000"
        sandbox.write("late.txt", "I beleive it.\n")
        let started = Date()
        let result = sandbox.run(["proofread", "late.txt"])
        XCTAssertEqual(result.status, 4, result.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(started), 15, "the late checker was left out at its limit, not waited for")
        XCTAssertTrue(result.stdout.contains("beleive"), "the suggestion of the checker that answered is shown: \(result.stdout)")
        let warning = result.stderr.split(separator: "\n").first { $0.contains("warning") }.map(String.init) ?? ""
        XCTAssertTrue(warning.contains("late.txt: partial result: org.emend.fixture.slow did not finish within 300 ms"), result.stderr)
        XCTAssertTrue(warning.contains("[providers.\"org.emend.fixture.slow\"] timeout_ms"), "names the setting to raise: \(warning)")
    }

    func testACheckerAlonePastItsLimitIsAPartialResultNotAFailedSession() {
        configure("""
            [tools]
            proofread = ["org.emend.fixture.slow"]
            [providers."org.emend.fixture.slow"]
            timeout_ms = 300

            """)
        sandbox.environment["EMEND_FIXTURE_SLOW_CHECKER_MS"] = "20000"
        sandbox.write("alone.txt", "I beleive it.\n")
        let started = Date()
        let result = sandbox.run(["proofread", "alone.txt"])
        XCTAssertEqual(result.status, 4, result.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(started), 15, "left out at its limit")
        XCTAssertTrue(result.stderr.contains("alone.txt: partial result: org.emend.fixture.slow did not finish within 300 ms"), result.stderr)
        // Within the command's --timeout too: partial (4), not a failed session (3).
        configure("[tools]\nproofread = [\"org.emend.fixture.slow\"]\n")
        let bounded = sandbox.run(["proofread", "--timeout", "3", "alone.txt"])
        XCTAssertEqual(bounded.status, 4, bounded.stderr)
        XCTAssertTrue(bounded.stderr.contains("--timeout"), bounded.stderr)
    }

    func testAPartialCleanResultIsNotReportedAsNoSuggestions() {
        configure(twoCheckers)
        sandbox.environment["EMEND_FIXTURE_SLOW_CHECKER_MS"] = "20000"
        sandbox.write("clean.txt", "All is well.\n")
        let result = sandbox.run(["proofread", "--json", "clean.txt"])
        XCTAssertEqual(result.status, 4, "a clean answer of one checker is not a clean file: \(result.stderr)")
        XCTAssertTrue(result.stderr.contains("partial result"), result.stderr)
        // LanguageTool's own flag for it, with the reason.
        let object = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let warnings = object?["warnings"] as? [String: Any]
        XCTAssertEqual(warnings?["incompleteResults"] as? Bool, true, result.stdout)
        XCTAssertTrue((warnings?["incompleteResultsReason"] as? String ?? "").contains("org.emend.fixture.slow"), result.stdout)
    }

    func testACheckerWithinItsLimitGivesAWholeResult() {
        configure(twoCheckers.replacingOccurrences(of: "timeout_ms = 300", with: "timeout_ms = 20000"))
        sandbox.environment["EMEND_FIXTURE_SLOW_CHECKER_MS"] = "100"
        sandbox.write("whole.txt", "I beleive it.\n")
        let result = sandbox.run(["proofread", "whole.txt"])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertFalse(result.stderr.contains("partial"), result.stderr)
        let json = sandbox.run(["proofread", "--json", "whole.txt"])
        let object = try? JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        XCTAssertEqual((object?["warnings"] as? [String: Any])?["incompleteResults"] as? Bool, false, json.stdout)
    }

    func testTheCommandsTimeoutBoundsEveryChecker() {
        configure("""
            [tools]
            proofread = ["org.emend.fixture", "org.emend.fixture.slow"]

            """)
        sandbox.environment["EMEND_FIXTURE_SLOW_CHECKER_MS"] = "60000"
        sandbox.write("t.txt", "I beleive it.\n")
        let result = sandbox.run(["proofread", "--timeout", "3", "t.txt"])
        XCTAssertEqual(result.status, 4, "the combination answers before the command's limit: \(result.stderr)")
        XCTAssertTrue(result.stderr.contains("--timeout"), "names the command's limit: \(result.stderr)")
        XCTAssertTrue(result.stdout.contains("beleive"), result.stdout)
    }

    /// A check that failed has no result: it is a failure (exit 3) that says why each checker
    /// gave nothing, never also a "partial result" (include/emend.h: a failed session's
    /// completeness is unknown), alone, among several files, and in the JSON.
    func testAFailedCheckIsAFailureWithItsReasonsNotAPartialResult() {
        configure(twoCheckers)
        sandbox.environment["EMEND_FIXTURE_SLOW_CHECKER_MS"] = "20000"
        sandbox.write("fail.txt", "This text asks for a failure [fixture:fail] tomorow.\n")
        sandbox.write("late.txt", "I beleive it.\n")
        let alone = sandbox.run(["proofread", "fail.txt"])
        XCTAssertEqual(alone.status, 3, alone.stderr)
        XCTAssertTrue(alone.stderr.contains("fail.txt: "), alone.stderr)
        XCTAssertTrue(alone.stderr.contains("the text asked for a failure"), "the failure's reason: \(alone.stderr)")
        XCTAssertTrue(alone.stderr.contains("org.emend.fixture.slow did not finish within 300 ms"), "and the other checker's: \(alone.stderr)")
        for phrase in ["partial", "left out", "warning"] {
            XCTAssertFalse(alone.stderr.contains(phrase), "\(phrase): \(alone.stderr)")
        }
        let many = sandbox.run(["proofread", "--json", "fail.txt", "late.txt"])
        XCTAssertEqual(many.status, 3, many.stderr)
        let object = try? JSONSerialization.jsonObject(with: Data(many.stdout.utf8)) as? [String: Any]
        let failed = object?["fail.txt"] as? [String: Any]
        XCTAssertEqual(failed?["exitStatus"] as? Int, 3, many.stdout)
        XCTAssertNil(failed?["warnings"], "no result, so nothing incomplete about it: \(many.stdout)")
        XCTAssertFalse((failed?["error"] as? String ?? "partial").contains("partial"), many.stdout)
        // The file that was checked is honestly partial beside it.
        let late = (object?["late.txt"] as? [String: Any])?["warnings"] as? [String: Any]
        XCTAssertEqual(late?["incompleteResults"] as? Bool, true, many.stdout)
        let warnings = many.stderr.split(separator: "\n").filter { $0.contains("partial") }
        XCTAssertEqual(warnings.count, 1, many.stderr)
        XCTAssertTrue(warnings.first?.contains("late.txt: partial result") ?? false, many.stderr)
    }

    func testABadTimeoutSettingIsAConfigurationError() {
        configure("[providers.\"org.emend.fixture\"]\ntimeout_ms = \"soon\"\n")
        sandbox.write("x.txt", "Text.\n")
        let result = sandbox.run(["proofread", "x.txt"])
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(result.stderr.contains("timeout_ms must be a whole number"), result.stderr)
    }
}
