import XCTest
@testable import EmendCore
import EmendText

/// Reviewing the changes of a rewrite of styled text: a rejected change's original comes back
/// as it was, styling included, not as plain text; undoing the reject puts the rewritten
/// words back with theirs.
final class ChangeReviewStylingTests: XCTestCase {
    static let original = "I do not think the report is ready."

    private func reviewed() throws -> (TestEngine, Coordinator) {
        let engine = TestEngine(Self.original)
        engine.attributeRuns = [AttributeRun(range: byteRange(of: "do not think", in: Self.original)!, key: "bold", value: "1"),
                                AttributeRun(range: byteRange(of: "report", in: Self.original)!, key: "link", value: "https://example.org/r")]
        var options = CoordinatorOptions()
        options.preferredResultOptions = [.richText]
        let coordinator = try makeCoordinator(engine, options: options)
        try coordinator.start(.rewriteFriendly)
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "I don't think the report is ready!")
        XCTAssertEqual(try coordinator.reviewChanges(), 2)
        try engine.run(coordinator)
        XCTAssertEqual(coordinator.suggestions.map(\.original), ["do not", "."])
        return (engine, coordinator)
    }

    func testARejectedChangeComesBackWithItsStyling() throws {
        let (engine, coordinator) = try reviewed()
        try coordinator.rejectSuggestion(0)
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "I do not think the report is ready!")
        let reject = try XCTUnwrap(engine.replaces.last)
        XCTAssertEqual(reject.kind, .suggestionReject)
        XCTAssertEqual(reject.text, "do not")
        XCTAssertTrue(reject.styled, "the original goes back styled, as a restore does")
        XCTAssertEqual(Set(reject.attributeRuns.filter { $0.key == "bold" && $0.value == "1" }.flatMap { Array($0.range) }), Set(0..<6),
                       "bold over all of “do not”: \(reject.attributeRuns)")
        XCTAssertEqual(engine.attributeRuns.filter { $0.key == "bold" }.map { substring(engine.text, $0.range) }.joined(), "do not think",
                       "bold over “do not think” again: \(engine.attributeRuns)")
        XCTAssertTrue(engine.attributeRuns.contains(AttributeRun(range: byteRange(of: "report", in: engine.text)!, key: "link",
                                                                 value: "https://example.org/r")), "\(engine.attributeRuns)")

        // Undo puts the rewritten words back, with the styling they had.
        try coordinator.undo()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "I don't think the report is ready!")
        XCTAssertTrue(engine.replaces.last?.styled ?? false)
        let bold = engine.attributeRuns.filter { $0.key == "bold" }.map { substring(engine.text, $0.range) }.joined()
        XCTAssertEqual(bold, "don't think", "\(engine.attributeRuns)")

        // Revert still gives the original back byte for byte, and its styling.
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, Self.original)
        XCTAssertEqual(engine.attributeRuns.filter { $0.key == "bold" }.map { substring(engine.text, $0.range) }.joined(), "do not think")
    }
}
