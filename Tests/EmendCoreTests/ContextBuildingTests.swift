import XCTest
@testable import EmendCore
import EmendText

/// emend.h: a session's context ids exist from the dispatch that takes the contexts answer,
/// whatever the size of the text, so the engine's edits from then on are taken and kept.
final class ContextBuildingTests: XCTestCase {
    func testALargeDocumentsContextExistsFromTheDispatchThatTakesTheAnswer() throws {
        // 300 KB: above the size whose ropes are built on a thread of their own by default
        // (CoordinatorOptions.contextsBuiltElsewhereBytes), and small enough for a debug
        // build's proofread on a loaded machine.
        let filler = String(repeating: "The cat sat on the mat. ", count: 12_500)
        let original = filler + "I recieve it."
        let engine = TestEngine(original, selection: 0..<original.utf8.count)
        engine.contextsAnswering = .later
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.proofread)
        XCTAssertTrue(try engine.pump(coordinator) { engine.contextRequests.count == 1 })
        engine.releaseHeldContexts(coordinator)
        _ = try engine.dispatching { try coordinator.dispatch() }
        let contextID = try XCTUnwrap(coordinator.contextIDs.first, "the context exists once its answer is taken")
        XCTAssertEqual(coordinator.session?.working?.isBuilt, false, "its rope is built elsewhere by default")
        // The engine types at the start at once: the edit is taken, and the suggestion after it
        // still lands on its word.
        engine.edit(0..<0, "Hello. ")
        try coordinator.updateRange(contextID: contextID, range: 0..<0, text: "Hello. ", reason: .typing)
        try engine.run(coordinator)
        XCTAssertTrue(engine.text.hasPrefix("Hello. The cat"))
        XCTAssertTrue(engine.text.hasSuffix("I receive it."), String(engine.text.suffix(40)))
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(Array(engine.text.utf8), Array(("Hello. " + original).utf8), "revert keeps the engine's edit")
    }
}

// MARK: The window while a context's rope is built on a thread of its own

extension ContextBuildingTests {
    /// What an engine sees of a session: its edits' statuses, the getters, the text after the
    /// run and after revert.
    private struct Seen: Equatable {
        var statuses: [EmendStatus?] = []
        var textsInWindow: [String] = []
        var afterRun = ""
        var afterRevert = ""
    }

    private static let original = String(repeating: "The cat sat on the mat. ", count: 400) + "I recieve it. See you tomorow."

    /// The engine's edits of the window: typing at the start, inside, at the end, deletions,
    /// a replace over many words, one that changes nothing, ones outside the text (refused).
    private static func windowEdits(length: Int) -> [(Range<Int>, String)] {
        [(0..<0, "Hello. "), (7..<7, "A"), (7..<8, ""), (30..<34, "dog"), (length + 7..<length + 7, " End."),
         (length + 100..<length + 101, "x"), (12..<12, ""), (40..<40, "é"), (2..<5, "llo"),
         (0..<(length + 12), "Short. I recieve it."), (200..<201, "y")]
    }

    /// Runs a proofread whose contexts answer is taken in one dispatch, then the engine's
    /// edits of `edits` and `during` before any other dispatch (the window while the rope is
    /// built elsewhere when `threshold` allows), then the rest.
    private func session(threshold: Int, edits: [(Range<Int>, String)], expectBuilding: Bool,
                         during: (TestEngine, Coordinator) throws -> Void = { _, _ in }) throws -> Seen {
        let engine = TestEngine(Self.original, selection: 0..<Self.original.utf8.count)
        engine.contextsAnswering = .later
        var options = CoordinatorOptions()
        options.contextsBuiltElsewhereBytes = threshold
        let coordinator = try makeCoordinator(engine, options: options)
        try coordinator.start(.proofread)
        XCTAssertTrue(try engine.pump(coordinator) { engine.contextRequests.count == 1 })
        engine.releaseHeldContexts(coordinator)
        _ = try engine.dispatching { try coordinator.dispatch() }
        let contextID = try XCTUnwrap(coordinator.contextIDs.first, "the context exists once its answer is taken")
        XCTAssertEqual(coordinator.session?.working?.isBuilt, !expectBuilding, "the rope is built elsewhere when large enough")
        var seen = Seen()
        for (range, text) in edits {
            do {
                try coordinator.updateRange(contextID: contextID, range: range, text: text, reason: .typing)
                engine.edit(range, text)
                seen.statuses.append(nil)
            } catch {
                seen.statuses.append(error.status)
            }
            seen.textsInWindow.append(try coordinator.contextText(contextID).string)
            XCTAssertEqual(seen.textsInWindow.last, engine.text, "the getter gives the engine's text in the window")
        }
        try during(engine, coordinator)
        try engine.run(coordinator)
        seen.afterRun = engine.text
        if coordinator.session != nil {
            try coordinator.revert()
            try engine.run(coordinator)
        }
        seen.afterRevert = engine.text
        XCTAssertTrue(engine.answerErrors.isEmpty)
        return seen
    }

    func testEngineEditsInTheWindowAreKeptAndReplayedAsTheBuiltContextWouldTakeThem() throws {
        let length = Self.original.utf8.count
        // Only edits the suggestions survive (at the start, before the misspellings).
        let typing: [(Range<Int>, String)] = [(0..<0, "Hello. "), (7..<7, "A"), (7..<8, ""), (30..<34, "dog"),
                                              (length + 100..<length + 101, "x"), (12..<12, ""), (40..<40, "é"), (2..<5, "llo")]
        let elsewhere = try session(threshold: 0, edits: typing, expectBuilding: true)
        let atOnce = try session(threshold: .max, edits: typing, expectBuilding: false)
        XCTAssertEqual(elsewhere, atOnce, "the window changes nothing the engine sees")
        XCTAssertEqual(elsewhere.statuses.compactMap { $0 }, [.range], "an edit outside the text is refused, as by the built context")
        XCTAssertTrue(elsewhere.afterRun.hasSuffix("I receive it. See you tomorrow."), String(elsewhere.afterRun.suffix(40)))
        XCTAssertEqual(elsewhere.afterRevert, elsewhere.textsInWindow.last, "revert keeps the engine's edits and only them")
        XCTAssertTrue(elsewhere.afterRevert.hasSuffix("I recieve it. See you tomorow."))
    }

    func testEveryKindOfEditInTheWindowGivesWhatTheBuiltContextGives() throws {
        let edits = Self.windowEdits(length: Self.original.utf8.count)
        let elsewhere = try session(threshold: 0, edits: edits, expectBuilding: true)
        let atOnce = try session(threshold: .max, edits: edits, expectBuilding: false)
        XCTAssertEqual(elsewhere, atOnce)
        // Past the end: two of the original's, one of the short text that replaced it all.
        XCTAssertEqual(elsewhere.statuses.compactMap { $0 }, [.range, .range, .range], "edits past the end are refused")
        XCTAssertEqual(elsewhere.afterRevert, elsewhere.textsInWindow.last, "the session ended keeping the engine's text")
    }

    func testManyEngineEditsInTheWindowAreReplayedInOrder() throws {
        var edits: [(Range<Int>, String)] = []
        var length = Self.original.utf8.count
        for step in 0..<300 {
            let at = (step * 7919) % 2000
            let range = step % 3 == 0 ? at..<(at + 3) : at..<at
            let text = step % 5 == 0 ? "" : "w\(step) "
            edits.append((range, text))
            length += text.utf8.count - range.count
        }
        let elsewhere = try session(threshold: 0, edits: edits, expectBuilding: true)
        let atOnce = try session(threshold: .max, edits: edits, expectBuilding: false)
        XCTAssertEqual(elsewhere, atOnce)
        XCTAssertTrue(elsewhere.afterRun.hasSuffix("I receive it. See you tomorrow."), String(elsewhere.afterRun.suffix(40)))
    }

    func testStopInTheWindowKeepsTheEngineEditsAndEndsTheSession() throws {
        let edits: [(Range<Int>, String)] = [(0..<0, "Hello. "), (10..<12, "")]
        let stop: (TestEngine, Coordinator) throws -> Void = { _, coordinator in try coordinator.stop() }
        let elsewhere = try session(threshold: 0, edits: edits, expectBuilding: true, during: stop)
        let atOnce = try session(threshold: .max, edits: edits, expectBuilding: false, during: stop)
        XCTAssertEqual(elsewhere, atOnce)
        var expected = Self.original
        expected = "Hello. " + expected
        expected.removeSubrange(expected.utf8.index(expected.startIndex, offsetBy: 10)..<expected.utf8.index(expected.startIndex, offsetBy: 12))
        XCTAssertEqual(elsewhere.afterRun, expected, "a stop in the window keeps the engine's edits and nothing else")
    }

    func testRevertInTheWindowIsRefusedAsWhileStartingAndTheSessionGoesOn() throws {
        let revert: (TestEngine, Coordinator) throws -> Void = { _, coordinator in
            XCTAssertThrowsError(try coordinator.revert()) { XCTAssertEqual(($0 as? EmendError)?.status, .state) }
        }
        let edits: [(Range<Int>, String)] = [(0..<0, "Hello. ")]
        let elsewhere = try session(threshold: 0, edits: edits, expectBuilding: true, during: revert)
        let atOnce = try session(threshold: .max, edits: edits, expectBuilding: false, during: revert)
        XCTAssertEqual(elsewhere, atOnce)
    }

    func testDestroyingTheCoordinatorInTheWindowLeavesTheEnginesText() throws {
        let engine = TestEngine(Self.original, selection: 0..<Self.original.utf8.count)
        engine.contextsAnswering = .later
        var options = CoordinatorOptions()
        options.contextsBuiltElsewhereBytes = 0
        do {
            let coordinator = try makeCoordinator(engine, options: options)
            try coordinator.start(.proofread)
            XCTAssertTrue(try engine.pump(coordinator) { engine.contextRequests.count == 1 })
            engine.releaseHeldContexts(coordinator)
            _ = try engine.dispatching { try coordinator.dispatch() }
            let contextID = try XCTUnwrap(coordinator.contextIDs.first)
            XCTAssertEqual(coordinator.session?.working?.isBuilt, false)
            engine.edit(0..<0, "Hello. ")
            try coordinator.updateRange(contextID: contextID, range: 0..<0, text: "Hello. ", reason: .typing)
        }
        // The thread may still be building: what it built is let go without the coordinator.
        usleep(200_000)
        XCTAssertEqual(engine.text, "Hello. " + Self.original)
    }

    func testAStartAfterAStopInTheWindowWorks() throws {
        let engine = TestEngine(Self.original, selection: 0..<Self.original.utf8.count)
        engine.contextsAnswering = .later
        var options = CoordinatorOptions()
        options.contextsBuiltElsewhereBytes = 0
        let coordinator = try makeCoordinator(engine, options: options)
        try coordinator.start(.proofread)
        XCTAssertTrue(try engine.pump(coordinator) { engine.contextRequests.count == 1 })
        engine.releaseHeldContexts(coordinator)
        _ = try engine.dispatching { try coordinator.dispatch() }
        try coordinator.stop()
        try engine.run(coordinator)
        XCTAssertNil(coordinator.session)
        engine.contextsAnswering = .atOnce
        try coordinator.start(.proofread)
        try engine.run(coordinator)
        XCTAssertTrue(engine.text.hasSuffix("I receive it. See you tomorrow."), String(engine.text.suffix(40)))
    }

    /// The offset counts of the original text are made on the thread that builds the rope and
    /// come in before it: the engine's edits reported before them (none of which asked for a
    /// conversion) are replayed into them, and every conversion then, in UTF-16 and code
    /// points, is what a scan of the engine's text gives. Without them, the first conversion
    /// counted the whole text in the engine's call.
    func testOffsetCountsMadeElsewhereTakeTheEngineEditsOfTheWindow() throws {
        let original = String(repeating: "Ünïcödé 😀 words, 漢字 too. ", count: 300)
        let engine = TestEngine(original, selection: 0..<original.utf8.count)
        engine.contextsAnswering = .later
        var options = CoordinatorOptions()
        options.contextsBuiltElsewhereBytes = 0
        let coordinator = try makeCoordinator(engine, options: options)
        try coordinator.start(.proofread)
        XCTAssertTrue(try engine.pump(coordinator) { engine.contextRequests.count == 1 })
        engine.releaseHeldContexts(coordinator)
        _ = try engine.dispatching { try coordinator.dispatch() }
        let contextID = try XCTUnwrap(coordinator.contextIDs.first)
        guard case .building(let pending) = try XCTUnwrap(coordinator.session?.working).content else {
            return XCTFail("the rope is built elsewhere")
        }
        // Ranges given in characters, said in bytes of the text as it is then.
        for (characters, text) in [(0..<0, "Hé 😀 "), (20..<24, "漢"), (100..<100, "ü"), (3..<8, "")] {
            let now = engine.text
            func byte(_ character: Int) -> Int { now.utf8.distance(from: now.startIndex, to: now.index(now.startIndex, offsetBy: character)) }
            let range = byte(characters.lowerBound)..<byte(characters.upperBound)
            try coordinator.updateRange(contextID: contextID, range: range, text: text, reason: .typing)
            engine.edit(range, text)
        }
        XCTAssertFalse(pending.hasCounts, "no conversion asked for the counts")
        XCTAssertTrue(try engine.pump(coordinator) { coordinator.session?.working?.isBuilt ?? true })
        XCTAssertTrue(pending.hasCounts, "the counts made elsewhere came in before the rope")
        let scan = PositionConverter(engine.text)
        let counted = pending.positions
        XCTAssertEqual(pending.current.string, engine.text)
        for encoding in [PositionEncoding.utf16, .codePoint] {
            let length = scan.length(in: encoding)
            for location in Swift.stride(from: 0, through: length, by: 7) + [length, length + 1] {
                let expected = Result { () throws(PositionError) in try scan.utf8Range(location: location, length: 0, from: encoding) }
                let got = Result { () throws(PositionError) in try counted.utf8Range(location: location, length: 0, from: encoding) }
                XCTAssertEqual(got, expected, "\(encoding) offset \(location)")
            }
        }
        try engine.run(coordinator)
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, scan.text, "revert keeps the engine's edits of the window")
    }
}

extension ContextBuildingTests {
    /// An engine edit past the end is refused with its range and the text's length in the
    /// engine's units, said by the context's positions and sums (no copy of the text): what
    /// the text itself says, built or while the rope is built elsewhere.
    func testAnEditPastTheEndSaysTheRangeAndLengthInEachEncoding() throws {
        let filler = String(repeating: "Ünïcödé 😀 text. ", count: 20_000)
        for threshold in [Int.max, 0] {
            let engine = TestEngine(filler, selection: 0..<filler.utf8.count)
            engine.contextsAnswering = .later
            var options = CoordinatorOptions()
            options.contextsBuiltElsewhereBytes = threshold
            let coordinator = try makeCoordinator(engine, options: options)
            try coordinator.start(.proofread)
            XCTAssertTrue(try engine.pump(coordinator) { engine.contextRequests.count == 1 })
            engine.releaseHeldContexts(coordinator)
            _ = try engine.dispatching { try coordinator.dispatch() }
            let id = try XCTUnwrap(coordinator.contextIDs.first)
            XCTAssertEqual(coordinator.session?.working?.isBuilt, threshold == .max)
            let count = filler.utf8.count
            for range in [(count - 4)..<(count + 1), (count + 3)..<(count + 3)] {
                let error = XCTAssertThrowsEmend(.range) { try coordinator.updateRange(contextID: id, range: range, text: "x", reason: .typing) }
                for encoding in PositionEncoding.allCases {
                    XCTAssertEqual(error?.message(in: encoding),
                                   "range \(TextPlace(.range, range, in: filler).description(in: encoding)) is outside the context's text (\(TextPlace(.length, 0..<0, in: filler).description(in: encoding)))",
                                   "\(encoding), built here: \(threshold == .max)")
                }
            }
            try coordinator.stop()
            try engine.run(coordinator)
        }
    }
}
