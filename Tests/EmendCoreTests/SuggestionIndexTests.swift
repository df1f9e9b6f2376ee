import XCTest
import EmendText
@testable import EmendCore

/// The index merging uses, against a pass over every suggestion (what merging did before).
final class SuggestionIndexTests: XCTestCase {
    func testSearchesAgreeWithAPassOverEverySuggestion() {
        var rng = SystemRandomNumberGenerator()
        let text = String(repeating: "abcdefghij", count: 20)
        for _ in 0..<300 {
            let context = SessionContext(id: 1, description: ContextDescription(text: AttributedText(text), selection: 0..<0))
            // Suggestions of every length, overlapping or not, empty ones included; some out of
            // the text (their anchors released), some invalid.
            let suggestions = (0..<Int.random(in: 0...30, using: &rng)).map { _ -> Suggestion in
                let start = Int.random(in: 0...190, using: &rng)
                let range = start..<(start + Int.random(in: 0...(Bool.random(using: &rng) ? 2 : 9), using: &rng))
                let suggestion = Suggestion(contextID: 1, anchor: context.anchor(range), original: "", edit: ProviderEdit(range: range, replacement: "x"),
                                            originalRange: range)
                if Int.random(in: 0..<5, using: &rng) == 0 { suggestion.state = .invalid }
                if Int.random(in: 0..<5, using: &rng) == 0 { suggestion.anchor.range = nil }
                return suggestion
            }
            let index = SuggestionIndex(suggestions)
            for _ in 0..<40 {
                let start = Int.random(in: 0...200, using: &rng)
                let range = start..<min(200, start + Int.random(in: 0...6, using: &rng))
                let expected = suggestions.filter { $0.state != .invalid && Coordinator.conflicts($0.originalRange, range) }
                let found = index.overlapping(range, conflicts: Coordinator.conflicts)
                XCTAssertEqual(Set(found.map(ObjectIdentifier.init)), Set(expected.map(ObjectIdentifier.init)), "\(range)")
                let before = suggestions.filter { $0.originalRange.upperBound <= range.lowerBound && $0.anchor.range != nil }
                let nearest = index.nearest(endingAtOrBefore: range.lowerBound)
                XCTAssertEqual(nearest?.originalRange.upperBound, before.map(\.originalRange.upperBound).max(), "\(range)")
                if let nearest { XCTAssertNotNil(nearest.anchor.range) }
            }
        }
    }
}
