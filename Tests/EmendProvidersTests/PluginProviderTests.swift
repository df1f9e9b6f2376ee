import Foundation
import XCTest
import EmendCore
@testable import EmendProviders

/// Running plugins through PluginProvider: output reaches the sink, cancel stops a stream,
/// and whatever a plugin sends against the rules is refused and logged, never a crash.
final class PluginProviderTests: XCTestCase {
    private func provider(_ path: String, settings: [(key: String, value: String)] = [],
                          logs: PluginLogCollector = PluginLogCollector()) throws -> PluginProvider {
        PluginProvider(record: try PluginLibrary.load(path: path).record, settings: settings, logger: logs.logger)
    }

    /// A build of misbehaving.c of its own, so its recorded statuses are this test's.
    private func misbehaving(_ variant: String, _ defines: [String] = []) throws -> (path: String, provider: PluginProvider) {
        let path = try PluginBuilder.fixture("misbehaving", defines, variant: variant)
        return (path, try provider(path))
    }

    /// The statuses the misbehaving plugin got back, once its scenario made its last call.
    private func statuses(_ path: String) -> [Int32] {
        let done = PluginBuilder.function(path, "misbehaving_done", as: (@convention(c) () -> Int32).self)
        let count = PluginBuilder.function(path, "misbehaving_status_count", as: (@convention(c) () -> Int32).self)
        let status = PluginBuilder.function(path, "misbehaving_status", as: (@convention(c) (Int32) -> Int32).self)
        let deadline = Date().addingTimeInterval(5)
        while done() == 0, Date() < deadline { usleep(1000) }
        return (0..<count()).map { status($0) }
    }

    private func request(_ tool: WritingTool, _ text: String, selection: Range<Int>? = nil, protected: [Range<Int>] = [],
                         prompt: String? = nil) -> ProviderRequest {
        ProviderRequest(tool: tool, text: text, selection: selection ?? 0..<text.utf8.count, protectedRanges: protected, prompt: prompt)
    }

    // MARK: the C example

    func testCExampleProofreads() throws {
        let provider = try provider(try PluginBuilder.example("c"))
        let text = "Café owners recieve teh parcels. Teh rest is wierd."
        let sink = PluginTestSink()
        let outcome = provider.run(request(.proofread, text), sink: sink)
        XCTAssertEqual(outcome, .finished)
        XCTAssertEqual(sink.edits.map(\.range), [byteRange(of: "recieve", in: text), byteRange(of: "teh", in: text),
                                                 byteRange(of: "Teh", in: text), byteRange(of: "wierd", in: text)])
        XCTAssertEqual(sink.edits.map(\.replacement), ["receive", "the", "The", "weird"])
        XCTAssertEqual(Set(sink.edits.map(\.category)), ["spelling"])
        XCTAssertEqual(Set(sink.edits.map(\.ruleID)), ["EXAMPLE_C_SPELLING"])
        XCTAssertEqual(sink.edits[0].explanation, "\"recieve\" is misspelled; did you mean \"receive\"?")
    }

    func testCExampleProofreadsOnlyTheSelectionAndLeavesProtectedTextAlone() throws {
        let provider = try provider(try PluginBuilder.example("c"))
        let text = "Use `teh` to recieve. It is wierd."
        let sink = PluginTestSink()
        let outcome = provider.run(request(.proofread, text, selection: 0..<byteRange(of: "It", in: text).lowerBound,
                                           protected: [byteRange(of: "`teh`", in: text)]), sink: sink)
        XCTAssertEqual(outcome, .finished)
        XCTAssertEqual(sink.edits.map(\.replacement), ["receive"])
    }

    func testCExampleStreamsAConciseRewrite() throws {
        let provider = try provider(try PluginBuilder.example("c"), settings: [(key: "word_delay_ms", value: "1")])
        let sink = PluginTestSink()
        let outcome = provider.run(request(.rewriteConcise, "Really, this is very good, and I just like it."), sink: sink)
        XCTAssertEqual(outcome, .finished)
        XCTAssertEqual(sink.text, "Really, this is good, and I like it.")
        XCTAssertGreaterThan(sink.texts.count, 5, "the rewrite arrives word by word")

        let second = PluginTestSink()
        XCTAssertEqual(provider.run(request(.rewriteConcise, "Really good. Just go."), sink: second), .finished)
        XCTAssertEqual(second.text, "Good. Go.")
    }

    func testCancelStopsTheStreamPromptly() throws {
        let provider = try provider(try PluginBuilder.example("c"), settings: [(key: "word_delay_ms", value: "40")])
        let text = (0..<60).map { "word\($0)" }.joined(separator: " ")
        let sink = PluginTestSink(cancelAfterTexts: 3)
        let started = Date()
        let outcome = provider.run(request(.rewriteConcise, text), sink: sink)
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertEqual(outcome, .failed("cancelled"))
        XCTAssertLessThan(elapsed, 0.8, "the plugin's cancel stops it well before the grace time")
        let delivered = sink.texts.count
        XCTAssertGreaterThanOrEqual(delivered, 3)
        XCTAssertLessThan(delivered, 10)
        usleep(300_000)
        XCTAssertEqual(sink.texts.count, delivered, "nothing arrives after run returned")

        // The instance is still usable.
        let next = PluginTestSink()
        XCTAssertEqual(provider.run(request(.rewriteConcise, "a very b"), sink: next), .finished)
        XCTAssertEqual(next.text, "a b")
    }

    func testCreateFailureFailsEveryRunWithTheReason() throws {
        let path = try PluginBuilder.example("c")
        let logs = PluginLogCollector()
        let provider = try provider(path, settings: [(key: "word_delay_ms", value: "soon")], logs: logs)
        for _ in 0..<2 {
            guard case .failed(let reason) = provider.run(request(.proofread, "teh"), sink: PluginTestSink()) else {
                return XCTFail("the run did not fail")
            }
            XCTAssertEqual(reason, "\(path): create failed with EMEND_E_INVALID_ARGUMENT: "
                           + "word_delay_ms must be a number from 0 to 10000, not \"soon\"")
        }
        XCTAssertTrue(logs.all.contains("org.emend.example.c: error: word_delay_ms must be a number from 0 to 10000, not \"soon\""),
                      "\(logs.all)")
    }

    func testUnknownSettingIsLoggedAtCreate() throws {
        let logs = PluginLogCollector()
        let provider = try provider(try PluginBuilder.example("c"), settings: [(key: "colour", value: "blue")], logs: logs)
        XCTAssertEqual(provider.run(request(.proofread, "fine"), sink: PluginTestSink()), .finished)
        XCTAssertEqual(logs.all, ["org.emend.example.c: warning: unknown setting \"colour\" ignored"])
    }

    // MARK: the Rust example

    func testRustExampleListsSentences() throws {
        try XCTSkipUnless(PluginBuilder.hasTool("cargo"), "cargo is not installed")
        let provider = try provider(try PluginBuilder.example("rust"))
        let text = "Intro. We ship on Monday. Tests pass! Is it fast? Yes.\nDone"
        let selection = byteRange(of: "We", in: text).lowerBound..<text.utf8.count
        let list = PluginTestSink()
        XCTAssertEqual(provider.run(request(.list, text, selection: selection), sink: list), .finished)
        XCTAssertEqual(list.text, "- We ship on Monday.\n- Tests pass!\n- Is it fast?\n- Yes.\n- Done")
        let points = PluginTestSink()
        XCTAssertEqual(provider.run(request(.keyPoints, text, selection: selection), sink: points), .finished)
        XCTAssertEqual(points.text, "- We ship on Monday\n- Tests pass!\n- Is it fast?\n- Yes\n- Done")
    }

    // MARK: loading lazily, destroying

    func testLoadsOnTheFirstRunNotBefore() throws {
        let path = try PluginBuilder.fixture("descriptor", variant: "lazy")
        let record = ProviderRecord(path: path, kind: .plugin, id: "org.emend.test.descriptor", name: "Descriptor test plugin",
                                    version: "0.1.0", tools: [.proofread], languages: ["*"], outputs: 1, streams: false,
                                    usesNetwork: false, priority: 3)
        let logs = PluginLogCollector()
        let provider = PluginProvider(record: record, settings: [(key: "dictionary", value: "en_US")], logger: logs.logger)
        XCTAssertFalse(PluginBuilder.isLoaded(path))
        XCTAssertFalse(provider.isLoaded)
        let sink = PluginTestSink()
        XCTAssertEqual(provider.run(request(.proofread, "text"), sink: sink), .finished)
        XCTAssertTrue(PluginBuilder.isLoaded(path))
        XCTAssertEqual(sink.text, "ok 1")
        XCTAssertEqual(logs.all, ["org.emend.test.descriptor: info: setting dictionary=en_US"])
        let again = PluginTestSink()
        XCTAssertEqual(provider.run(request(.proofread, "text"), sink: again), .finished)
        XCTAssertEqual(again.text, "ok 2", "one instance serves every run")
    }

    func testMissingFileFailsTheRunNotTheInit() {
        let path = PluginBuilder.directory + "/gone.so"
        let record = ProviderRecord(path: path, kind: .plugin, id: "org.example.gone", name: "Gone", version: "1",
                                    tools: [.proofread], languages: ["*"], outputs: 1, streams: false, usesNetwork: false, priority: 0)
        let provider = PluginProvider(record: record, settings: [])
        guard case .failed(let reason) = provider.run(request(.proofread, "x"), sink: PluginTestSink()) else {
            return XCTFail("the run did not fail")
        }
        XCTAssertTrue(reason.hasPrefix("\(path): "), reason)
    }

    func testAFileThatChangedItsIdIsRefused() throws {
        let path = try PluginBuilder.fixture("descriptor", variant: "changed")
        let record = ProviderRecord(path: path, kind: .plugin, id: "org.example.before", name: "Before", version: "1",
                                    tools: [.proofread], languages: ["*"], outputs: 1, streams: false, usesNetwork: false, priority: 0)
        guard case .failed(let reason) = PluginProvider(record: record, settings: []).run(request(.proofread, "x"), sink: PluginTestSink()) else {
            return XCTFail("the run did not fail")
        }
        XCTAssertTrue(reason.contains("now says it is \"org.emend.test.descriptor\""), reason)
    }

    func testCreateFailureQuotesThePluginsLog() throws {
        let path = try PluginBuilder.fixture("descriptor", ["CREATE_FAILS"])
        guard case .failed(let reason) = try provider(path).run(request(.proofread, "x"), sink: PluginTestSink()) else {
            return XCTFail("the run did not fail")
        }
        XCTAssertEqual(reason, "\(path): create failed with EMEND_E_PROVIDER: the model file is missing")
    }

    func testToolTheDescriptorDoesNotServeIsRefused() throws {
        let provider = try provider(try PluginBuilder.example("c"))
        XCTAssertEqual(provider.run(request(.summary, "x"), sink: PluginTestSink()), .failed("org.emend.example.c: does not serve summary"))
    }

    func testInstanceIsDestroyedWithTheProvider() throws {
        let path = try PluginBuilder.fixture("descriptor", variant: "destroy")
        let destroyCalls = PluginBuilder.function(path, "descriptor_destroy_calls", as: (@convention(c) () -> Int32).self)
        do {
            let provider = try provider(path)
            XCTAssertEqual(provider.run(request(.proofread, "x"), sink: PluginTestSink()), .finished)
            XCTAssertEqual(destroyCalls(), 0)
        }
        XCTAssertEqual(destroyCalls(), 1)
    }

    // MARK: what a plugin sends against the rules

    func testInvalidUTF8TextIsDroppedAndLogged() throws {
        let (path, provider) = try misbehaving("utf8")
        let sink = PluginTestSink()
        XCTAssertEqual(provider.run(request(.rewriteFriendly, "x", prompt: "invalid-utf8"), sink: sink), .finished)
        XCTAssertEqual(sink.texts, ["good ", "after"])
        XCTAssertEqual(statuses(path), [0, 3, 3, 0, 0])
        XCTAssertEqual(sink.logs.filter { $0.hasPrefix(path + ": ") && $0.contains("not valid UTF-8") }.count, 2, "\(sink.logs)")
    }

    func testBadEditsAreDroppedAndValidOnesKept() throws {
        let (path, provider) = try misbehaving("edits")
        // h é l l o _ w ö r l d _ ` c o d e ` _ e n d .
        // 0 1 3 4 5 6 7 8 10... : "héllo" 0..<6, "wörld" 7..<13, "`code`" 14..<20, "end." 21..<25
        let text = "héllo wörld `code` end."
        let edits = [
            "0-6=Hello",      // OK
            "3-8=x",          // overlaps the first
            "9-11=x",         // 9 is inside ö
            "21-24=END",      // outside the selection
            "15-17=x",        // protected
            "7-13=<bad>",     // replacement not UTF-8
            "7-13=<small>",   // struct_size 8
            "7-13=world",     // OK
            "13-13=,",        // OK: an insertion at the edge of an earlier edit
            "13-13=;",        // a second insertion at the same place
            "12-11=x",        // backwards
            "16-16=x",        // an insertion inside protected text
        ].joined(separator: "|")
        let sink = PluginTestSink()
        let outcome = provider.run(request(.proofread, text, selection: 0..<20, protected: [14..<20], prompt: "edits:" + edits), sink: sink)
        XCTAssertEqual(outcome, .finished)
        XCTAssertEqual(sink.edits, [
            ProviderEdit(range: 0..<6, replacement: "Hello", explanation: "why", category: "spelling", ruleID: "RULE"),
            ProviderEdit(range: 7..<13, replacement: "world", explanation: "why", category: "spelling", ruleID: "RULE"),
            ProviderEdit(range: 13..<13, replacement: ",", explanation: "why", category: "spelling", ruleID: "RULE"),
        ])
        XCTAssertEqual(statuses(path), [0, 4, 4, 4, 4, 3, 2, 0, 0, 4, 4, 4, 0])
        let refusals = sink.logs.filter { $0.hasPrefix(path + ": dropped") }
        XCTAssertEqual(refusals.count, 9, "\(sink.logs)")
        XCTAssertTrue(refusals.contains { $0.contains("3..<8: it overlaps the earlier edit at 0..<6 (EMEND_E_RANGE)") }, "\(refusals)")
        XCTAssertTrue(refusals.contains { $0.contains("9..<11: it splits a character") }, "\(refusals)")
        XCTAssertTrue(refusals.contains { $0.contains("21..<24: it is outside the selection 0..<20") }, "\(refusals)")
        XCTAssertTrue(refusals.contains { $0.contains("15..<17: it touches protected text") }, "\(refusals)")
    }

    func testAnEditStructSizeEndingInsideAPointerLeavesThatFieldOut() throws {
        let (_, provider) = try misbehaving("partial-edit")
        let sink = PluginTestSink()
        let outcome = provider.run(request(.proofread, "hello world", selection: 0..<11, prompt: "edits:0-5=<partial>"), sink: sink)
        XCTAssertEqual(outcome, .finished)
        XCTAssertEqual(sink.edits, [ProviderEdit(range: 0..<5, replacement: "x", explanation: "", category: "", ruleID: "")])
    }

    func testOutputAfterFinishIsRefusedWithState() throws {
        let (path, provider) = try misbehaving("after-finish")
        let sink = PluginTestSink()
        XCTAssertEqual(provider.run(request(.rewriteFriendly, "x", prompt: "after-finish"), sink: sink), .finished)
        // emit OK, finish OK, late text STATE, late edit STATE, second finish STATE, is_cancelled 0
        XCTAssertEqual(statuses(path), [0, 0, 6, 6, 6, 0])
        XCTAssertEqual(sink.texts, ["done"])
        XCTAssertTrue(sink.edits.isEmpty)
    }

    func testFinishWithAFailureFailsTheRun() throws {
        let (_, provider) = try misbehaving("fail")
        XCTAssertEqual(provider.run(request(.rewriteFriendly, "x", prompt: "fail"), sink: PluginTestSink()),
                       .failed("org.emend.test.misbehaving: model not found"))
        XCTAssertEqual(provider.run(request(.rewriteFriendly, "x", prompt: "fail-silent"), sink: PluginTestSink()),
                       .failed("org.emend.test.misbehaving: EMEND_E_TIMEOUT"))
    }

    /// A run that returns EMEND_E_UNSUPPORTED ends at once: the plugin does not serve this
    /// request (declined, reported as skipped), and the instance stays usable.
    func testRunReturningAnErrorEndsAtOnce() throws {
        let (_, provider) = try misbehaving("run-error")
        XCTAssertEqual(provider.run(request(.rewriteFriendly, "x", prompt: "run-error"), sink: PluginTestSink()),
                       .declined("org.emend.test.misbehaving: it does not serve this request (EMEND_E_UNSUPPORTED)"))
        // The instance takes the next run.
        XCTAssertEqual(provider.run(request(.rewriteFriendly, "x", prompt: "log"), sink: PluginTestSink()), .finished)
    }

    func testHostFunctionsRefuseNullArguments() throws {
        let (path, provider) = try misbehaving("null-run")
        XCTAssertEqual(provider.run(request(.rewriteFriendly, "x", prompt: "null-run"), sink: PluginTestSink()), .finished)
        XCTAssertEqual(statuses(path), [0, 1, 1, 1, 1, 1, 0])
    }

    func testLogLinesOfARunGoToTheSink() throws {
        let path = try PluginBuilder.fixture("misbehaving", variant: "log")
        let logs = PluginLogCollector()
        let provider = try provider(path, logs: logs)
        let sink = PluginTestSink()
        XCTAssertEqual(provider.run(request(.rewriteFriendly, "x", prompt: "log"), sink: sink), .finished)
        XCTAssertEqual(sink.logs, ["org.emend.test.misbehaving: warning: with the run",
                                   "org.emend.test.misbehaving: info: without a run"])
        XCTAssertTrue(logs.all.isEmpty)
    }

    func testAPluginThatNeverFinishesIsAbandonedAfterCancel() throws {
        let (path, provider) = try misbehaving("never")
        let cancelCalls = PluginBuilder.function(path, "misbehaving_cancel_calls", as: (@convention(c) () -> Int32).self)
        let started = Date()
        let outcome = provider.run(request(.rewriteFriendly, "x", prompt: "never-finish"), sink: PluginTestSink(cancelAfterSeconds: 0.1))
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertEqual(outcome, .failed("cancelled"))
        XCTAssertEqual(cancelCalls(), 1)
        XCTAssertGreaterThan(elapsed, 1.0, "the host gives a cancelled run a second to finish")
        XCTAssertLessThan(elapsed, 2.5)
        // Runs are one at a time: the next one is refused while the abandoned one is unfinished.
        guard case .failed(let reason) = provider.run(request(.rewriteFriendly, "x", prompt: "log"), sink: PluginTestSink()) else {
            return XCTFail("a second run started while the first is unfinished")
        }
        XCTAssertEqual(reason, "org.emend.test.misbehaving: an earlier run did not finish after it was cancelled")
    }

    func testAPluginStuckInsideRunDoesNotHoldTheHost() throws {
        let (path, provider) = try misbehaving("hang")
        let release = PluginBuilder.function(path, "misbehaving_release", as: (@convention(c) () -> Void).self)
        let started = Date()
        let outcome = provider.run(request(.rewriteFriendly, "x", prompt: "hang"), sink: PluginTestSink(cancelAfterSeconds: 0.1))
        XCTAssertEqual(outcome, .failed("cancelled"))
        XCTAssertLessThan(Date().timeIntervalSince(started), 2.5)
        XCTAssertEqual(provider.run(request(.rewriteFriendly, "x", prompt: "log"), sink: PluginTestSink()),
                       .failed("org.emend.test.misbehaving: an earlier run did not finish after it was cancelled"))
        release()
        // is_cancelled 1, the late text CANCELLED, finish accepted.
        XCTAssertEqual(statuses(path), [1, 13, 0])
        // Once it finished, the instance takes runs again.
        let sink = PluginTestSink()
        XCTAssertEqual(provider.run(request(.rewriteFriendly, "x", prompt: "log"), sink: sink), .finished)
        XCTAssertEqual(sink.texts, ["logged"])
    }

    // MARK: one run at a time

    private final class Outcomes: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [ProviderOutcome] = []
        func append(_ outcome: ProviderOutcome) { lock.withLock { list.append(outcome) } }
        var all: [ProviderOutcome] { lock.withLock { list } }
    }

    private func runTwoAtOnce(_ provider: PluginProvider) -> [ProviderOutcome] {
        let group = DispatchGroup()
        let outcomes = Outcomes()
        let slow = request(.rewriteFriendly, "x", prompt: "slow")
        for _ in 0..<2 {
            group.enter()
            Thread.detachNewThread {
                outcomes.append(provider.run(slow, sink: PluginTestSink()))
                group.leave()
            }
        }
        group.wait()
        return outcomes.all
    }

    func testRunsOfAnInstanceAreSerialized() throws {
        let (path, provider) = try misbehaving("serial")
        XCTAssertEqual(runTwoAtOnce(provider), [.finished, .finished])
        let most = PluginBuilder.function(path, "misbehaving_most_in_flight", as: (@convention(c) () -> Int32).self)
        XCTAssertEqual(most(), 1)
    }

    func testConcurrentPluginsRunTogether() throws {
        let (path, provider) = try misbehaving("concurrent", ["CONCURRENT"])
        XCTAssertEqual(runTwoAtOnce(provider), [.finished, .finished])
        let most = PluginBuilder.function(path, "misbehaving_most_in_flight", as: (@convention(c) () -> Int32).self)
        XCTAssertEqual(most(), 2)
    }
}
