import Foundation
import XCTest
import EmendCore
import EmendTestSupport
@testable import EmendProviders

/// The llama plugin in its sandboxed provider host (the default) chooses its threads from the
/// cores that are free: beside a busy loop on every core it takes one thread, whose run has no
/// barrier to spin at. The real plugin, host, sandbox and model, and real busy processes; the
/// choice is read from the plugin's debug line. It also shows that the sandbox lets the host
/// read /proc/stat: without it the plugin says it could not, and takes every core.
final class LlamaHostThreadsTests: XCTestCase {
    func testTheSandboxedModelTakesOneThreadBesideABusyLoopOnEveryCore() throws {
        if let missing = LlamaPluginBuild.missing { throw XCTSkip(missing) }
        let cores = Int(try TestProcess.run("nproc").trimmingCharacters(in: .whitespacesAndNewlines)) ?? 1
        if cores < 2 { throw XCTSkip("one core: one thread whatever the load") }
        var settings = TOMLTable()
        settings["model"] = .string(try LlamaPluginBuild.model())
        settings["max_tokens"] = .integer(4)
        let record = try PluginLibrary.load(path: try LlamaPluginBuild.path()).record
        let host = try XCTUnwrap(ProviderHostLocator.locate(environment: [:], libraryDirectory: nil))
        let provider = IsolatedProvider(record: record, settings: settings, limits: ProviderLimits(), executable: host,
                                        writesMarkdown: false)

        var hogs: [Process] = []
        defer {
            for hog in hogs { hog.terminate(); hog.waitUntilExit() }
        }
        for _ in 0..<cores {
            let hog = Process()
            hog.executableURL = URL(fileURLWithPath: "/bin/sh")
            hog.arguments = ["-c", "while :; do :; done"]
            try hog.run()
            hogs.append(hog)
        }
        Thread.sleep(forTimeInterval: 0.3)
        let text = "The meeting moved to Friday because the room was booked."
        let sink = PluginTestSink()
        XCTAssertEqual(provider.run(ProviderRequest(tool: .summary, text: text, selection: 0..<text.utf8.count), sink: sink),
                       .finished)
        let chosen = sink.logs.filter { $0.contains(" threads (the free cores: ") }
        XCTAssertEqual(chosen.count, 1, "\(sink.logs)")
        for line in chosen {
            XCTAssertTrue(line.contains("1 of \(min(cores, 8)) threads (the free cores: \(cores) usable"), line)
            XCTAssertTrue(line.contains("runnable threads on the machine"), "the sandboxed host read /proc/stat: \(line)")
        }
    }
}
