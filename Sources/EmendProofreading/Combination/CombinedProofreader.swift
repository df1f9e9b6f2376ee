import EmendCore

/// Proofreading by several checkers as one provider: runs them side by side on the same
/// request, waits for all, and emits what `ProofreadingCombiner` keeps. Why wait instead of
/// streaming each checker's edits as it finishes: a flag can only be dropped for lack of
/// agreement, and a suggestion replaced by a better one, before it is shown. A checker that
/// fails (a language it does not serve, a crash) is left out; the run fails only when all do.
/// A checker still working `stragglerMilliseconds` after the first one answered (one building
/// a large language model on first use) is asked to stop and left out of this request, so
/// that one slow checker cannot hold up, or time out, the others' answer.
public final class CombinedProofreader: WritingProvider, @unchecked Sendable {
    public static let combinedID = "org.emend.combined"
    public let members: [WritingProvider]
    public let combiner: ProofreadingCombiner
    public let stragglerMilliseconds: Int64

    public init(members: [WritingProvider], combiner: ProofreadingCombiner = ProofreadingCombiner(),
                stragglerMilliseconds: Int64 = 20_000) {
        self.members = members
        self.combiner = combiner
        self.stragglerMilliseconds = stragglerMilliseconds
    }

    public var id: String { Self.combinedID }
    public var tools: Set<WritingTool> { [.proofread] }
    public var canRetry: Bool { false }

    /// Collects one member's output on its thread.
    private final class MemberRun: ProviderSink, @unchecked Sendable {
        let parent: ProviderSink
        let monitor: Monitor
        var edits: [ProviderEdit] = []
        var outcome: ProviderOutcome?
        /// Left out of the combination for being too slow: its checker is asked to stop.
        var abandoned = false
        init(parent: ProviderSink, monitor: Monitor) {
            self.parent = parent
            self.monitor = monitor
        }
        var isCancelled: Bool { parent.isCancelled || monitor.withLock { abandoned } }
        func emitText(_ chunk: String) {}
        func emitEdit(_ edit: ProviderEdit) { monitor.withLock { edits.append(edit) } }
        func log(_ message: String) { parent.log(message) }
        func beginWorkOutlivingRun() -> @Sendable () -> Void { parent.beginWorkOutlivingRun() }
    }

    public func run(_ request: ProviderRequest, sink: ProviderSink) -> ProviderOutcome {
        let monitor = Monitor()
        let runs = members.map { _ in MemberRun(parent: sink, monitor: monitor) }
        for (member, memberRun) in zip(members, runs) {
            // A member may still be running when this run returns (after a stop): the host is
            // told, so that it waits for that code before the coordinator counts as idle.
            let ended = sink.beginWorkOutlivingRun()
            do throws(EmendError) {
                try RuntimeThread.start {
                    let outcome = member.run(request, sink: memberRun)
                    monitor.withLock {
                        memberRun.outcome = outcome
                        monitor.broadcast()
                    }
                    ended()
                }
            } catch {
                ended()
                monitor.withLock { memberRun.outcome = .failed(error.message) }
            }
        }
        // Every member answers within its own time limit (or when cancelled); look at the
        // cancel flag now and then, so that a stop is not held up by a slow checker.
        monitor.lock()
        var firstAnswer: Int64?
        while runs.contains(where: { $0.outcome == nil }) && !sink.isCancelled {
            let now = MonotonicClock.nowMilliseconds()
            if firstAnswer == nil, runs.contains(where: { $0.outcome != nil }) { firstAnswer = now }
            if let first = firstAnswer, now - first >= stragglerMilliseconds { break }
            monitor.wait(milliseconds: 50)
        }
        var stragglers: [String] = []
        for (member, run) in zip(members, runs) where run.outcome == nil {
            run.abandoned = true
            stragglers.append(member.id)
        }
        let finished = zip(members, runs).enumerated().compactMap { rank, pair -> MemberEdits? in
            guard case .finished = pair.1.outcome else { return nil }
            return MemberEdits(providerID: pair.0.id, rank: rank, edits: pair.1.edits)
        }
        let failures = zip(members, runs).compactMap { member, run -> String? in
            if case .failed(let why) = run.outcome { return "\(member.id): \(why)" }
            return nil
        }
        monitor.unlock()
        if sink.isCancelled { return .failed("cancelled") }
        for id in stragglers {
            sink.log("left out of the combination: \(id) did not answer within \(stragglerMilliseconds) ms of the first checker")
        }
        for failure in failures { sink.log("left out of the combination: \(failure)") }
        guard !finished.isEmpty else { return .failed(failures.joined(separator: "; ")) }
        for combined in combiner.combine(finished, text: request.text) { sink.emitEdit(combined.edit) }
        return .finished
    }
}
