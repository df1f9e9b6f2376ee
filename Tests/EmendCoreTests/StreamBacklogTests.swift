import XCTest
import Glibc
@testable import EmendCore

/// A provider that writes far faster than streamed parts go into the text (a flood, the
/// engine's thread busy) stops the stream once `Coordinator.longestStreamBacklog` bytes wait:
/// the rest arrives with the whole result, so what waits never grows into a buffer of
/// megabytes doubled inside one text event. Nothing is lost: the result ends in the text, and
/// revert puts the original back.
final class StreamBacklogTests: XCTestCase {
    static let original = "Short one. Another one. "
    static let pieces = 6
    /// Piece `index`: numbered sentences, about 256 KB.
    static func piece(_ index: Int) -> String {
        (0..<10_000).map { "Sentence \(index * 10_000 + $0) goes on. " }.joined()
    }

    /// Emits every piece at once, then says so (the test dispatches only after that: all the
    /// text is waiting when the first part goes in).
    final class QuickProvider: WritingProvider, @unchecked Sendable {
        let id = "org.emend.tests.quick-flood"
        let tools: Set<WritingTool> = [.rewriteFriendly]
        var needsFactCheck: Bool { false }
        private let lock = Lock()
        private var started = false, emitted = false
        var hasStarted: Bool { lock.withLock { started } }
        var hasEmitted: Bool { lock.withLock { emitted } }

        func run(_ request: ProviderRequest, sink: ProviderSink) -> ProviderOutcome {
            lock.withLock { started = true }
            // A moment for the test to stop dispatching.
            usleep(50_000)
            for index in 0..<StreamBacklogTests.pieces { sink.emitText(StreamBacklogTests.piece(index)) }
            lock.withLock { emitted = true }
            return .finished
        }
    }

    func testAStreamFarBehindTheProviderStopsAndTheResultArrivesWhole() throws {
        let result = (0..<Self.pieces).map(Self.piece).joined()
        XCTAssertGreaterThan(result.utf8.count, Coordinator.longestStreamBacklog + 2 * Coordinator.longestStreamedPart,
                             "more waits than the stream may hold")
        let engine = TestEngine(Self.original, selection: 0..<Self.original.utf8.count)
        let provider = QuickProvider()
        var options = CoordinatorOptions()
        options.streaming = .sentences(minimumNewBytes: 1)
        let coordinator = try Coordinator(delegate: engine, options: options, providers: [provider])
        try coordinator.start(.rewriteFriendly)
        // Dispatched until the provider runs, then not until it has written everything.
        XCTAssertTrue(try engine.pump(coordinator, timeoutMilliseconds: 60_000) { provider.hasStarted })
        for _ in 0..<2_000 where !provider.hasEmitted { usleep(5_000) }
        XCTAssertTrue(provider.hasEmitted)
        try engine.run(coordinator, timeoutMilliseconds: 300_000)
        XCTAssertTrue(engine.text == result, "the whole result is in the text (\(engine.text.utf8.count) bytes)")
        // Streamed, all of it would have gone in a part (64 KB) per replace: the stream stopped
        // after a few, and the rest came with the whole result.
        let parts = engine.appliedReplaces.count
        XCTAssertLessThan(parts, result.utf8.count / Coordinator.longestStreamedPart / 2, "the stream stopped: \(parts) replaces")
        XCTAssertEqual(engine.endings.count, 0, "the session rests: \(engine.endings.map(\.message)) \(String(describing: coordinator.lastSessionOutcome))")
        try coordinator.revert()
        try engine.run(coordinator, timeoutMilliseconds: 60_000)
        XCTAssertTrue(engine.text == Self.original, "revert puts the original back")
    }
}
