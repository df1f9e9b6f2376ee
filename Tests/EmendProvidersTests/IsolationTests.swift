import Foundation
import XCTest
import EmendCore
@testable import EmendProviders

/// Plugins that crash, spin, eat memory, flood or scribble on the channel, run through
/// IsolatedProvider in emend-provider-host: this test process survives every one, the run
/// fails with a message naming the plugin and what happened, and the next run works (a
/// new host) or the plugin is marked broken.
final class IsolationTests: XCTestCase {
    static let id = "org.emend.test.hostile"

    private func host() throws -> String {
        try XCTUnwrap(ProviderHostLocator.locate(environment: [:], libraryDirectory: nil),
                      "emend-provider-host is built next to the test bundle")
    }

    /// The hostile plugin in its host; `writable`: paths its sandbox may write (sandbox_write_paths).
    private func provider(_ defines: [String] = [], settings: TOMLTable = TOMLTable(),
                          limits: ProviderLimits = ProviderLimits(), logs: PluginLogCollector = PluginLogCollector(),
                          writable: [String] = []) throws -> IsolatedProvider {
        let path = try PluginBuilder.fixture("hostile", defines)
        let record = ProviderRecord(path: path, kind: .plugin, id: Self.id, name: "Hostile", version: "0.0.1",
                                    tools: Set(WritingTool.allCases), languages: ["*"], outputs: 0, streams: true,
                                    usesNetwork: false, priority: 0)
        let sandbox = HostSandbox.policy(record: record, settings: settings, enabled: true, userPaths: [], userWritePaths: writable)
        return IsolatedProvider(record: record, settings: settings, limits: limits, executable: try host(),
                                writesMarkdown: false, sandbox: sandbox, logger: logs.logger)
    }

    private func compose(_ scenario: String, text: String = "Some text here.") -> ProviderRequest {
        ProviderRequest(tool: .compose, text: text, selection: 0..<text.utf8.count, prompt: scenario)
    }

    private func run(_ provider: IsolatedProvider, _ scenario: String, sink: PluginTestSink = PluginTestSink()) -> ProviderOutcome {
        provider.run(compose(scenario), sink: sink)
    }

    private func assertFails(_ outcome: ProviderOutcome, containing needles: String..., file: StaticString = #filePath, line: UInt = #line) {
        guard case .failed(let message) = outcome else { return XCTFail("expected a failure, got \(outcome)", file: file, line: line) }
        for needle in needles {
            XCTAssertTrue(message.contains(needle), "\"\(message)\" should contain \"\(needle)\"", file: file, line: line)
        }
    }

    /// A host from another build: CREATE of another protocol version is answered with
    /// CREATE_FAILED naming both versions, not misread.
    func testAHostRefusesACreateOfAnotherProtocolVersion() throws {
        let process = try HostProcess.spawn(try host()).get()
        let channel = FrameChannel(fd: process.channel)
        defer {
            close(process.channel)
            _ = process.reap(milliseconds: 2_000)
        }
        var encoder = FrameEncoder()
        encoder.begin(.create)
        HostCreate(kind: .plugin, path: "/nowhere.so", id: Self.id, settings: TOMLTable(), limits: ProviderLimits())
            .encode(into: &encoder, version: HostCreate.protocolVersion + 98)
        encoder.end()
        XCTAssertTrue(channel.write(encoder.bytes))
        let event = try channel.next { (type, payload) throws(ProtocolViolation) -> HostEvent in
            var decoder = FrameDecoder(payload)
            return try HostEvent.decode(type: type, &decoder)
        }
        guard case .createFailed(let reason) = event else { return XCTFail("expected CREATE_FAILED, got \(event)") }
        XCTAssertTrue(reason.contains("version \(HostCreate.protocolVersion + 98)")
                      && reason.contains("version \(HostCreate.protocolVersion)"), reason)
    }

    func testARunGoesThroughTheHost() throws {
        let provider = try self.provider()
        let sink = PluginTestSink()
        XCTAssertEqual(run(provider, "ok", sink: sink), .finished)
        XCTAssertEqual(sink.text, "fine")
        XCTAssertFalse(PluginBuilder.isLoaded(try PluginBuilder.fixture("hostile")), "the plugin is loaded in the host, not here")
    }

    func testASegfaultInRunFailsTheRunNamingThePluginAndTheSignalAndTheNextRunWorks() throws {
        let provider = try self.provider()
        assertFails(run(provider, "segv"), containing: "provider '\(Self.id)' crashed (SIGSEGV)")
        let sink = PluginTestSink()
        XCTAssertEqual(run(provider, "ok", sink: sink), .finished, "a new host serves the next run")
        XCTAssertEqual(sink.text, "fine")
        XCTAssertNil(provider.brokenReason)
    }

    func testAbortInRunIsSIGABRT() throws {
        let provider = try self.provider()
        assertFails(run(provider, "abort"), containing: "crashed (SIGABRT)")
        XCTAssertEqual(run(provider, "ok"), .finished)
    }

    func testACrashInCreateFailsTheRunAndThreeInARowMarkThePluginBroken() throws {
        for (define, signal) in [("CREATE_CRASH=1", "SIGSEGV"), ("CREATE_CRASH=2", "SIGABRT")] {
            let provider = try self.provider([define])
            for _ in 1...IsolatedProvider.crashLimit {
                assertFails(run(provider, "ok"), containing: "crashed (\(signal)) while loading")
            }
            let reason = try XCTUnwrap(provider.brokenReason, "broken after \(IsolatedProvider.crashLimit) crashes in a row")
            XCTAssertTrue(reason.contains("crashed (\(signal))") && reason.contains("3 times in a row"), reason)
            assertFails(run(provider, "ok"), containing: "3 times in a row")
        }
    }

    func testACrashInCancelStopsTheHostAndTheNextRunWorks() throws {
        var settings = TOMLTable()
        settings["scenario"] = .string("cancel-segv")
        let logs = PluginLogCollector()
        let provider = try self.provider(settings: settings, logs: logs)
        let sink = PluginTestSink(cancelAfterTexts: 1)
        // The cancelled run returns at once; the crash is the log's (and the host's end).
        assertFails(run(provider, "cancel-segv", sink: sink), containing: "cancelled")
        XCTAssertEqual(run(provider, "ok"), .finished, "the next run goes to a fresh host, even if it met the crashing one")
        XCTAssertTrue(logs.all.contains { $0.contains("crashed (SIGSEGV)") }, "\(logs.all)")
    }

    func testARunThatExitsMidStreamKeepsWhatWasDeliveredAndFails() throws {
        let provider = try self.provider()
        let sink = PluginTestSink()
        assertFails(run(provider, "exit", sink: sink), containing: "provider '\(Self.id)' exited unexpectedly (status 3)")
        XCTAssertEqual(sink.text, "partial", "what arrived before the exit is the session's to keep or revert")
        XCTAssertEqual(run(provider, "ok"), .finished)
    }

    /// A run that ignores its cancel returns at once (no thread of this process waits for
    /// plugin code that runs in another); the host is killed after the grace, as the log says,
    /// and the next run works on a fresh host. A kill after cancel is not a crash.
    func testASpinningPluginIsKilledAfterTheGraceAndTheNextRunWorks() throws {
        var limits = ProviderLimits()
        limits.cancelGraceMilliseconds = 300
        let logs = PluginLogCollector()
        let provider = try self.provider(limits: limits, logs: logs)
        assertFails(run(provider, "spin", sink: PluginTestSink(cancelAfterTexts: 1)), containing: "cancelled")
        let killed = "did not stop within 300 ms of cancel; its host was killed"
        let deadline = Date().addingTimeInterval(10)
        while !logs.all.contains(where: { $0.contains(killed) }) && Date() < deadline { usleep(10_000) }
        XCTAssertTrue(logs.all.contains { $0.contains(killed) }, "\(logs.all)")
        XCTAssertEqual(run(provider, "ok"), .finished, "a fresh host, not one still spinning")
        XCTAssertNil(provider.brokenReason, "a kill after cancel is not a crash")
    }

    func testMemoryBeyondTheLimitIsRefusedInTheHost() throws {
        var limits = ProviderLimits()
        limits.memoryBytes = 512 << 20
        let provider = try self.provider(limits: limits)
        assertFails(run(provider, "alloc:1536"), containing: "out of memory")
        let sink = PluginTestSink()
        XCTAssertEqual(run(provider, "alloc:16", sink: sink), .finished, "allocations within the limit work")
        XCTAssertEqual(sink.text, "allocated")
    }

    func testAnOversizedResultIsRefusedNotSliced() throws {
        var limits = ProviderLimits()
        limits.resultBytes = 1 << 20
        let provider = try self.provider(limits: limits)
        let sink = PluginTestSink()
        assertFails(run(provider, "big:\(64 << 20)", sink: sink), containing: "over the limit of 1048576 bytes", "max_result_bytes")
        XCTAssertLessThanOrEqual(sink.text.utf8.count, 1 << 20, "never more than the limit reaches the session")
        XCTAssertEqual(run(provider, "big:1000"), .finished, "the host goes on serving")
    }

    func testAnOversizedEditIsRefused() throws {
        var limits = ProviderLimits()
        limits.editBytes = 1000
        let provider = try self.provider(limits: limits)
        let sink = PluginTestSink()
        assertFails(run(provider, "bigedit:5000", sink: sink), containing: "an edit of 5000 bytes", "max_edit_bytes")
        XCTAssertTrue(sink.edits.isEmpty)
        XCTAssertEqual(run(provider, "bigedit:10"), .finished)
    }

    func testGarbageOnTheChannelStopsTheHost() throws {
        let provider = try self.provider()
        assertFails(run(provider, "garbage"), containing: "broke the host protocol")
        XCTAssertEqual(run(provider, "ok"), .finished)
    }

    func testAThousandEditsArriveInOrder() throws {
        let provider = try self.provider()
        let text = String(repeating: "ab", count: 1000)
        let sink = PluginTestSink()
        let request = ProviderRequest(tool: .compose, text: text, selection: 0..<text.utf8.count, prompt: "edits:1000")
        XCTAssertEqual(provider.run(request, sink: sink), .finished)
        XCTAssertEqual(sink.edits.map(\.range.lowerBound), Array(stride(from: 0, to: 2000, by: 2)))
    }

    func testAPluginThatCrashesOnceServesTheSecondRun() throws {
        let marker = NSTemporaryDirectory() + "emend-crash-once-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: marker) }
        var settings = TOMLTable()
        settings["scenario"] = .string("crash-once")
        settings["marker"] = .string(marker)
        let provider = try self.provider(settings: settings, writable: [NSTemporaryDirectory()])
        let text = "Helo world"
        let request = ProviderRequest(tool: .proofread, text: text, selection: 0..<text.utf8.count)
        assertFails(provider.run(request, sink: PluginTestSink()), containing: "crashed (SIGSEGV)")
        let sink = PluginTestSink()
        XCTAssertEqual(provider.run(request, sink: sink), .finished)
        XCTAssertEqual(sink.edits.map(\.replacement), ["Fine"])
    }

    func testABrokenPluginIsListedAndRememberedUntilItChanges() throws {
        let scratch = ScratchDirectory("emend-isolation")
        let providers = scratch.directory("providers")
        let plugin = providers + "/hostile.so"
        try FileManager.default.copyItem(atPath: try PluginBuilder.fixture("hostile", ["CREATE_CRASH=1"]), toPath: plugin)
        chmod(plugin, 0o755)
        let cache = scratch.path + "/providers.cache"
        let discovery = ProviderDiscovery(searchPath: [providers], cachePath: cache, scannerPath: DiscoveryFixtures.scanner)
        let registry = ProviderRegistry(discovery: discovery.run(), configuration: ProviderConfiguration(), builtins: [],
                                        cachePath: cache)
        let provider = try registry.provider(for: .rewriteDescribed, named: Self.id)
        let request = ProviderRequest(tool: .rewriteDescribed, text: "Some text.", selection: 0..<10, prompt: "ok")
        for _ in 1...IsolatedProvider.crashLimit { assertFails(provider.run(request, sink: PluginTestSink())) }
        let entry = try XCTUnwrap(registry.entries.first { $0.id == Self.id })
        XCTAssertTrue(entry.disabledReason?.hasPrefix("broken: provider '\(Self.id)' crashed (SIGSEGV)") ?? false, "\(entry)")
        XCTAssertThrowsError(try registry.provider(for: .rewriteDescribed, named: Self.id), "a broken plugin is not chosen")
        XCTAssertTrue(registry.summaries.contains { $0.id == Self.id && $0.reason.contains("3 times in a row") })

        let later = discovery.run()
        XCTAssertTrue(later.records.isEmpty, "the next process finds it broken")
        XCTAssertTrue(later.reason(plugin)?.contains("crashed (SIGSEGV), 3 times in a row") ?? false, "\(later.broken)")
        try FileManager.default.removeItem(atPath: plugin)
        try FileManager.default.copyItem(atPath: try PluginBuilder.fixture("hostile"), toPath: plugin)
        chmod(plugin, 0o755)
        XCTAssertEqual(discovery.run().records.map(\.id), [Self.id], "a changed file is probed again")
    }
}
