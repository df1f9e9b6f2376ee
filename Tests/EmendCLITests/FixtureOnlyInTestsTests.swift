import Foundation
import XCTest

/// The built-in fixture provider serves tests only (`EMEND_TEST_FIXTURE=1`): in a real
/// install it is neither listed nor used, so a user with no model installed is told so
/// (exit 3, as the man page says) instead of getting its canned answers.
final class FixtureOnlyInTestsTests: XCTestCase {
    private func realUser() -> CLISandbox {
        let sandbox = CLISandbox()
        sandbox.environment["EMEND_TEST_FIXTURE"] = nil
        return sandbox
    }

    func testWithoutAModelARewriteSaysNoModelIsInstalled() {
        let sandbox = realUser()
        let text = "I am sure it is fine.\n"
        sandbox.write("r.txt", text)
        let rewrite = sandbox.run(["rewrite", "--tone", "friendly", "--write", "r.txt"])
        XCTAssertEqual(rewrite.status, 3, rewrite.stderr)
        XCTAssertTrue(rewrite.stderr.contains("no enabled provider serves rewrite-friendly: no model is installed; `emend doctor` says what to install"),
                      rewrite.stderr)
        XCTAssertFalse(rewrite.stderr.contains("fixture"), rewrite.stderr)
        XCTAssertEqual(rewrite.stdout, "")
        XCTAssertEqual(sandbox.read("r.txt"), text)

        let proofread = sandbox.run(["proofread", "r.txt"])
        XCTAssertEqual(proofread.status, 3, proofread.stderr)
        XCTAssertTrue(proofread.stderr.contains("no checker is installed"), proofread.stderr)
    }

    func testTheFixtureIsListedOnlyWhenATestAsksForIt() {
        let sandbox = realUser()
        let providers = sandbox.run(["providers"])
        XCTAssertFalse(providers.stdout.contains("org.emend.fixture"), providers.stdout)
        let doctor = sandbox.run(["doctor", "--quick"])
        XCTAssertTrue(doctor.stdout.contains("no provider serves them (no model is installed)"), doctor.stdout)
        XCTAssertFalse(doctor.stdout.contains("test fixture"), doctor.stdout)

        sandbox.environment["EMEND_TEST_FIXTURE"] = "1"
        XCTAssertTrue(sandbox.run(["providers"]).stdout.contains("org.emend.fixture"))
        let doctorInATest = sandbox.run(["doctor", "--quick"])
        XCTAssertTrue(doctorInATest.stdout.contains("only the test fixture serves them"), doctorInATest.stdout)
    }
}
