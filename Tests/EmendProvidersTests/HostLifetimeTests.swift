import Foundation
import XCTest
import EmendCore
@testable import EmendProviders

/// libemend's side of a provider host, against a plugin that misbehaves on purpose
/// (Tests/Fixtures/plugins/intruder.c) found by discovery and run in its host: an oversized
/// frame is refused at its length, a crash is seen at once even when a child still holds the
/// channel, a host that never gets ready or never leaves destroy is killed on a deadline
/// nobody waits for, and a run that meets a host being killed goes to a fresh host.
final class HostLifetimeTests: XCTestCase {
    static let id = "org.emend.test.intruder"
    private var scratch: ScratchDirectory!
    private var providers = ""

    override func setUpWithError() throws {
        scratch = ScratchDirectory("emend-host-lifetime")
        providers = scratch.directory("providers")
        try FileManager.default.copyItem(atPath: try PluginBuilder.fixture("intruder"), toPath: providers + "/intruder.so")
        chmod(providers + "/intruder.so", 0o755)
    }

    override func tearDown() {
        unsetenv("EMEND_SANDBOX_SKIP")
        scratch = nil
    }

    private func registry(_ config: String = "") throws -> ProviderRegistry {
        let discovery = ProviderDiscovery(searchPath: [providers], cachePath: scratch.path + "/providers.cache",
                                          scannerPath: DiscoveryFixtures.scanner).run()
        return ProviderRegistry(discovery: discovery, configuration: try ProviderConfiguration.parse(config), builtins: [])
    }

    private func compose(_ prompt: String) -> ProviderRequest {
        ProviderRequest(tool: .compose, text: "x", selection: 0..<1, prompt: prompt)
    }

    private func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = Date()
        try body()
        return Date().timeIntervalSince(start)
    }

    /// Resident memory of this process in KiB (VmRSS).
    private func residentKiB() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
    }

    /// A 1 GiB EDITS frame is refused at its length (over max_result_bytes plus framing): the
    /// host is stopped, and this process does not grow by the frame.
    func testAGiantFrameIsRefusedAtItsLength() throws {
        let provider = try registry().provider(for: .compose, named: Self.id)
        let before = residentKiB()
        let sink = PluginTestSink()
        let outcome = provider.run(compose("frame:\(1 << 30)"), sink: sink)
        guard case .failed(let message) = outcome else { return XCTFail("\(outcome)") }
        XCTAssertTrue(message.contains("a frame of 1073741824 bytes, over the"), message)
        XCTAssertLessThan(residentKiB() - before, 64 * 1024, "the editor grew by the frame")
    }

    /// The host crashes while a child of the plugin (forked, not exec'd) still holds the
    /// channel: the pidfd sees the crash at once. (Without the pid namespace, which would
    /// kill the child too, so that the channel alone would not tell.)
    func testACrashIsSeenAtOnceWhileAChildHoldsTheChannel() throws {
        setenv("EMEND_SANDBOX_SKIP", "pid-ns", 1)
        let provider = try registry().provider(for: .compose, named: Self.id)
        var outcome = ProviderOutcome.finished
        let elapsed = seconds { outcome = provider.run(compose("fork-crash"), sink: PluginTestSink()) }
        XCTAssertEqual(outcome, .failed("provider '\(Self.id)' crashed (SIGSEGV)"))
        XCTAssertLessThan(elapsed, 3, "the crash was seen only when the child let go of the channel")
    }

    /// A plugin that sleeps in create is killed at load_timeout_ms, and the run says so.
    func testAHostThatNeverGetsReadyIsKilled() throws {
        let config = "[providers.\"\(Self.id)\"]\nsleep_in_create_ms = 20000\nload_timeout_ms = 300\n"
        let provider = try registry(config).provider(for: .compose, named: Self.id)
        var outcome = ProviderOutcome.finished
        let elapsed = seconds { outcome = provider.run(compose("read:/nowhere"), sink: PluginTestSink()) }
        XCTAssertEqual(outcome, .failed("provider '\(Self.id)' did not finish loading within 300 ms (load_timeout_ms); "
                                        + "its host was killed while loading"))
        XCTAssertLessThan(elapsed, 3)
    }

    /// A plugin that sleeps in destroy: letting go of the provider returns at once, and the
    /// host (with libemend's end of its channel) is gone within the close grace.
    func testAHostStuckInDestroyIsKilledWithoutAnyoneWaiting() throws {
        var registry: ProviderRegistry? = try self.registry("[providers.\"\(Self.id)\"]\nsleep_in_destroy_ms = 20000\n")
        var provider: WritingProvider? = try registry!.provider(for: .compose, named: Self.id)
        XCTAssertEqual(provider!.run(compose("read:/nowhere"), sink: PluginTestSink()), .finished)
        XCTAssertEqual(Self.hostChildren().count, 1, "one host runs")
        let released = seconds {
            provider = nil
            registry = nil
        }
        // Well under the 2 s close grace and the plugin's 20 s sleep, with room for a busy machine.
        XCTAssertLessThan(released, 1.0, "letting go of a provider waits for nothing")
        let deadline = Date().addingTimeInterval(Double(HostConnection.closeGraceMilliseconds) / 1000 + 2)
        while !Self.hostChildren().isEmpty && Date() < deadline { usleep(20_000) }
        XCTAssertEqual(Self.hostChildren(), [], "the host outlived the close grace")
    }

    /// A run ignores its cancel and its host is killed after the grace; a run started on that
    /// host meanwhile goes to a fresh host instead of failing with the other run's kill.
    func testARunOnAHostBeingKilledGoesToAFreshHost() throws {
        let config = "[providers.\"\(Self.id)\"]\ncancel_grace_ms = 300\n"
        let provider = try registry(config).provider(for: .compose, named: Self.id)
        let spinning = PluginTestSink()
        let spin = compose("spin")
        let first = Thread { _ = provider.run(spin, sink: spinning) }
        first.start()
        let started = Date().addingTimeInterval(5)
        while spinning.text.isEmpty && Date() < started { usleep(5_000) }
        spinning.cancel()
        // Inside the grace: the host still lives, takes this run, and is killed (for the
        // spinning run) before this one answers.
        let sink = PluginTestSink()
        XCTAssertEqual(provider.run(compose("wait:1000"), sink: sink), .finished)
        XCTAssertEqual(sink.text, "ESCAPED waited")
    }

    /// emend_coordinator_destroy while the plugin spins in run and ignores its cancel: the
    /// call returns while the host is still there (the reaper kills it after the grace; no
    /// thread of the engine waits for it), and the host is gone after the grace.
    func testDestroyingACoordinatorWhileThePluginSpinsDoesNotWaitForItsHost() throws {
        let registry = try self.registry("[providers.\"\(Self.id)\"]\ncancel_grace_ms = 1500\n")
        let document = StyledDocument("x")
        var coordinator: Coordinator? = try Coordinator(delegate: document, options: CoordinatorOptions(), catalog: registry)
        let logs = PluginLogCollector()
        coordinator!.logger = logs.logger
        try coordinator!.start(.compose, scope: .fullDocument, prompt: "spin", providerID: Self.id)
        let spinning = Date().addingTimeInterval(30)
        while !logs.all.contains(where: { $0.contains("spinning") }) && Date() < spinning {
            _ = try? coordinator!.dispatch()
            usleep(5_000)
        }
        XCTAssertTrue(logs.all.contains { $0.contains("spinning") }, "the plugin spins: \(logs.all)")
        let hosts = Self.hostChildren()
        XCTAssertEqual(hosts.count, 1, "one host runs")
        coordinator!.shutdown()
        coordinator = nil
        XCTAssertEqual(Self.hostChildren(), hosts, "destroy returned before the host was gone: it waited for nothing")
        let deadline = Date().addingTimeInterval(10)
        while !Self.hostChildren().isEmpty && Date() < deadline { usleep(20_000) }
        XCTAssertEqual(Self.hostChildren(), [], "the reaper killed the host after the grace")
    }

    /// A plugin spinning in run that no one cancels: the kernel stops its host at the run's
    /// CPU time (cpu_seconds, RLIMIT_CPU), the run says so, it is no crash, and the next run
    /// works on a fresh host. (The sink cancels after a minute only so that the test ends
    /// without the limit: then the run says "cancelled".)
    func testASpinningRunIsStoppedAtItsCPUTime() throws {
        let provider = try registry("[providers.\"\(Self.id)\"]\ncpu_seconds = 1\n").provider(for: .compose, named: Self.id)
        let outcome = provider.run(compose("spin"), sink: PluginTestSink(cancelAfterSeconds: 60))
        XCTAssertEqual(outcome, .failed("provider '\(Self.id)' used up the CPU time of one run (1 s, cpu_seconds in config.toml); "
                                        + "the kernel stopped its host"))
        let sink = PluginTestSink()
        XCTAssertEqual(provider.run(compose("wait:10"), sink: sink), .finished)
        XCTAssertEqual(sink.text, "ESCAPED waited", "the next run is unaffected")
        XCTAssertNil((provider as? ProviderHealth)?.brokenReason)
    }

    /// 8 children of 50 MiB each, under memory_mb = 256 (RLIMIT_AS holds each, not all of
    /// them): the sandbox's supervisor measures them together, kills them all, and the run
    /// says so; the next run works.
    func testChildrenTogetherAreHeldToTheMemoryLimit() throws {
        let provider = try registry("[providers.\"\(Self.id)\"]\nmemory_mb = 256\n").provider(for: .compose, named: Self.id)
        let sink = PluginTestSink()
        let outcome = provider.run(compose("children:8:50"), sink: sink)
        XCTAssertEqual(outcome, .failed("provider '\(Self.id)' used more than 256 MiB of memory in all its processes together "
                                        + "(memory_mb in config.toml); its host was stopped"), sink.text)
        let next = PluginTestSink()
        XCTAssertEqual(provider.run(compose("wait:10"), sink: next), .finished)
        XCTAssertEqual(next.text, "ESCAPED waited")
    }

    /// A hostile plugin's text and replacement holding a NUL byte: its host refuses the whole
    /// result (the run fails saying why), so nothing with a NUL reaches libemend's sink; and
    /// the plugin's emit call is refused too (logged with EMEND_E_INVALID_ARGUMENT).
    func testANULByteInAPluginsOutputRefusesTheResult() throws {
        let provider = try registry().provider(for: .compose, named: Self.id)
        for attempt in ["nul-text", "nul-edit"] {
            let sink = PluginTestSink()
            let outcome = provider.run(compose(attempt), sink: sink)
            guard case .failed(let message) = outcome else { return XCTFail("\(attempt): \(outcome), \(sink.texts)") }
            XCTAssertTrue(message.contains("holds a NUL byte (U+0000)"), "\(attempt): \(message)")
            XCTAssertEqual(sink.texts, [], attempt)
            XCTAssertEqual(sink.edits, [], attempt)
        }
    }

    /// Hosts this process started that are still there (zombies aside).
    static func hostChildren() -> [pid_t] {
        let me = getpid()
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> pid_t? in
            guard let pid = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            let name = stat[stat.index(after: stat.firstIndex(of: "(")!)..<close]
            let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
            guard fields.count > 1, fields[0] != "Z", pid_t(fields[1]) == me, name.hasPrefix("emend-provider") else { return nil }
            return pid
        }
    }
}
