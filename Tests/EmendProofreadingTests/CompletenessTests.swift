import Foundation
import XCTest
import EmendCore
@testable import EmendProofreading

/// A sink that also keeps the completeness report.
private final class ReportingSink: ProviderSink, @unchecked Sendable {
    private let lock = NSLock()
    private var editList: [ProviderEdit] = []
    private var reports: [Completeness] = []
    var isCancelled: Bool { false }
    func emitText(_ chunk: String) {}
    func emitEdit(_ edit: ProviderEdit) { lock.withLock { editList.append(edit) } }
    func log(_ message: String) {}
    func reportCompleteness(_ completeness: Completeness) { lock.withLock { reports.append(completeness) } }
    var edits: [ProviderEdit] { lock.withLock { editList } }
    var report: Completeness? { lock.withLock { reports.last } }
}

/// Answers after `delay` ms (or when asked to stop), with one edit; counts its runs.
private final class Checker: WritingProvider, @unchecked Sendable {
    let id: String
    let tools: Set<WritingTool> = [.proofread]
    let delay: Int64
    let edit: ProviderEdit
    private let lock = NSLock()
    private var runCount = 0
    init(_ id: String, delay: Int64 = 0, edit: ProviderEdit) {
        self.id = id
        self.delay = delay
        self.edit = edit
    }
    var runs: Int { lock.withLock { runCount } }
    func run(_ request: ProviderRequest, sink: ProviderSink) -> ProviderOutcome {
        lock.withLock { runCount += 1 }
        let started = MonotonicClock.nowMilliseconds()
        while MonotonicClock.nowMilliseconds() - started < delay {
            if sink.isCancelled { return .failed("cancelled") }
            usleep(5_000)
        }
        sink.emitEdit(edit)
        return .finished
    }
}

/// Declines every request, as Hunspell does for a language it has no dictionary for.
private struct Decliner: WritingProvider {
    let id = "org.test.decliner"
    let tools: Set<WritingTool> = [.proofread]
    func run(_ request: ProviderRequest, sink: ProviderSink) -> ProviderOutcome {
        .declined("org.test.decliner: no dictionary for \(request.language)")
    }
}

final class CompletenessTests: XCTestCase {
    private let text = "Some text."
    private var request: ProviderRequest { ProviderRequest(tool: .proofread, text: text, selection: 0..<text.utf8.count) }

    func testACheckerPastItsOwnLimitIsLeftOutAndReported() {
        let fast = Checker("org.test.fast", edit: ProviderEdit(range: 5..<9, replacement: "word", category: "grammar"))
        let slow = Checker("org.test.slow", delay: 10_000, edit: ProviderEdit(range: 0..<4, replacement: "late", category: "grammar"))
        let combined = CombinedProofreader(members: [slow, fast], terms: ["org.test.slow": MemberTerms(timeoutMilliseconds: 200)])
        let sink = ReportingSink()
        let started = MonotonicClock.nowMilliseconds()
        XCTAssertEqual(combined.run(request, sink: sink), .finished)
        XCTAssertLessThan(MonotonicClock.nowMilliseconds() - started, 3_000, "left out at its limit, not waited for")
        XCTAssertEqual(sink.edits.map(\.replacement), ["word"], "the answer of the checker that finished")
        let report = try! XCTUnwrap(sink.report)
        XCTAssertTrue(report.isPartial)
        XCTAssertEqual(report.parts.map(\.providerID), ["org.test.slow", "org.test.fast"])
        XCTAssertEqual(report.parts[0].part, .timedOut(milliseconds: 200, setting: "[providers.\"org.test.slow\"] timeout_ms in config.toml"))
        XCTAssertEqual(report.parts[1].part, .finished)
        XCTAssertTrue(report.message.hasPrefix("partial result: org.test.slow did not finish within 200 ms"), report.message)
    }

    func testACheckerThatDeclinesTheLanguageIsSkippedWithItsReasonAndLeavesNoGap() {
        let fast = Checker("org.test.fast", edit: ProviderEdit(range: 5..<9, replacement: "word", category: "grammar"))
        let combined = CombinedProofreader(members: [Decliner(), fast])
        let sink = ReportingSink()
        var german = request
        german.language = "de-DE"
        XCTAssertEqual(combined.run(german, sink: sink), .finished)
        XCTAssertEqual(sink.edits.map(\.replacement), ["word"])
        let report = try! XCTUnwrap(sink.report)
        XCTAssertFalse(report.isPartial, "a language not served is no gap: \(report.message)")
        XCTAssertEqual(report.parts[0].part, .skipped("no dictionary for de-DE"))
        XCTAssertEqual(report.message, "org.test.decliner did not take part: no dictionary for de-DE")
        // Alone, a decline is the run's failure, with its reason.
        let alone = CombinedProofreader(members: [Decliner()])
        guard case .failed(let why) = alone.run(german, sink: ReportingSink()) else { return XCTFail("a decline alone fails the run") }
        XCTAssertTrue(why.contains("no dictionary for de-DE"), why)
    }

    func testEachLimitCountsFromTheCheckersOwnStartNotTheFirstAnswer() {
        // The old rule left out any checker still working 20 s after the first answered: a
        // checker that answers at once started the clock of the others. Now an instant answer
        // changes nothing for a checker within its own limit.
        let instant = Checker("org.test.instant", edit: ProviderEdit(range: 5..<9, replacement: "word", category: "grammar"))
        let steady = Checker("org.test.steady", delay: 600, edit: ProviderEdit(range: 0..<4, replacement: "Same", category: "grammar"))
        let combined = CombinedProofreader(members: [instant, steady], terms: ["org.test.steady": MemberTerms(timeoutMilliseconds: 5_000)])
        let sink = ReportingSink()
        XCTAssertEqual(combined.run(request, sink: sink), .finished)
        XCTAssertEqual(Set(sink.edits.map(\.replacement)), ["word", "Same"])
        XCTAssertEqual(sink.report?.isPartial, false)
        XCTAssertEqual(sink.report?.message, "")
    }

    func testACheckerThatDoesNotServeTheLanguageDoesNotTakePartAndSaysSo() {
        let english = Checker("org.test.english", edit: ProviderEdit(range: 5..<9, replacement: "word", category: "spelling"))
        let any = Checker("org.test.any", edit: ProviderEdit(range: 0..<4, replacement: "Same", category: "grammar"))
        let combined = CombinedProofreader(members: [english, any], terms: ["org.test.english": MemberTerms(languages: ["en-US", "en-GB"])])
        var german = request
        german.language = "de-DE"
        let sink = ReportingSink()
        XCTAssertEqual(combined.run(german, sink: sink), .finished)
        XCTAssertEqual(english.runs, 0, "not run at all")
        XCTAssertEqual(sink.edits.map(\.replacement), ["Same"])
        let report = try! XCTUnwrap(sink.report)
        XCTAssertFalse(report.isPartial, "a checker that does not serve the language leaves nothing missing")
        XCTAssertEqual(report.message, "org.test.english did not take part: it does not serve de-DE (it serves en-US, en-GB)")
        // The same language in another region is served.
        var british = request
        british.language = "en-AU"
        XCTAssertEqual(combined.run(british, sink: ReportingSink()), .finished)
        XCTAssertEqual(english.runs, 1)
        // No checker serves the language: the run fails and says why.
        let only = CombinedProofreader(members: [english, Checker("org.test.fr", edit: english.edit)],
                                       terms: ["org.test.english": MemberTerms(languages: ["en"]), "org.test.fr": MemberTerms(languages: ["fr"])])
        guard case .failed(let why) = only.run(german, sink: ReportingSink()) else { return XCTFail("no checker serves de-DE") }
        XCTAssertTrue(why.hasPrefix("no checker serves proofreading in de-DE"), why)
    }

    func testAFailedCheckerMakesThePartialReportWithItsReason() {
        struct Broken: WritingProvider {
            let id = "org.test.broken"
            let tools: Set<WritingTool> = [.proofread]
            func run(_ request: ProviderRequest, sink: ProviderSink) -> ProviderOutcome { .failed("org.test.broken: its host ended (signal 11)") }
        }
        let fine = Checker("org.test.fine", edit: ProviderEdit(range: 5..<9, replacement: "word", category: "grammar"))
        let sink = ReportingSink()
        XCTAssertEqual(CombinedProofreader(members: [Broken(), fine]).run(request, sink: sink), .finished)
        XCTAssertEqual(sink.report?.isPartial, true)
        XCTAssertEqual(sink.report?.message, "partial result: org.test.broken: its host ended (signal 11) (left out)")
    }

    func testTimeLimitsGrowWithTheTextAndStayWithinTheRunsLimit() {
        let terms = MemberTerms(timeoutMilliseconds: 1_000)
        XCTAssertEqual(MemberTimeLimit.of("a", terms: terms, textBytes: 100, overall: nil).milliseconds, 1_000)
        XCTAssertEqual(MemberTimeLimit.of("a", terms: terms, textBytes: MemberTimeLimit.unitBytes * 4, overall: nil).milliseconds, 4_000)
        XCTAssertEqual(MemberTimeLimit.of("a", terms: MemberTerms(), textBytes: 10, overall: nil).milliseconds, MemberTimeLimit.defaultMilliseconds)
        let capped = MemberTimeLimit.of("a", terms: terms, textBytes: MemberTimeLimit.unitBytes * 40, overall: 10_000)
        XCTAssertEqual(capped.milliseconds, 9_000, "a margin before the run's own limit, to answer with what the others found")
        XCTAssertTrue(capped.setting.contains("--timeout"), capped.setting)
    }
    /// The run's deadline (`ProviderRequest.deadline`: the coordinator's limit as one instant)
    /// bounds every member, whenever this run or the member started: a checker that hangs is
    /// left out before it, named with the run's limit, and the others' answers are kept.
    func testTheRunsDeadlineLeavesAHangingCheckerOutAndNamesTheRunsLimit() {
        let fast = Checker("org.test.fast", edit: ProviderEdit(range: 5..<9, replacement: "word", category: "grammar"))
        let hanging = Checker("org.test.hanging", delay: 600_000, edit: ProviderEdit(range: 0..<4, replacement: "late", category: "grammar"))
        // Its own limit (10 minutes) is far past the run's.
        let combined = CombinedProofreader(members: [hanging, fast], terms: ["org.test.hanging": MemberTerms(timeoutMilliseconds: 600_000)])
        XCTAssertTrue(combined.answersByDeadline)
        var bounded = request
        bounded.timeLimitMilliseconds = 1_000
        bounded.deadline = MonotonicClock.nowMilliseconds() + 1_000
        let sink = ReportingSink()
        XCTAssertEqual(combined.run(bounded, sink: sink), .finished)
        XCTAssertEqual(sink.edits.map(\.replacement), ["word"])
        let report = try! XCTUnwrap(sink.report)
        XCTAssertEqual(report.parts[0].part, .timedOut(milliseconds: 1_000, setting: MemberTimeLimit.runSetting))
        XCTAssertTrue(report.message.contains("org.test.hanging did not finish within 1000 ms"), report.message)
        XCTAssertTrue(report.message.contains("--timeout"), report.message)
    }

    /// A run that starts late (a loaded machine: its thread ran long after the coordinator
    /// set the deadline) answers at once with what it has, not after a relative limit of its
    /// own that would end past the coordinator's: no timer race decides the outcome.
    func testARunStartedPastItsDeadlineAnswersAtOnceWithWhatItHas() {
        let hanging = Checker("org.test.hanging", delay: 600_000, edit: ProviderEdit(range: 0..<4, replacement: "late", category: "grammar"))
        let combined = CombinedProofreader(members: [hanging])
        var late = request
        late.timeLimitMilliseconds = 60_000
        late.deadline = MonotonicClock.nowMilliseconds() - 1
        let sink = ReportingSink()
        let started = MonotonicClock.nowMilliseconds()
        XCTAssertEqual(combined.run(late, sink: sink), .finished, "an empty result that says so, not a failure")
        XCTAssertLessThan(MonotonicClock.nowMilliseconds() - started, 20_000, "not its own 30 s limit")
        XCTAssertEqual(sink.edits, [])
        XCTAssertEqual(sink.report?.parts.first?.part, .timedOut(milliseconds: 60_000, setting: MemberTimeLimit.runSetting))
        XCTAssertEqual(sink.report?.isPartial, true)
    }
}
