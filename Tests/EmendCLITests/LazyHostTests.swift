import Foundation
import XCTest
import EmendTestSupport

/// A provider's host starts when a tool it serves is first run: a proofread never starts the
/// llama plugin's host (a model loaded for nothing: 170 MB), a rewrite does. Real plugins
/// (providers/hunspell and providers/llama, built here) found by discovery; the hosts' start
/// is read from the log (EMEND_LOG=1), which names each host as it is spawned.
final class LazyHostTests: XCTestCase {
    /// What this machine lacks for the plugins.
    struct Missing: Error, CustomStringConvertible {
        let description: String
    }

    /// hunspell.so and llama.so in a providers directory, and the scanner, or why not.
    static let built: Result<(providers: String, scanner: String), Error> = Result {
        let root = CLISandbox.repoRoot
        var prefix = ProcessInfo.processInfo.environment["EMEND_LLAMA_PREFIX"]
        if prefix == nil, let env = try? String(contentsOfFile: root + "/.deps/llama.env", encoding: .utf8) {
            prefix = env.split(separator: "\n").first { $0.hasPrefix("EMEND_LLAMA_PREFIX=") }
                .map { String($0.dropFirst("EMEND_LLAMA_PREFIX=".count)).replacingOccurrences(of: "'", with: "") }
        }
        guard let prefix, FileManager.default.fileExists(atPath: prefix + "/lib/libllama.a") else {
            throw Missing(description: "llama.cpp is not set up (bash scripts/setup-llama.sh)")
        }
        let directory = NSTemporaryDirectory() + "emend-cli-lazy-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory + "/providers", withIntermediateDirectories: true)
        try TestProcess.shell("EMEND_LLAMA_PREFIX='\(prefix)' /bin/sh '\(root)/providers/llama/build.sh' '\(directory)/providers'")
        try TestProcess.shell("/bin/sh '\(root)/providers/hunspell/build.sh' '\(directory)/providers'")
        try TestProcess.shell("/bin/bash '\(root)/scripts/build-scanner.sh' '\(directory)'")
        return (directory + "/providers", directory + "/emend-scan")
    }

    private func sandbox() throws -> CLISandbox {
        let parts: (providers: String, scanner: String)
        do { parts = try Self.built.get() } catch { throw XCTSkip("the llama and hunspell plugins cannot be built here: \(error)") }
        let sandbox = CLISandbox()
        sandbox.environment["EMEND_PROVIDER_PATH"] = parts.providers
        sandbox.environment["EMEND_SCANNER"] = parts.scanner
        sandbox.environment["EMEND_LOG"] = "1"
        return sandbox
    }

    private func started(_ stderr: String, _ id: String) -> Int {
        stderr.lines(containing: "provider '\(id)': provider host started").count
    }

    func testAProofreadNeverStartsTheModelsHost() throws {
        let sandbox = try sandbox()
        sandbox.write("one.txt", "I will recieve it.\n")
        sandbox.write("two.md", "See you tomorow.\n")
        let providers = sandbox.run(["providers"])
        XCTAssertTrue(providers.stdout.contains("org.emend.llama"), "the llama plugin is discovered:\n\(providers.stdout)")

        let proofread = sandbox.run(["proofread", "one.txt", "two.md"])
        XCTAssertEqual(proofread.status, 1, proofread.stderr)
        XCTAssertEqual(started(proofread.stderr, "org.emend.hunspell"), 1, proofread.stderr)
        XCTAssertEqual(started(proofread.stderr, "org.emend.llama"), 0, "a proofread started the model's host:\n\(proofread.stderr)")

        // A tool the model serves starts it (here without a model file: create fails, the host
        // was started all the same), so the count above could have been 1.
        let rewrite = sandbox.run(["rewrite", "--tone", "concise", "one.txt"])
        XCTAssertEqual(started(rewrite.stderr, "org.emend.llama"), 1, rewrite.stderr)
        XCTAssertEqual(started(rewrite.stderr, "org.emend.hunspell"), 0, rewrite.stderr)
    }
}
