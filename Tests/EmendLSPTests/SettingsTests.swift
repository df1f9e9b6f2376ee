import XCTest
import EmendCore
@testable import EmendLSP

final class SettingsTests: XCTestCase {
    func testClientSettingsOverrideDefaultsAndReportWrongTypes() {
        let json: JSON = ["emend": ["language": "en-GB", "providers": ["proofread": ["a", "b"], "rewrite": "m"],
                                    "severity": ["spelling": "hint", "default": 2, "grammar": "loud"],
                                    "ignoredRules": ["R1"], "debounceMs": 10]]
        let (settings, problems) = ServerSettings().merged(with: json)
        XCTAssertEqual(settings.language, "en-GB")
        XCTAssertEqual(settings.providers[.proofread], ["a", "b"])
        XCTAssertEqual(settings.providers[.rewriteConcise], ["m"], "\"rewrite\" names every tone")
        XCTAssertEqual(settings.severity(for: "Spelling"), 4)
        XCTAssertEqual(settings.severity(for: "grammar"), 2, "an unknown level keeps the default for the category")
        XCTAssertEqual(settings.severity(for: "typography"), 2)
        XCTAssertEqual(settings.ignoredRules, ["R1"])
        XCTAssertEqual(settings.debounceMilliseconds, 10)
        XCTAssertEqual(problems.count, 1)
    }

    func testPositionEncodingNegotiation() {
        XCTAssertEqual(PositionEncodingKind.negotiate(nil), .utf16)
        XCTAssertEqual(PositionEncodingKind.negotiate(["utf-32", "utf-8"]), .codePoint)
        XCTAssertEqual(PositionEncodingKind.negotiate(["latin-1", "utf-8"]), .utf8)
        XCTAssertEqual(PositionEncodingKind.negotiate([]), .utf16)
    }
}
