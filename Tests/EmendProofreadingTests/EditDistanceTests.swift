import XCTest
@testable import EmendProofreading
import EmendText

/// Edit distances: ASCII words are compared byte by byte, everything else by character; both
/// give the same distances.
final class EditDistanceTests: XCTestCase {
    func testOneKeystrokeAndFarther() {
        XCTAssertEqual(EditDistance.distance("recieve", "receive"), 1, "a swap of neighbours is one edit")
        XCTAssertEqual(EditDistance.distance("tomorow", "tomorrow"), 1)
        XCTAssertEqual(EditDistance.distance("doign", "doing"), 1)
        XCTAssertEqual(EditDistance.distance("doign", "dig"), 2)
        XCTAssertEqual(EditDistance.distance("kitten", "sitting"), 3)
        XCTAssertEqual(EditDistance.distance("libjpeg", "libel", limit: 2), 3, "capped at limit + 1")
        XCTAssertEqual(EditDistance.distance("", "abc"), 3)
        XCTAssertTrue(EditDistance.withinOne("café", "cafe"))
    }

    func testKnownDistances() {
        XCTAssertEqual(EditDistance.distance("teh", "the"), 1)          // two letters swapped
        XCTAssertEqual(EditDistance.distance("wensday", "wednesday"), 2)
        XCTAssertEqual(EditDistance.distance("café", "cafe"), 1)
        XCTAssertEqual(EditDistance.distance("naïve", "naive"), 1)
        XCTAssertEqual(EditDistance.distance("a\r\nb", "a\nb"), 1, "CR LF is one character")
        XCTAssertEqual(EditDistance.distance("kitten", "sitting", limit: 2), 3, "capped at limit + 1")
    }

    /// A shared ending changes no distance: with a non-ASCII one the same words go the
    /// character way, so both ways must agree.
    func testTheByteWayAgreesWithTheCharacterWay() {
        var rng = SystemRandomNumberGenerator()
        let letters = Array("abcde")
        for _ in 0..<3_000 {
            let a = String((0..<Int.random(in: 0...8, using: &rng)).map { _ in letters.randomElement(using: &rng)! })
            let b = String((0..<Int.random(in: 0...8, using: &rng)).map { _ in letters.randomElement(using: &rng)! })
            let limit = Int.random(in: 1...8, using: &rng)
            XCTAssertEqual(EditDistance.distance(a, b, limit: limit), EditDistance.distance(a + "é", b + "é", limit: limit), "\(a) \(b) \(limit)")
        }
    }
}
