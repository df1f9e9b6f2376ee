import Glibc
import EmendCore

/// A built-in checker for tests of partial results, present only when the environment asks
/// for it (`EMEND_FIXTURE_SLOW_CHECKER_MS`, as `EMEND_FIXTURE_CHUNK_DELAY_MS` slows the
/// fixture): it takes that long, or until asked to stop, before it answers with the
/// fixture's corrections. Listed with the fixture in `[tools] proofread`, it makes a combined
/// proofread whose second checker runs past a `timeout_ms`, deterministically, in every
/// front end (the CLI, `emend lsp`, libemend and the editors on it).
public struct SlowFixtureChecker: WritingProvider {
    public static let checkerID = "org.emend.fixture.slow"
    public static let environmentVariable = "EMEND_FIXTURE_SLOW_CHECKER_MS"
    public let id = SlowFixtureChecker.checkerID
    public let tools: Set<WritingTool> = [.proofread]
    public var canRetry: Bool { false }
    public let delayMilliseconds: Int64

    public init(delayMilliseconds: Int64) {
        self.delayMilliseconds = delayMilliseconds
    }

    /// The checker `environment` asks for, if any.
    public static func fromEnvironment(_ environment: [String: String]) -> SlowFixtureChecker? {
        guard let value = environment[environmentVariable].flatMap({ Int64($0) }), value >= 0 else { return nil }
        return SlowFixtureChecker(delayMilliseconds: min(value, 600_000))
    }

    public func run(_ request: ProviderRequest, sink: ProviderSink) -> ProviderOutcome {
        let start = MonotonicClock.nowMilliseconds()
        while MonotonicClock.nowMilliseconds() - start < delayMilliseconds {
            if sink.isCancelled { return .failed("\(id): cancelled") }
            usleep(5_000)
        }
        return FixtureProvider().run(request, sink: sink)
    }
}
