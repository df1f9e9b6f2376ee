import XCTest
import Glibc
@testable import EmendCore

/// A rewrite that streamed far more than one replace should carry into the text and then
/// failed (a provider host refuses a result over max_result_bytes) goes back out a bounded
/// piece per replace (`RestoringPiece`), never in one replace of all of it (16 MB: one
/// dispatch of 18–23 ms). Nothing is lost meanwhile: after every dispatch the engine's text is
/// the original, or a prefix of what streamed in followed by what is left of the original.
final class RefusedFloodTests: XCTestCase {
    static let original = "The text is short. It has two sentences. "
    static let piece = String(repeating: "This sentence goes on and on. ", count: 16_384 / 30)
    static let pieces = 40

    /// Streams `pieces` pieces, each once the one before it went into the text (so that all
    /// of them are in when it fails), then fails as a host refusing a flood does.
    final class FloodingProvider: WritingProvider, @unchecked Sendable {
        let id = "org.emend.tests.flood"
        let tools: Set<WritingTool> = [.rewriteFriendly]
        var needsFactCheck: Bool { false }
        private let lock = Lock()
        private var applied = 0
        /// The engine applied a replace (engine's thread).
        func noteApplied() { lock.withLock { applied += 1 } }

        func run(_ request: ProviderRequest, sink: ProviderSink) -> ProviderOutcome {
            for index in 0..<RefusedFloodTests.pieces {
                sink.emitText(RefusedFloodTests.piece)
                // A sentence may wait for the next piece to be known as finished: at most 2 s.
                for _ in 0..<400 where lock.withLock({ applied }) < index { usleep(5_000) }
            }
            return .failed("the result is over the limit of max_result_bytes; it was refused")
        }
    }

    func testARefusedFloodGoesBackOutInBoundedReplacesLosingNothing() throws {
        let original = Array(Self.original.utf8)
        let streamed = Array(String(repeating: Self.piece, count: Self.pieces).utf8)
        let engine = TestEngine(Self.original)
        let provider = FloodingProvider()
        var largestReplace = 0
        engine.onApply = { range, text in
            largestReplace = max(largestReplace, range.count, text.utf8.count)
            provider.noteApplied()
        }
        let coordinator = try Coordinator(delegate: engine, options: CoordinatorOptions(), providers: [provider])
        try coordinator.start(.rewriteFriendly)
        var longest = 0, dispatches = 0, checked = -1
        var lost: String?
        XCTAssertTrue(try engine.pump(coordinator, timeoutMilliseconds: 60_000) {
            dispatches += 1
            // The text changes only by replaces: looked at after each dispatch that applied one.
            guard checked != engine.appliedReplaces.count else { return coordinator.isIdle && coordinator.session == nil }
            checked = engine.appliedReplaces.count
            let text = Array(engine.text.utf8)
            longest = max(longest, text.count)
            // The original, or a prefix of the streamed text and then a suffix of the original.
            let common = Self.commonPrefix(text, streamed)
            if text != original, !original.ends(with: text[common...]), lost == nil {
                lost = "dispatch \(dispatches): \(text.count) bytes, \(common) of them streamed"
            }
            return coordinator.isIdle && coordinator.session == nil
        })
        XCTAssertNil(lost, "the text was neither the original nor the original plus a prefix of what streamed in")
        XCTAssertEqual(engine.text, Self.original, "the original comes back byte for byte")
        XCTAssertEqual(engine.endings.count, 1)
        XCTAssertNotEqual(engine.endings.first?.status, .ok, "the session failed")
        // Not vacuous: most of the flood was in the text, more than eight replaces may take out.
        XCTAssertGreaterThan(longest, 8 * RestoringPiece.longest)
        XCTAssertGreaterThanOrEqual(engine.appliedReplaces.filter { $0.kind == .cancel }.count, 8,
                                    "taken back a piece per replace")
        XCTAssertLessThanOrEqual(largestReplace, RestoringPiece.longest, "no replace carries more than a piece")
    }

    /// How many bytes `a` and `b` share at their start (whole `a` at memcmp's speed: the check
    /// runs after every replace, over the whole text).
    private static func commonPrefix(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.count <= b.count, memcmp(a, b, a.count) == 0 { return a.count }
        return zip(a, b).prefix { $0 == $1 }.count
    }

    /// A cut starts a character and, where it can, leaves before it a byte other than the
    /// base text's last; a change no longer than a piece goes whole.
    func testAPieceStartsACharacterAndAvoidsTheBasesLastByte() {
        let text = Array(String(repeating: "é", count: 40).utf8) + Array("xxab".utf8)
        let span = 0..<text.count
        let tail = RestoringPiece.tail(of: span, baseLast: nil, longest: 11) { text[$0] }
        XCTAssertEqual(tail.upperBound, text.count)
        XCTAssertLessThanOrEqual(tail.count, 11)
        XCTAssertNotEqual(text[tail.lowerBound] & 0xC0, 0x80, "a character's first byte")
        let avoiding = RestoringPiece.tail(of: span, baseLast: Array("x".utf8)[0], longest: 3) { text[$0] }
        XCTAssertEqual(avoiding, (text.count - 1)..<text.count, "not after an x: the base ends with one")
        XCTAssertEqual(RestoringPiece.tail(of: 5..<9, baseLast: nil, longest: 11) { text[$0] }, 5..<9)
    }
}

private extension Array where Element == UInt8 {
    func ends(with suffix: ArraySlice<UInt8>) -> Bool {
        suffix.count <= count && self[(count - suffix.count)...].elementsEqual(suffix)
    }
}
