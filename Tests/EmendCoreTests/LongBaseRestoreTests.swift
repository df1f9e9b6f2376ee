import XCTest
@testable import EmendCore
import EmendText

/// A rewrite of a long region into one short sentence has a change whose *base* is long:
/// revert and show original put that base back a bounded piece per replace from its end
/// (`RestoringPiece.baseTail`), never in one replace of all of it (16 MB: one dispatch of
/// tens of milliseconds for the engine and for Emend). Nothing is lost meanwhile: after every
/// dispatch the engine's text is the rewritten text, the original, or a prefix of the
/// rewritten text followed by a suffix of the original (the original with the change made over
/// a shorter base), and the engine's edits made between the pieces stay.
final class LongBaseRestoreTests: XCTestCase {
    static let sentence = "The text is short."
    /// What the rewrite leaves (the region's trailing space stays).
    static let rewrittenText = sentence + " "
    /// 40 × 16 KiB: more than eight pieces.
    static let original = String(repeating: "Words go on and on. ", count: 40 * 16_384 / 20)

    /// Rewrites the whole request as one short sentence.
    struct ShortRewriter: WritingProvider {
        let id = "org.emend.tests.short-rewrite"
        let tools: Set<WritingTool> = [.rewriteFriendly]
        var needsFactCheck: Bool { false }

        func run(_ request: ProviderRequest, sink: ProviderSink) -> ProviderOutcome {
            sink.emitText(LongBaseRestoreTests.sentence)
            return .finished
        }
    }

    /// A coordinator whose rewrite of the whole text is delivered. One item of work per
    /// dispatch: the text is checked (and the engine types) after every replace, however fast
    /// the machine (under the time budget a warm process sent every piece in one dispatch).
    private func rewritten(_ engine: TestEngine) throws -> Coordinator {
        var options = CoordinatorOptions()
        options.streaming = .wholeResult
        options.dispatchBudget = .items(1)
        let coordinator = try Coordinator(delegate: engine, options: options, providers: [ShortRewriter()])
        try coordinator.start(.rewriteFriendly)
        try settle(engine, coordinator)
        XCTAssertTrue(engine.text == Self.rewrittenText, "the rewrite is in the text (\(engine.text.utf8.count) bytes)")
        return coordinator
    }

    /// Pumps `coordinator` until it is idle (a minute at most).
    private func settle(_ engine: TestEngine, _ coordinator: Coordinator, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertTrue(try engine.pump(coordinator, timeoutMilliseconds: 60_000) { coordinator.isIdle }, "idle within a minute",
                      file: file, line: line)
    }

    /// Whether `text` is a prefix of `rewritten` followed by a suffix of `original`.
    private static func isPartlyRestored(_ text: [UInt8], rewritten: [UInt8], original: [UInt8]) -> Bool {
        let shared = zip(text, rewritten).prefix { $0 == $1 }.count
        return (0...shared).contains { cut in
            let rest = text[cut...]
            return rest.count <= original.count && original[(original.count - rest.count)...].elementsEqual(rest)
        }
    }

    /// Pumps `coordinator` until idle, checking the text after every dispatch that applied a
    /// replace; returns the longest replace (removed or inserted bytes) and how many there were.
    /// `between` (the engine typing) may give a new lead (text the engine put before the
    /// change) and original (with the engine's edits in it) that the text is checked against.
    private func pumpChecking(_ engine: TestEngine, _ coordinator: Coordinator, original: String,
                              between: ((Int) throws -> (lead: String, original: String)?)? = nil) throws -> (longest: Int, replaces: Int) {
        var lead: [UInt8] = [], originalBytes = Array(original.utf8)
        let rewritten = Array(Self.rewrittenText.utf8)
        let before = engine.appliedReplaces.count
        var checked = before, lost: String?
        XCTAssertTrue(try engine.pump(coordinator, timeoutMilliseconds: 60_000) {
            guard checked != engine.appliedReplaces.count else { return coordinator.isIdle }
            checked = engine.appliedReplaces.count
            let text = Array(engine.text.utf8)
            let whole = lead + originalBytes
            if text != whole, !(text.starts(with: lead) && Self.isPartlyRestored(Array(text[lead.count...]), rewritten: rewritten, original: originalBytes)),
               lost == nil {
                lost = "after \(checked - before) replaces: \(text.count) bytes, starting \(String(decoding: text.prefix(40), as: UTF8.self))"
            }
            do {
                if let changed = try between?(checked - before) {
                    lead = Array(changed.lead.utf8)
                    originalBytes = Array(changed.original.utf8)
                }
            } catch { XCTFail("the engine's edit: \(error)") }
            return coordinator.isIdle
        })
        XCTAssertNil(lost, "the text was neither the original nor a prefix of the rewrite followed by a suffix of the original")
        let applied = engine.appliedReplaces[before...]
        return (applied.map { max($0.range.count, $0.text.utf8.count) }.max() ?? 0, applied.count)
    }

    func testRevertPutsALongBaseBackInBoundedPiecesLosingNothing() throws {
        let engine = TestEngine(Self.original)
        let coordinator = try rewritten(engine)
        try coordinator.revert()
        let (longest, replaces) = try pumpChecking(engine, coordinator, original: Self.original)
        XCTAssertTrue(engine.text == Self.original, "revert puts the original back byte for byte")
        XCTAssertLessThanOrEqual(longest, RestoringPiece.longest, "no replace carries more than a piece")
        XCTAssertGreaterThanOrEqual(replaces, 8, "put back a piece per replace")
    }

    func testShowOriginalPutsALongBaseBackInBoundedPiecesAndTheRewriteComesBack() throws {
        let engine = TestEngine(Self.original)
        let coordinator = try rewritten(engine)
        try coordinator.showOriginal(true)
        let (longest, replaces) = try pumpChecking(engine, coordinator, original: Self.original)
        XCTAssertTrue(engine.text == Self.original, "show original shows the original byte for byte")
        XCTAssertLessThanOrEqual(longest, RestoringPiece.longest, "no replace carries more than a piece")
        XCTAssertGreaterThanOrEqual(replaces, 8, "put back a piece per replace")
        try coordinator.showOriginal(false)
        try settle(engine, coordinator)
        XCTAssertTrue(engine.text == Self.rewrittenText, "show rewritten shows the rewrite again (\(engine.text.utf8.count) bytes)")
        try coordinator.revert()
        try settle(engine, coordinator)
        XCTAssertTrue(engine.text == Self.original, "revert after both puts the original back")
    }

    /// The engine types between two pieces, once in the base already put back and once before
    /// the change: both stay, and the rest of the base still comes back around them.
    func testEngineEditsBetweenPiecesStay() throws {
        let engine = TestEngine(Self.original)
        let coordinator = try rewritten(engine)
        let id = coordinator.contextIDs[0]
        try coordinator.revert()
        var typed = false
        var expected = Array(Self.original.utf8)
        expected.insert(contentsOf: "ZZ".utf8, at: expected.count - 10)
        _ = try pumpChecking(engine, coordinator, original: Self.original) { replaces in
            guard replaces >= 3, !typed else { return nil }
            typed = true
            // Ten bytes before the end: inside the base's tail already back.
            let near = engine.text.utf8.count - 10
            engine.edit(near..<near, "ZZ")
            try coordinator.updateRange(contextID: id, range: near..<near, text: "ZZ", reason: .typing)
            engine.edit(0..<0, "Start. ")
            try coordinator.updateRange(contextID: id, range: 0..<0, text: "Start. ", reason: .typing)
            return ("Start. ", String(decoding: expected, as: UTF8.self))
        }
        XCTAssertTrue(typed, "the engine typed between pieces")
        expected.insert(contentsOf: "Start. ".utf8, at: 0)
        XCTAssertTrue(Array(engine.text.utf8) == expected, "the original comes back with the engine's edits where it made them")
    }

    /// The rewrite went in as one replace of the region; the ledger holds it without the bytes
    /// the region and the sentence share at their ends (the plan's `ChangedCore`: recorded as
    /// the core's replace, the same change `EditLedger.trimmed` makes of the whole one).
    func testALongChangeIsRecordedWithoutItsSharedEnds() throws {
        let engine = TestEngine(Self.original)
        let coordinator = try rewritten(engine)
        let context = try XCTUnwrap(coordinator.session?.working)
        let whole = LedgerHunk(base: 0..<Self.original.utf8.count, baseText: AttributedText(Self.original),
                               text: AttributedText(Self.rewrittenText))
        let trimmed = try XCTUnwrap(EditLedger.trimmed(whole))
        XCTAssertNotEqual(trimmed.base, whole.base, "the texts share bytes at an end (else this tests nothing)")
        XCTAssertEqual(context.ledger.hunks.count, 1)
        let hunk = try XCTUnwrap(context.ledger.hunks.first)
        XCTAssertEqual(hunk.base, trimmed.base)
        XCTAssertTrue(hunk.baseText == trimmed.baseText && hunk.text == trimmed.text, "the change is the trimmed one")
        XCTAssertEqual(context.coresRecorded, 1, "recorded as the core the plan made")
        try coordinator.revert()
        try settle(engine, coordinator)
        XCTAssertTrue(engine.text == Self.original, "revert puts the original back byte for byte")
    }

    /// The engine types inside the region while show rewritten's plan is out: the plan's
    /// edit no longer holds what it expected there (the plan's knowledge of the text is not
    /// taken as still true), so it is withdrawn, and the engine's text stays.
    func testAnEngineEditWhileALongPlanIsOutStays() throws {
        let engine = TestEngine(Self.original)
        let coordinator = try rewritten(engine)
        let id = coordinator.contextIDs[0]
        try coordinator.showOriginal(true)
        try settle(engine, coordinator)
        XCTAssertTrue(engine.text == Self.original)
        try coordinator.showOriginal(false)
        XCTAssertTrue(coordinator.session?.alignment.isInFlight ?? false, "the step's edits are planned on a runtime thread")
        engine.edit(100..<100, "QQ")
        try coordinator.updateRange(contextID: id, range: 100..<100, text: "QQ", reason: .typing)
        try settle(engine, coordinator)
        var typed = Array(Self.original.utf8)
        typed.insert(contentsOf: "QQ".utf8, at: 100)
        XCTAssertTrue(Array(engine.text.utf8) == typed, "the engine's edit stays, the region around it as it was")
        try coordinator.revert()
        try settle(engine, coordinator)
        XCTAssertTrue(Array(engine.text.utf8) == typed, "revert keeps the engine's edit")
    }

    /// An attachment inside a long region rewritten into one sentence stays, and so does the
    /// original around it after revert (the plan keeps protected text out of its edits; a
    /// replace is looked at for it again unless the plan read its range without one).
    func testAnAttachmentInALongRegionStays() throws {
        let half = Self.original.utf8.count / 2
        var bytes = Array(Self.original.utf8)
        bytes.insert(contentsOf: "\u{FFFC}".utf8, at: half)
        let original = String(decoding: bytes, as: UTF8.self)
        let engine = TestEngine(original)
        var options = CoordinatorOptions()
        options.streaming = .wholeResult
        let coordinator = try Coordinator(delegate: engine, options: options, providers: [ShortRewriter()])
        try coordinator.start(.rewriteFriendly)
        try settle(engine, coordinator)
        XCTAssertTrue(engine.text.contains("\u{FFFC}"), "the attachment is still in the text (\(engine.text.utf8.count) bytes)")
        try coordinator.revert()
        try settle(engine, coordinator)
        XCTAssertTrue(engine.text == original, "revert puts the original back byte for byte")
    }

    /// A long replace beside one of Emend's changes is recorded whole, as without a core: the
    /// ledger merges a replace with every change it touches, and the core would not touch it.
    func testALongReplaceBesideAChangeIsRecordedWhole() throws {
        let text = "Short. " + Self.original
        func delivered(withCore: Bool) throws -> (hunks: [LedgerHunk], cores: Int) {
            let context = SessionContext(id: 1, description: ContextDescription(text: AttributedText(text), selection: 0..<0))
            context.applyDelivered(0..<5, AttributedText("Brief"), styled: false, replaced: "Short", replacedChecked: true)
            let range = 5..<text.utf8.count
            let expected = context.text.substring(range)
            let replacement = ". " + Self.rewrittenText
            let core = try XCTUnwrap(ChangedCore(expected: expected, replacement: replacement))
            XCTAssertGreaterThan(core.prefix, 0, "the texts share their first bytes, beside the change before them")
            context.applyDelivered(range, AttributedText(replacement), styled: false, replaced: expected, replacedChecked: true,
                                   core: withCore ? core : nil)
            XCTAssertEqual(context.text.string, "Brief" + replacement)
            return (context.ledger.hunks, context.coresRecorded)
        }
        let whole = try delivered(withCore: false), offered = try delivered(withCore: true)
        XCTAssertEqual(offered.cores, 0, "beside a change: not recorded as the core")
        XCTAssertEqual(offered.hunks.map(\.base), whole.hunks.map(\.base))
        XCTAssertTrue(zip(offered.hunks, whole.hunks).allSatisfy { $0.baseText == $1.baseText && $0.text == $1.text })
    }
}
