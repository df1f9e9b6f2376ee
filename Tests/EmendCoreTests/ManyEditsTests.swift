import XCTest
@testable import EmendCore
import EmendText

/// Very many edits, in any order, go to the engine over many dispatches; a stop in the
/// middle still puts the original back byte for byte, and what an ended session held is
/// freed over several dispatches. (How long a dispatch takes is measured in
/// benchmarks/swift/EditsBenchmark.swift, not here.)
final class ManyEditsTests: XCTestCase {
    /// Corrects every "teh" of the request to "the", in the order asked for.
    private final class OrderedProvider: WritingProvider, @unchecked Sendable {
        enum Order { case ascending, descending, shuffled }
        let id = "org.emend.test.ordered"
        let tools: Set<WritingTool> = [.proofread]
        let order: Order
        init(_ order: Order) { self.order = order }

        func run(_ request: ProviderRequest, sink: ProviderSink) -> ProviderOutcome {
            let bytes = Array(request.text.utf8)
            var starts: [Int] = []
            var index = request.selection.lowerBound
            while index + 3 <= request.selection.upperBound {
                if bytes[index..<(index + 3)].elementsEqual("teh".utf8) { starts.append(index) }
                index += 1
            }
            switch order {
            case .ascending: break
            case .descending: starts.reverse()
            case .shuffled:
                var rng = SplitMix64(seed: 7)
                starts.shuffle(using: &rng)
            }
            for start in starts {
                sink.emitEdit(ProviderEdit(range: start..<(start + 3), replacement: "the", category: "spelling"))
            }
            return .finished
        }
    }

    private let count = 2_000
    private var original: String { String(repeating: "teh cat. ", count: count) }
    private var corrected: String { String(repeating: "the cat. ", count: count) }

    private func coordinator(_ engine: TestEngine, _ order: OrderedProvider.Order, budget: DispatchBudget = .items(8)) throws -> Coordinator {
        var options = CoordinatorOptions()
        options.dispatchBudget = budget
        return try Coordinator(delegate: engine, options: options, providers: [OrderedProvider(order)])
    }

    /// Whatever order the provider emits its edits in, the suggestions are the same, in text
    /// order, and all of them go in.
    func testEditsInAnyOrderGiveTheSameSuggestionsInTextOrder() throws {
        var ranges: [[Range<Int>?]] = []
        for order in [OrderedProvider.Order.ascending, .descending, .shuffled] {
            let engine = TestEngine(original)
            let coordinator = try coordinator(engine, order, budget: .standard)
            try coordinator.start(.proofread)
            try engine.run(coordinator, timeoutMilliseconds: 60_000)
            XCTAssertEqual(engine.text, corrected, "\(order)")
            let suggestions = coordinator.suggestions
            XCTAssertEqual(suggestions.count, count, "\(order)")
            ranges.append(suggestions.map(\.range))
            try coordinator.revert()
            try engine.run(coordinator, timeoutMilliseconds: 60_000)
            XCTAssertEqual(engine.text, original, "\(order)")
        }
        XCTAssertEqual(ranges[0], ranges[1])
        XCTAssertEqual(ranges[0], ranges[2])
        XCTAssertEqual(ranges[0].compactMap { $0?.lowerBound }, ranges[0].compactMap { $0?.lowerBound }.sorted())
    }

    /// A huge proofread goes in over many dispatches; a stop while it goes in (here, after
    /// about half of it) puts the original back byte for byte.
    func testAStopWhileManyEditsGoInRestoresTheOriginal() throws {
        for order in [OrderedProvider.Order.descending, .shuffled] {
            let engine = TestEngine(original)
            let coordinator = try coordinator(engine, order)
            try coordinator.start(.proofread)
            var dispatches = 0
            XCTAssertTrue(try engine.pump(coordinator, timeoutMilliseconds: 60_000) {
                dispatches += 1
                return engine.replaces.count >= count / 2
            })
            XCTAssertNotEqual(engine.text, original)
            XCTAssertNotEqual(engine.text, corrected, "half of it is in")
            XCTAssertGreaterThan(dispatches, count / 8 / 2, "\(order): spread over dispatches")
            try coordinator.stop()
            try engine.run(coordinator, timeoutMilliseconds: 60_000)
            XCTAssertEqual(engine.text, original, "\(order)")
            XCTAssertEqual(coordinator.state, .inactive)
        }
    }

    /// Accept and revert wait while the result is being delivered (a step in flight), then
    /// work; accept keeps every change.
    func testAcceptWhileManyEditsGoInWaitsThenKeepsThemAll() throws {
        let engine = TestEngine(original)
        let coordinator = try coordinator(engine, .descending)
        try coordinator.start(.proofread)
        XCTAssertTrue(try engine.pump(coordinator, timeoutMilliseconds: 60_000) { engine.replaces.count >= count / 3 })
        XCTAssertThrowsEmend(.again) { try coordinator.accept() }
        XCTAssertThrowsEmend(.again) { try coordinator.revert() }
        try engine.run(coordinator, timeoutMilliseconds: 60_000)
        try coordinator.accept()
        try engine.run(coordinator, timeoutMilliseconds: 60_000)
        XCTAssertEqual(engine.text, corrected)
        XCTAssertEqual(coordinator.state, .inactive)
    }

    /// An ended session's suggestions are freed a slice per queue item: the session is gone
    /// at once (a new one may start), the freeing goes on over several dispatches, and the
    /// coordinator is idle once it is done.
    func testAnEndedSessionsSuggestionsAreFreedOverSeveralDispatches() throws {
        let count = SlicedRelease.slice * 2 + 100
        let corrected = String(repeating: "the cat. ", count: count)
        let engine = TestEngine(String(repeating: "teh cat. ", count: count))
        let coordinator = try coordinator(engine, .ascending, budget: .items(1))
        try coordinator.start(.proofread)
        try engine.run(coordinator, timeoutMilliseconds: 60_000)
        XCTAssertEqual(coordinator.suggestions.count, count)
        weak var first: AnyObject?
        first = coordinator.session?.suggestions.first
        XCTAssertNotNil(first)
        try coordinator.accept()
        XCTAssertTrue(try engine.pump(coordinator) { coordinator.state == .inactive })
        XCTAssertNil(coordinator.session)
        XCTAssertTrue(coordinator.queue.hasPendingWork, "the suggestions are still being freed")
        XCTAssertNotNil(first, "freed from the end: the first goes last")
        var dispatches = 0
        XCTAssertTrue(try engine.pump(coordinator) {
            dispatches += 1
            return coordinator.isIdle
        })
        XCTAssertGreaterThanOrEqual(dispatches, count / SlicedRelease.slice)
        // Their anchors left the text in those dispatches; their memory goes on threads of
        // their own (`SlicedRelease.releaseDetaching`), the last slice's maybe still going.
        let deadline = MonotonicClock.nowMicroseconds() + 10_000_000
        while first != nil, MonotonicClock.nowMicroseconds() < deadline { usleep(1_000) }
        XCTAssertNil(first, "every suggestion was freed")
        XCTAssertEqual(engine.text, corrected)
        // A new session works as ever.
        try coordinator.start(.proofread)
        try engine.run(coordinator, timeoutMilliseconds: 60_000)
        XCTAssertEqual(engine.text, corrected, "nothing left to correct")
    }

    /// Accept decides for every pending suggestion at once: right after the call, before any
    /// dispatch, each reads accepted, a rejected one still rejected and one the engine edited
    /// over still invalid, and no pending one is found at an offset. While the session ends
    /// (the engine answers the state change later) the engine's calls are answered: a
    /// second accept and a revert are refused, a stop changes nothing, its own edit is kept,
    /// and the text ends as accepted plus that edit.
    func testAcceptReadsEveryPendingSuggestionAcceptedAtOnce() throws {
        let count = SlicedLoop.slice + 100
        let engine = TestEngine(String(repeating: "teh cat. ", count: count))
        let coordinator = try coordinator(engine, .ascending, budget: .standard)
        try coordinator.start(.proofread)
        try engine.run(coordinator, timeoutMilliseconds: 60_000)
        XCTAssertEqual(coordinator.suggestionCount, count)
        try coordinator.rejectSuggestion(1)
        try engine.run(coordinator)
        let contextID = try XCTUnwrap(coordinator.suggestion(at: 0)?.contextID)
        // The engine types over the third suggestion ("the" at 18..<21): it becomes invalid.
        engine.edit(18..<21, "THE")
        try coordinator.updateRange(contextID: contextID, range: 18..<21, text: "THE", reason: .typing)
        XCTAssertEqual(coordinator.suggestion(at: 2)?.state, .invalid)
        engine.stateAnswering = .later
        try coordinator.accept()
        func check(_ when: String) {
            XCTAssertEqual(coordinator.suggestion(at: 0)?.state, .accepted, when)
            XCTAssertEqual(coordinator.suggestion(at: 1)?.state, .rejected, when)
            XCTAssertEqual(coordinator.suggestion(at: 2)?.state, .invalid, when)
            XCTAssertEqual(coordinator.suggestion(at: count - 1)?.state, .accepted, when)
            XCTAssertEqual(coordinator.suggestions.filter { $0.state == .accepted }.count, count - 2, when)
            XCTAssertThrowsEmend(.notFound) { _ = try coordinator.suggestionIndex(contextID: contextID, offset: 9 * (count - 1)) }
        }
        check("right after accept")
        XCTAssertThrowsEmend(.state) { try coordinator.accept() }
        XCTAssertThrowsEmend(.state) { try coordinator.revert() }
        try coordinator.stop()
        XCTAssertTrue(try engine.pump(coordinator) { !engine.heldStates.isEmpty }, "the state change waits for the engine")
        check("while the session ends")
        // The engine's own edit while the session ends is kept.
        engine.edit(0..<3, "A")
        try coordinator.updateRange(contextID: contextID, range: 0..<3, text: "A", reason: .typing)
        engine.releaseHeldStates(coordinator)
        try engine.run(coordinator, timeoutMilliseconds: 60_000)
        XCTAssertEqual(coordinator.state, .inactive)
        var expected = String(repeating: "the cat. ", count: count)
        expected.replaceSubrange(expected.utf8.index(expected.startIndex, offsetBy: 18)..<expected.utf8.index(expected.startIndex, offsetBy: 21), with: "THE")
        expected.replaceSubrange(expected.utf8.index(expected.startIndex, offsetBy: 9)..<expected.utf8.index(expected.startIndex, offsetBy: 12), with: "teh")
        expected.replaceSubrange(expected.startIndex..<expected.utf8.index(expected.startIndex, offsetBy: 3), with: "A")
        XCTAssertEqual(engine.text, expected)
    }

    /// Room for every suggestion's anchor and change is made before the first goes in: no
    /// delivery moves the changes or the marks already recorded into a larger buffer (that
    /// copy, of all of them, held one dispatch; see benchmarks/swift/EditsBenchmark.swift).
    /// The ledger's changes are kept in blocks (`LedgerBlocks`): its list of blocks is what
    /// must not move (a block holds at most a thousand changes).
    func testDeliveringManySuggestionsNeverMovesWhatIsRecorded() throws {
        let engine = TestEngine(original)
        let coordinator = try coordinator(engine, .ascending, budget: .items(1))
        try coordinator.start(.proofread)
        var capacity: Int?
        var moved = false
        XCTAssertTrue(try engine.pump(coordinator, timeoutMilliseconds: 60_000) {
            if let ledger = coordinator.session?.working?.ledger, !ledger.isEmpty {
                if let capacity, capacity != ledger.blockCapacity { moved = true }
                capacity = ledger.blockCapacity
            }
            return coordinator.state == .interactiveResting
        })
        XCTAssertEqual(engine.text, corrected)
        XCTAssertEqual(coordinator.session?.working?.ledger.hunks.count, count)
        XCTAssertGreaterThanOrEqual(capacity ?? 0, count / 512)
        XCTAssertFalse(moved, "a delivery moved the recorded changes")
    }

    func testArrivedEditsAreReadInOrderOfTheirStart() {
        func edit(_ start: Int, _ text: String = "x") -> ProviderEdit { ProviderEdit(range: start..<(start + 1), replacement: text) }
        func all(_ edits: ArrivedEdits) -> [ProviderEdit] {
            var ordered = edits.sorted()
            var result: [ProviderEdit] = []
            while let next = ordered.next() { result.append(next) }
            XCTAssertEqual(ordered.remaining, 0)
            return result
        }
        var ascending = ArrivedEdits()
        ascending.append([edit(1), edit(3)])
        ascending.append([edit(3, "y"), edit(9)])
        XCTAssertNotNil(ascending.inOrder)
        XCTAssertEqual(all(ascending), [edit(1), edit(3), edit(3, "y"), edit(9)])

        var descending = ArrivedEdits()
        descending.append([edit(9), edit(5)])
        descending.append([])
        descending.append([edit(4)])
        descending.append([edit(2), edit(0)])
        XCTAssertNotNil(descending.inOrder, "strictly descending: read back to front")
        XCTAssertEqual(all(descending), [edit(0), edit(2), edit(4), edit(5), edit(9)])

        // A tie in descending order is no longer "reversed": sorted, ties as they came.
        var ties = ArrivedEdits()
        ties.append([edit(9), edit(5, "a")])
        ties.append([edit(5, "b"), edit(1)])
        XCTAssertNil(ties.inOrder)
        XCTAssertEqual(all(ties), [edit(1), edit(5, "a"), edit(5, "b"), edit(9)])

        var shuffled = ArrivedEdits()
        shuffled.append([edit(4), edit(1)])
        shuffled.append([edit(7), edit(0), edit(4, "z")])
        XCTAssertNil(shuffled.inOrder)
        XCTAssertEqual(all(shuffled), [edit(0), edit(1), edit(4), edit(4, "z"), edit(7)])
        XCTAssertEqual(all(ArrivedEdits()), [])

        // Many batches in no order, with ties: the order found (places in the batches, no
        // copy of the edits) is that of a stable sort of all of them.
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<50 {
            var many = ArrivedEdits(), flat: [ProviderEdit] = []
            for _ in 0..<Int.random(in: 1...12, using: &rng) {
                let batch = (0..<Int.random(in: 0...40, using: &rng)).map { _ in
                    edit(Int.random(in: 0...30, using: &rng), String(Int.random(in: 0...1_000_000, using: &rng)))
                }
                many.append(batch)
                flat += batch
            }
            let stable = flat.enumerated().sorted { ($0.element.range.lowerBound, $0.offset) < ($1.element.range.lowerBound, $1.offset) }
            XCTAssertEqual(all(many), stable.map(\.element))
        }
    }

    /// Changes one space apart join into phrases as they come (each joined where it is), a
    /// phrase at most `ChangePhrases.longestJoined` bytes: four thousand of them are eight
    /// phrases, one space apart, whose texts are the whole text; a revert undoes each in a
    /// replace of its own (none longer than the bound: what one dispatch moves anchors over)
    /// and puts the original back byte for byte.
    func testEveryWordChangedJoinsBoundedPhrasesAndRevertsExactly() throws {
        let words = 4_000
        let (text, corrected) = (String(repeating: "a ", count: words), String(repeating: "b ", count: words))
        let (engine, coordinator) = try everyWordCorrected(text)
        XCTAssertEqual(engine.text, corrected)
        let hunks = try XCTUnwrap(coordinator.session?.working?.ledger).hunks
        try checkBoundedPhrases(hunks, of: text, now: corrected)
        let delivered = engine.replaces.count
        try coordinator.revert()
        try engine.run(coordinator, timeoutMilliseconds: 60_000)
        XCTAssertEqual(engine.text, text)
        checkBoundedRestore(engine.replaces[delivered...], phrases: hunks.count)
    }

    /// Accept keeps every corrected word; an engine edit in one phrase makes that phrase the
    /// engine's (and only it: a phrase is bounded), and revert brings the others back exactly.
    func testEveryWordChangedAcceptsAndAnEngineEditTakesOneBoundedPhrase() throws {
        let words = 4_000
        let (text, corrected) = (String(repeating: "a ", count: words), String(repeating: "b ", count: words))
        let (accepting, acceptingCoordinator) = try everyWordCorrected(text)
        try acceptingCoordinator.accept()
        try accepting.run(acceptingCoordinator, timeoutMilliseconds: 60_000)
        XCTAssertEqual(accepting.text, corrected)

        let (engine, coordinator) = try everyWordCorrected(text)
        let hunks = try XCTUnwrap(coordinator.session?.working?.ledger).hunks
        XCTAssertGreaterThan(hunks.count, 2)
        // The engine types "X" after the second phrase's first byte.
        let second = try XCTUnwrap(coordinator.session?.working?.ledger).currentSpan(1)
        let typed = (second.lowerBound + 1)..<(second.lowerBound + 1)
        engine.edit(typed, "X")
        try coordinator.updateRange(contextID: coordinator.contextIDs[0], range: typed, text: "X", reason: .typing)
        let delivered = engine.replaces.count
        try coordinator.revert()
        try engine.run(coordinator, timeoutMilliseconds: 60_000)
        var expected = Array(text.utf8)
        let taken = Array(corrected.utf8)[second]
        expected.replaceSubrange(second, with: taken.prefix(1) + Array("X".utf8) + taken.dropFirst())
        XCTAssertEqual(engine.text, String(decoding: expected, as: UTF8.self))
        checkBoundedRestore(engine.replaces[delivered...], phrases: hunks.count - 1)
    }

    /// A result's saved phrases (`ChangePhrases.phrases`, what a rewrite's versions hold) are
    /// bounded as the ledger's are, and are the same phrases for the same changes: a phrase
    /// means the same bytes to both.
    func testSavedPhrasesAreBoundedAsTheLedgersAre() throws {
        let words = 4_000
        let (text, corrected) = (String(repeating: "a ", count: words), String(repeating: "b ", count: words))
        let changes = (0..<words).map { word in
            LedgerHunk(base: (2 * word)..<(2 * word + 1), baseText: AttributedText("a"), text: AttributedText("b"))
        }
        let saved = ChangePhrases.phrases(changes, in: AttributedText(text), offset: 0)
        try checkBoundedPhrases(saved, of: text, now: corrected)
        let (_, coordinator) = try everyWordCorrected(text)
        let hunks = try XCTUnwrap(coordinator.session?.working?.ledger).hunks
        XCTAssertEqual(saved.map(\.base), hunks.map(\.base))
        XCTAssertEqual(saved.map(\.baseText.string), hunks.map(\.baseText.string))
        XCTAssertEqual(saved.map(\.text.string), hunks.map(\.text.string))
    }

    private func everyWordCorrected(_ text: String) throws -> (TestEngine, Coordinator) {
        let engine = TestEngine(text)
        let coordinator = try Coordinator(delegate: engine, options: CoordinatorOptions(), providers: [EveryWordProvider()])
        try coordinator.start(.proofread)
        try engine.run(coordinator, timeoutMilliseconds: 60_000)
        return (engine, coordinator)
    }

    /// The ledger's changes are phrases within the bound, each as long as the bound lets it
    /// be (the next word would not fit), one space apart, and together the whole change.
    private func checkBoundedPhrases(_ hunks: [LedgerHunk], of text: String, now: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let limit = ChangePhrases.longestJoined
        // "b b … b": 2n - 1 bytes for n words; one word more would not fit.
        let wordsPerPhrase = (limit + 1) / 2
        let words = text.utf8.count / 2
        XCTAssertEqual(hunks.count, (words + wordsPerPhrase - 1) / wordsPerPhrase, file: file, line: line)
        XCTAssertTrue(hunks.allSatisfy { $0.base.count <= limit && $0.text.utf8Count <= limit }, file: file, line: line)
        XCTAssertTrue(hunks.dropLast().allSatisfy { $0.text.utf8Count + 2 > limit }, "each phrase is as long as the bound lets it be", file: file, line: line)
        XCTAssertTrue(zip(hunks, hunks.dropFirst()).allSatisfy { $1.base.lowerBound == $0.base.upperBound + 1 }, file: file, line: line)
        XCTAssertEqual(hunks.map(\.baseText.string).joined(separator: " "), String(text.prefix(hunks.last!.base.upperBound)), file: file, line: line)
        XCTAssertEqual(hunks.map(\.text.string).joined(separator: " "), String(now.prefix(hunks.last!.base.upperBound)), file: file, line: line)
    }

    /// The restoring replaces: one per phrase, none over the bound.
    private func checkBoundedRestore(_ replaces: ArraySlice<ReplaceProposal>, phrases: Int, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(replaces.count, phrases, file: file, line: line)
        XCTAssertTrue(replaces.allSatisfy { $0.range.count <= ChangePhrases.longestJoined && $0.text.utf8.count <= ChangePhrases.longestJoined },
                      file: file, line: line)
    }

    private final class EveryWordProvider: WritingProvider, @unchecked Sendable {
        let id = "org.emend.test.every-word"
        let tools: Set<WritingTool> = [.proofread]
        func run(_ request: ProviderRequest, sink: ProviderSink) -> ProviderOutcome {
            for start in stride(from: request.selection.lowerBound, to: request.selection.upperBound, by: 2) {
                sink.emitEdit(ProviderEdit(range: start..<(start + 1), replacement: "b", category: "spelling"))
            }
            return .finished
        }
    }
}
