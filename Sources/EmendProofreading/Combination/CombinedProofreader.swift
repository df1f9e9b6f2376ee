import EmendCore

/// Proofreading by several checkers as one provider: runs them side by side on the same
/// request, waits for all, and emits what `ProofreadingCombiner` keeps. Why wait instead of
/// streaming each checker's edits as it finishes: a flag can only be dropped for lack of
/// agreement, and a suggestion replaced by a better one, before it is shown.
///
/// Honest about what it lacks: a checker that does not serve the request's language does not
/// take part; each checker that does has its own time limit (`MemberTimeLimit`: from its own
/// start, growing with the text, set by `[providers."ID"] timeout_ms`, within the run's
/// limit), after which it is asked to stop and left out; one that fails is left out; one that
/// declines the request (`ProviderOutcome.declined`: Hunspell without a dictionary for the
/// language) is skipped with its reason, as one that does not list the language. The run
/// fails only when none answered. What became of each checker goes to the sink as a
/// `Completeness` report, which front ends show as a partial result.
public final class CombinedProofreader: WritingProvider, @unchecked Sendable {
    public static let combinedID = "org.emend.combined"
    public let members: [WritingProvider]
    /// By provider id; a member without an entry has the default terms.
    public let terms: [String: MemberTerms]
    public let combiner: ProofreadingCombiner

    public init(members: [WritingProvider], terms: [String: MemberTerms] = [:], combiner: ProofreadingCombiner = ProofreadingCombiner()) {
        self.members = members
        self.terms = terms
        self.combiner = combiner
    }

    /// A checker alone keeps its own id (and whether it may be asked again): it is shown as
    /// it is, only bounded by its time limit and reported as a partial result past it.
    public var id: String { members.count == 1 ? members[0].id : Self.combinedID }
    public var tools: Set<WritingTool> { [.proofread] }
    public var canRetry: Bool { members.count == 1 ? members[0].canRetry : false }
    /// It ends its members before the request's deadline and answers with what it has.
    public var answersByDeadline: Bool { true }

    /// Collects one member's output on its thread.
    private final class MemberRun: ProviderSink, @unchecked Sendable {
        let parent: ProviderSink
        let monitor: Monitor
        /// Its own limit, or the run's when the run's deadline comes first.
        var limit: MemberTimeLimit
        var deadline: Int64 = .max
        var edits: [ProviderEdit] = []
        var outcome: ProviderOutcome?
        /// Left out of the combination for being too slow: its checker is asked to stop.
        var abandoned = false
        init(parent: ProviderSink, monitor: Monitor, limit: MemberTimeLimit) {
            self.parent = parent
            self.monitor = monitor
            self.limit = limit
        }
        var isCancelled: Bool { parent.isCancelled || monitor.withLock { abandoned } }
        func emitText(_ chunk: String) {}
        func emitEdit(_ edit: ProviderEdit) { monitor.withLock { if !abandoned { edits.append(edit) } } }
        func log(_ message: String) { parent.log(message) }
        func beginWorkOutlivingRun() -> @Sendable () -> Void { parent.beginWorkOutlivingRun() }
    }

    public func run(_ request: ProviderRequest, sink: ProviderSink) -> ProviderOutcome {
        let monitor = Monitor()
        let textBytes = request.selection.count
        // With a deadline, every member is done before it, less the margin in which the
        // combination answers: the same instant the coordinator counts to, however late a
        // loaded machine started this run or its members.
        let overall = request.timeLimitMilliseconds ?? request.deadline.map { max(1, $0 - MonotonicClock.nowMilliseconds()) }
        let membersDone: Int64? = request.deadline.map { $0 - MemberTimeLimit.answerMargin(overall: overall ?? 0) }
        var parts: [ProviderPart?] = []
        var runs: [MemberRun?] = []
        for member in members {
            let memberTerms = terms[member.id] ?? MemberTerms()
            guard memberTerms.serves(request.language) else {
                parts.append(.skipped(Self.notServing(request.language, serves: memberTerms.languages)))
                runs.append(nil)
                continue
            }
            let limit = MemberTimeLimit.of(member.id, terms: memberTerms, textBytes: textBytes,
                                           overall: membersDone == nil ? request.timeLimitMilliseconds : nil)
            parts.append(nil)
            runs.append(MemberRun(parent: sink, monitor: monitor, limit: limit))
        }
        if runs.compactMap({ $0 }).count > 1 { warmLexicon(sink) }
        for (member, memberRun) in zip(members, runs) {
            guard let memberRun else { continue }
            // A member may still be running when this run returns (after a stop): the host is
            // told, so that it waits for that code before the coordinator counts as idle.
            let ended = sink.beginWorkOutlivingRun()
            monitor.withLock {
                let now = MonotonicClock.nowMilliseconds()
                let (sum, overflow) = now.addingReportingOverflow(memberRun.limit.milliseconds)
                memberRun.deadline = overflow ? .max : sum
                if let membersDone, membersDone < memberRun.deadline {
                    // The run's limit comes first: a time-out names it, not the checker's own.
                    memberRun.deadline = membersDone
                    memberRun.limit = MemberTimeLimit(milliseconds: overall ?? max(1, membersDone - now), setting: MemberTimeLimit.runSetting)
                }
            }
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
        // Every member answers, is past its own limit, or the run is stopped; look at the
        // cancel flag now and then, so that a stop is not held up by a slow checker.
        monitor.lock()
        while !sink.isCancelled {
            let now = MonotonicClock.nowMilliseconds()
            var waiting = false
            var next = now + 50
            for memberRun in runs.compactMap({ $0 }) where memberRun.outcome == nil && !memberRun.abandoned {
                if memberRun.deadline <= now {
                    memberRun.abandoned = true
                } else {
                    waiting = true
                    next = min(next, memberRun.deadline)
                }
            }
            if !waiting { break }
            monitor.wait(milliseconds: Int(max(1, min(50, next - now))))
        }
        var finished: [MemberEdits] = []
        for (rank, pair) in zip(members, runs).enumerated() {
            guard let run = pair.1 else { continue }
            // Left out at its limit: it timed out, whatever it answered after (asked to stop,
            // it answers "cancelled"; that came in while another member was still awaited, as
            // on a loaded machine, and read as a failure).
            if run.abandoned {
                parts[rank] = .timedOut(milliseconds: run.limit.milliseconds, setting: run.limit.setting)
                continue
            }
            switch run.outcome {
            case .finished?:
                parts[rank] = .finished
                finished.append(MemberEdits(providerID: pair.0.id, rank: rank, edits: run.edits))
            case .failed(let why)?:
                parts[rank] = .failed(why)
            case .declined(let why)?:
                // It does not serve the request (no dictionary for the language): skipped,
                // with its reason, and no gap in the result.
                let prefix = pair.0.id + ": "
                parts[rank] = .skipped(why.hasPrefix(prefix) ? String(why.dropFirst(prefix.count)) : why)
            case nil:
                run.abandoned = true
                parts[rank] = .timedOut(milliseconds: run.limit.milliseconds, setting: run.limit.setting)
            }
        }
        monitor.unlock()
        if sink.isCancelled { return .failed("cancelled") }
        let report = Completeness(parts: zip(members, parts).map { Completeness.Part(providerID: $0.id, part: $1 ?? .finished) })
        for part in report.parts where part.part != .finished { sink.log("combination: \(part.sentence)") }
        sink.reportCompleteness(report)
        // Every checker that took part ran out of time: an empty result that says so (exit 4
        // in the CLI), not a failed session, as when only some of them did.
        if finished.isEmpty, report.parts.contains(where: { if case .timedOut = $0.part { return true } else { return false } }),
           !report.parts.contains(where: { if case .failed = $0.part { return true } else { return false } }) {
            return .finished
        }
        guard !finished.isEmpty else {
            // Nothing to combine: the run fails with why each checker gave nothing, in the
            // words of a failure (no result is "left out" of a result there is not).
            let reasons = report.parts.map { part -> String in
                switch part.part {
                case .failed(let why): return why.contains(part.providerID) ? why : "\(part.providerID): \(why)"
                case .timedOut(let milliseconds, let setting):
                    return "\(part.providerID) did not finish within \(milliseconds) ms (raise \(setting))"
                case .finished, .skipped: return part.sentence
                }
            }.joined(separator: "; ")
            if !report.parts.contains(where: { if case .skipped = $0.part { return false } else { return true } }) {
                return .failed("no checker serves proofreading in \(request.language): \(reasons)")
            }
            return .failed(reasons)
        }
        if members.count == 1 {
            // Nothing to weigh it against: its suggestions as it gave them.
            for edit in finished[0].edits { sink.emitEdit(edit) }
            return .finished
        }
        for combined in combiner.combine(finished, text: request.text) { sink.emitEdit(combined.edit) }
        return .finished
    }

    /// Reads the combiner's dictionaries (`Lexicon.installed`: tenths of a second in a debug
    /// build, seconds on a loaded machine) on a thread of their own while the members check,
    /// once per process. Why: read lazily by the combination itself, they were read after the
    /// members' time limits, inside the margin left for the combination to answer before the
    /// run's limit, which a loaded machine overran: the run then failed (timed out) instead of
    /// answering with the late member left out. Now the outcome does not depend on the
    /// machine's speed; a run that combines nothing only read them early.
    private func warmLexicon(_ sink: ProviderSink) {
        let lexicon = combiner.lexicon
        guard !lexicon.isRead else { return }
        let ended = sink.beginWorkOutlivingRun()
        do throws(EmendError) {
            try RuntimeThread.start {
                _ = lexicon.isEmpty
                ended()
            }
        } catch {
            ended()   // no thread: the combination reads them itself, as before
        }
    }

    /// The reason of a member skipped because its descriptor does not list the language.
    static func notServing(_ language: String, serves languages: [String]) -> String {
        "\(notServingOpening)\(language) (it serves \(languages.joined(separator: ", ")))"
    }

    private static let notServingOpening = "it does not serve "

    /// Whether a `.skipped` reason is `notServing`'s (the checker never serves the language),
    /// not a checker's own refusal (`.declined`: Hunspell lacking the dictionary, which
    /// installing one would cure). `LanguageDetectingProofreader` tells the two apart.
    static func isNotServing(_ reason: String) -> Bool { reason.hasPrefix(notServingOpening) }
}
