import XCTest
import Glibc
import EmendCore
import EmendText

/// Random sessions of every tool with random reviews, engine edits, refusals, late answers,
/// stops and failures. After every dispatch the runtime's copy of the text is the engine's;
/// every session ends within a bound; every prepared animation is finished with its handle;
/// and when the engine never refused or rewrote a replace and never edited next to Emend's
/// text, revert and stop give exactly the original with the engine's edits.
///
/// CI runs 3,000 sessions; `EMEND_PROPERTY_SESSIONS=20000` (and `EMEND_PROPERTY_SEED`) for more.
final class SessionPropertyTests: XCTestCase {
    /// The engine's text byte by byte, each byte the base's (original or typed by the engine)
    /// or Emend's; base bytes Emend removed stay as ghosts. The base is every base byte in order.
    struct ByteModel {
        enum Origin { case base, emend }
        struct Atom { let byte: UInt8; let origin: Origin; var visible: Bool }
        var atoms: [Atom]

        init(_ text: String) { atoms = text.utf8.map { Atom(byte: $0, origin: .base, visible: true) } }

        var text: String { String(decoding: atoms.filter(\.visible).map(\.byte), as: UTF8.self) }
        var base: String { String(decoding: atoms.filter { $0.origin == .base }.map(\.byte), as: UTF8.self) }

        /// Atom indices of visible bytes `range`, and where an insertion at its start goes.
        private func span(_ range: Range<Int>) -> (first: Int, last: Int) {
            var visible = 0, first = atoms.count, last = atoms.count
            for (index, atom) in atoms.enumerated() where atom.visible {
                if visible == range.lowerBound && first == atoms.count { first = index }
                if visible == range.upperBound { last = index; break }
                visible += 1
            }
            if range.lowerBound == visible && first == atoms.count { first = atoms.count }
            return (first, max(first, last))
        }

        /// Whether an engine edit of `range` stays clear of Emend's bytes and ghosts (one
        /// visible byte of margin on each side).
        func isClear(_ range: Range<Int>) -> Bool {
            let count = atoms.filter(\.visible).count
            let lower = max(0, range.lowerBound - 1), upper = min(count, range.upperBound + 1)
            let (first, _) = span(lower..<lower)
            let (_, last) = span(upper..<upper)
            let end = upper >= count ? atoms.count : last + 1
            return atoms[first..<min(end, atoms.count)].allSatisfy { $0.origin == .base && $0.visible }
        }

        mutating func emendReplace(_ range: Range<Int>, _ text: String) {
            let (first, last) = span(range)
            var replaced: [Atom] = []
            for atom in atoms[first..<last] where atom.origin == .base {
                var ghost = atom
                ghost.visible = false
                replaced.append(ghost)
            }
            replaced += text.utf8.map { Atom(byte: $0, origin: .emend, visible: true) }
            atoms.replaceSubrange(first..<last, with: replaced)
        }

        mutating func engineEdit(_ range: Range<Int>, _ text: String) {
            let (first, last) = span(range)
            atoms.replaceSubrange(first..<last, with: text.utf8.map { Atom(byte: $0, origin: .base, visible: true) })
        }
    }

    private static let sentences = [
        "See you tomorow.", "I do not think it is ready.", "We go over the the draft.", "Teh cat sat on a mat.",
        "It is really very late, café ☕ closes.", "We are here.", "Alot of people could of known.", "This is a example.",
    ]

    func testRandomSessionsKeepTheContract() throws {
        let environment = ProcessInfoLite.environment
        let sessions = Int(environment["EMEND_PROPERTY_SESSIONS"] ?? "") ?? 3000
        let seed = UInt64(environment["EMEND_PROPERTY_SEED"] ?? "") ?? 20261123
        var rng = SplitMix64(seed: seed)
        var checked = 0
        for number in 0..<sessions where try runSession(number, &rng) { checked += 1 }
        print("property: \(sessions) sessions (seed \(seed)), \(checked) with the exact original-plus-edits check")
        XCTAssertGreaterThan(checked, sessions / 4, "most sessions must be checked exactly, or the test checks little")
    }

    /// Runs one random session; returns whether its end was checked against the model exactly.
    private func runSession(_ number: Int, _ rng: inout SplitMix64) throws -> Bool {
        func pick<T>(_ values: [T]) -> T { values[Int(rng.next() % UInt64(values.count))] }
        func chance(_ percent: UInt64) -> Bool { rng.next() % 100 < percent }
        let text = (0..<(1 + Int(rng.next() % 4))).map { _ in pick(Self.sentences) }.joined(separator: " ")
        let length = text.utf8.count
        let boundaries = boundaryOffsets(text)
        let a = pick(boundaries), b = pick(boundaries)
        let engine = TestEngine(text, selection: min(a, b)..<max(a, b))
        if chance(30) {
            // A styled context: runs (and one over everything) that every replace moves.
            engine.attributeRuns = (0..<Int(rng.next() % 8)).map { _ in
                let x = pick(boundaries), y = pick(boundaries)
                return AttributeRun(range: min(x, y)..<max(x, y), key: pick(["bold", "italic", "link"]), value: "1")
            } + [AttributeRun(range: 0..<length, key: "font", value: "serif")]
        }
        var model = ByteModel(text)
        engine.onApply = { range, inserted in model.emendReplace(range, inserted) }
        var misbehaved = false, crowded = false, accepted = false
        if chance(10) { engine.replaceAnswering = .refuse; misbehaved = true }
        engine.presentedAction = pick([.apply, .copy, .dismiss])
        var opts = options(completionTimeout: 2_000, providerTimeout: 5_000, behavior: pick([.default, .default, .limited]))
        opts.streaming = pick([.wholeResult, .sentences(minimumNewBytes: 1), .sentences(minimumNewBytes: 16), .sentences(minimumNewBytes: 256)])
        opts.preferredResultOptions = pick([[.plainText], [.richText], [.list, .table], [.presentationIntent]])
        let tool = pick(WritingTool.allCases.filter { $0 != .followUp })
        let prompt: String? = tool == .compose ? "say thanks for the flowers" : tool == .rewriteDescribed ? pick(["uppercase", "make it warmer"]) : nil
        let coordinator = try makeCoordinator(engine, options: opts, provider: FixtureProvider(chunkDelayMicroseconds: pick([0, 0, 100])))
        let context = "session \(number): tool \(tool.name), text “\(text)”, \(a)..<\(b), seed step"
        do { try coordinator.start(tool, prompt: prompt) } catch { return false }

        for _ in 0..<(Int(rng.next() % 14)) {
            switch rng.next() % 12 {
            case 0, 1, 2:
                _ = try? engine.pump(coordinator, timeoutMilliseconds: 20) { coordinator.isIdle }
            case 3:
                // The engine types, deletes or replaces somewhere.
                let bounds = boundaryOffsets(engine.text)
                let x = pick(bounds), y = chance(50) ? x : pick(bounds)
                let range = min(x, y)..<max(x, y)
                let typed = pick(["", "x", " Hi.", "é"])
                guard coordinator.state != .inactive, let id = coordinator.contextIDs.first,
                      (try? coordinator.contextText(id).string) == engine.text else { break }
                if !model.isClear(range) { crowded = true }
                engine.edit(range, typed)
                model.engineEdit(range, typed)
                XCTAssertNoThrow(try coordinator.updateRange(contextID: id, range: range, text: typed, reason: .typing), context)
            case 4: try? coordinator.acceptSuggestion(Int(rng.next() % 4))
            case 5: try? coordinator.rejectSuggestion(Int(rng.next() % 4))
            case 6: try? coordinator.undo()
            case 7: try? coordinator.redo()
            case 8: try? coordinator.showOriginal(chance(50))
            case 9: try? coordinator.start(.followUp, prompt: pick(["uppercase", "make it shorter", "no rule"]))
            case 10: try? coordinator.stop()
            default:
                if chance(50) { accepted = accepted || (try? coordinator.accept()) != nil } else { try? coordinator.revert() }
            }
            try? coordinator.dispatch()
            if let id = coordinator.contextIDs.first, engine.heldReplaces.isEmpty {
                XCTAssertEqual(try coordinator.contextText(id).string, engine.text, "the runtime's copy is the engine's text — \(context)")
            }
            XCTAssertEqual(engine.text, model.text, context)
        }
        // End it: revert when resting, else stop; it must end within the bound.
        if coordinator.state != .interactiveResting || (try? coordinator.revert()) == nil {
            try? coordinator.stop()
        }
        var ended = false
        for _ in 0..<3 where !ended {
            _ = try? engine.pump(coordinator, timeoutMilliseconds: 3_000) { coordinator.state == .inactive && coordinator.isIdle }
            ended = coordinator.state == .inactive
            if !ended, coordinator.state == .interactiveResting { try? coordinator.revert() }
        }
        XCTAssertEqual(coordinator.state, .inactive, "the session ends — \(context)")
        XCTAssertEqual(engine.finishedAnimations.count, engine.preparedAnimations.count, "every prepare has its finish — \(context)")
        XCTAssertEqual(engine.previewsFinished, engine.previewsGiven, context)
        XCTAssertEqual(engine.answerErrors.map(\.message), [], context)
        XCTAssertEqual(coordinator.refusedMoves, [], "the state machine never had to refuse a move — \(context)")
        // A session that was accepted (or whose presented result was applied) keeps its text;
        // otherwise the base must be back exactly.
        if !engine.presented.isEmpty && engine.presentedAction == .apply { accepted = true }
        guard !misbehaved && !crowded && !accepted else { return false }
        XCTAssertEqual(engine.text, length == 0 ? "" : model.base, "revert and stop give the original with the engine's edits — \(context)")
        return true
    }

    /// Offsets of scalar boundaries of `text` (UTF-8 bytes).
    private func boundaryOffsets(_ text: String) -> [Int] {
        var offsets = [0], offset = 0
        for scalar in text.unicodeScalars {
            offset += UTF8.width(scalar)
            offsets.append(offset)
        }
        return offsets
    }
}

/// The process environment without Foundation.
enum ProcessInfoLite {
    static var environment: [String: String] {
        var result: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let pair = String(cString: entry)
            if let equals = pair.firstIndex(of: "=") {
                result[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
            }
            pointer += 1
        }
        return result
    }
}
