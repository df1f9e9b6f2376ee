import XCTest
@testable import EmendCore
import EmendText

/// An engine edit finds the suggestions it is in by halving (`TouchedSuggestions`), with
/// emend.h's rule (CHANGES, INVALID) unchanged: the same suggestions as looking at each, and a
/// number of places read that does not grow with the session.
final class TouchedSuggestionsTests: XCTestCase {
    private let word = "teh cat. "
    private let count = 4096

    private func proofread(_ count: Int) throws -> (TestEngine, Coordinator) {
        let engine = TestEngine(String(repeating: word, count: count))
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.proofread)
        try engine.run(coordinator, timeoutMilliseconds: 60_000)
        XCTAssertEqual(coordinator.suggestionCount, count)
        return (engine, coordinator)
    }

    /// The suggestions an edit of `range` would be in, checked against looking at each, and
    /// how many places the search read.
    private func touched(_ coordinator: Coordinator, _ range: Range<Int>,
                         file: StaticString = #filePath, line: UInt = #line) throws -> TouchedSuggestions {
        let session = try XCTUnwrap(coordinator.session)
        let found = TouchedSuggestions(in: session.suggestions, edited: range)
        XCTAssertEqual(found.indices, TouchedSuggestions.byLookingAtEach(session.suggestions, contextID: coordinator.contextIDs[0],
                                                                         edited: range), "edit \(range)", file: file, line: line)
        return found
    }

    private func type(_ engine: TestEngine, _ coordinator: Coordinator, _ range: Range<Int>, _ text: String) throws {
        engine.edit(range, text)
        try coordinator.updateRange(contextID: coordinator.contextIDs[0], range: range, text: text, reason: .typing)
    }

    /// Where suggestion `index` ("the" of the `index`th word) is while every word is as made.
    private func word(_ index: Int) -> Range<Int> { (index * word.utf8.count)..<(index * word.utf8.count + 3) }

    /// The edge rules, among thousands of suggestions: an insertion strictly inside one and an
    /// edit overlapping one are in it, an insertion at an edge or an edit of the text between
    /// two is beside them; an edit over several is in each; an edit of an INVALID one's last
    /// place (and only there) joins it again. Each edit reads a few dozen places, not thousands.
    func testAnEditIsInTheSuggestionsItOverlapsAndReadsFewPlaces() throws {
        let (engine, coordinator) = try proofread(count)
        // log2(4096) = 12 halvings, each reading one place, then the run that is touched and
        // the one after it.
        let bound = 2 * 13 + 4
        func check(_ range: Range<Int>, _ expected: [Int], file: StaticString = #filePath, line: UInt = #line) throws {
            let found = try touched(coordinator, range, file: file, line: line)
            XCTAssertEqual(found.indices, expected, "edit \(range)", file: file, line: line)
            XCTAssertLessThanOrEqual(found.probes, bound + expected.count, "edit \(range)", file: file, line: line)
        }
        let middle = count / 2
        try check(word(middle).lowerBound..<word(middle).lowerBound, [])              // at its start: beside it
        try check(word(middle).upperBound..<word(middle).upperBound, [])              // at its end: beside it
        try check((word(middle).lowerBound + 1)..<(word(middle).lowerBound + 1), [middle])   // strictly inside
        try check(word(middle).upperBound..<word(middle + 1).lowerBound, [])          // the text between two
        try check((word(middle).upperBound - 1)..<(word(middle + 1).lowerBound + 1), [middle, middle + 1])
        try check(word(10).lowerBound..<word(20).upperBound, Array(10...20))
        try check(0..<0, [])
        try check(word(count - 1).upperBound..<engine.text.utf8.count, [])
        try check(word(count - 1).lowerBound..<engine.text.utf8.count, [count - 1])

        // Deleting a word invalidates it; its last place is where the deletion left nothing.
        try type(engine, coordinator, word(middle), "")
        XCTAssertEqual(coordinator.suggestions[middle].state, .invalid)
        XCTAssertEqual(coordinator.suggestions[middle].range, word(middle).lowerBound..<word(middle).lowerBound)
        let s = word(middle).lowerBound
        // Typing there now: an insertion at an empty last place is beside it.
        try check(s..<s, [])
        // An edit from there into the next suggestion is in that one only: the empty last
        // place is at the edit's start, beside it.
        let next = try XCTUnwrap(coordinator.suggestions[middle + 1].range)
        XCTAssertEqual(next, (s + 6)..<(s + 9))
        try check(s..<(next.lowerBound + 1), [middle + 1])
        try type(engine, coordinator, s..<(next.lowerBound + 1), "XY")
        XCTAssertEqual(coordinator.suggestions[middle + 1].state, .invalid)
        XCTAssertEqual(coordinator.suggestions[middle].range, s..<s)
        XCTAssertEqual(coordinator.suggestions[middle + 1].range, s..<(s + 4))
        // An edit around the empty last place is in it, and in the overlapping last place
        // after it: both join the edit's new text.
        try check((s - 1)..<(s + 1), [middle, middle + 1])
        try type(engine, coordinator, (s - 1)..<(s + 1), "Z")
        XCTAssertEqual(coordinator.suggestions[middle].range, (s - 1)..<s)
        XCTAssertEqual(coordinator.suggestions[middle + 1].range, (s - 1)..<(s + 3))
        // The suggestions around them are as they were, and the offset search still finds them.
        XCTAssertEqual(coordinator.suggestions[middle - 1].state, .pending)
        XCTAssertEqual(coordinator.suggestions[middle + 2].state, .pending)
        XCTAssertEqual(try coordinator.suggestionIndex(contextID: coordinator.contextIDs[0], offset: word(middle - 1).lowerBound), middle - 1)
        let after = try XCTUnwrap(coordinator.suggestions[middle + 2].range)
        XCTAssertEqual(try coordinator.suggestionIndex(contextID: coordinator.contextIDs[0], offset: after.lowerBound), middle + 2)
        XCTAssertEqual(coordinator.session?.placedSuggestions.count, count - 2)
        XCTAssertFalse(coordinator.session?.placedSuggestions.contains(middle) ?? true)
        XCTAssertFalse(coordinator.session?.placedSuggestions.contains(middle + 1) ?? true)
    }

    /// Seeded random engine edits, accepts, rejects, undos and redos over a proofread: before
    /// every edit, halving finds exactly the suggestions looking at each finds (updateRange
    /// checks the same in debug builds), every one it finds becomes INVALID, and revert puts
    /// back the original with the engine's edits kept.
    func testRandomEditsAndStepsFindWhatLookingAtEachFinds() throws {
        for seed in UInt64(1)...4 {
            let (engine, coordinator) = try proofread(300)
            var rng = SplitMix64(seed: seed)
            func random(_ n: Int) -> Int { Int(rng.next() % UInt64(max(1, n))) }
            for _ in 0..<200 {
                switch random(10) {
                case 0:
                    if let index = (0..<4).lazy.map({ _ in random(coordinator.suggestionCount) })
                        .first(where: { coordinator.suggestion(at: $0)?.state == .pending }) {
                        try coordinator.acceptSuggestion(index)
                    }
                case 1:
                    if let index = (0..<4).lazy.map({ _ in random(coordinator.suggestionCount) })
                        .first(where: { coordinator.suggestion(at: $0)?.state == .pending }) {
                        try coordinator.rejectSuggestion(index)
                    }
                case 2: _ = try? coordinator.undo()
                case 3: _ = try? coordinator.redo()
                default:
                    let length = engine.text.utf8.count
                    let start = random(length + 1)
                    let end = min(length, start + [0, 0, 1, 3, 9, 40][random(6)])
                    // Whole characters only: the text is ASCII.
                    let text = ["", "x", "ab", " ", "teh"][random(5)]
                    let found = try touched(coordinator, start..<end, line: #line)
                    // An update that changes nothing is no edit (emend.h): it invalidates nothing.
                    let changes = Array(engine.text.utf8)[start..<end] != ArraySlice(text.utf8)
                    try type(engine, coordinator, start..<end, text)
                    let session = try XCTUnwrap(coordinator.session)
                    for index in found.indices where changes {
                        XCTAssertEqual(session.suggestions[index].state, .invalid, "seed \(seed)")
                    }
                }
                try engine.run(coordinator, timeoutMilliseconds: 60_000)
                let session = try XCTUnwrap(coordinator.session)
                let placed = session.suggestions.indices.filter { session.suggestions[$0].state != .invalid }
                XCTAssertEqual(session.placedSuggestions, placed, "seed \(seed)")
            }
            try coordinator.revert()
            try engine.run(coordinator, timeoutMilliseconds: 60_000)
            XCTAssertNil(coordinator.session)
        }
    }
}
