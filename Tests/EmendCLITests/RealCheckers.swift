import Foundation
import XCTest
import EmendTestSupport

/// The shipped checkers (Hunspell, Harper, LingoTweaker) built as discovered plugins for the
/// `emend` command, with the provider scanner, once per test process. Their Python checkers
/// come from each one's setup.sh (it does nothing when they are installed in .deps); the
/// tests that use them skip when a part cannot be had here (no libhunspell-dev, no wheels).
enum RealCheckers {
    /// The plugin directory and the scanner, or why they cannot be built.
    static let built: Result<(providers: String, scanner: String), Error> = Result {
        let root = CLISandbox.repoRoot
        let directory = NSTemporaryDirectory() + "emend-cli-real-checkers-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory + "/providers", withIntermediateDirectories: true)
        for setup in ["harper", "lingotweaker"] {
            try TestProcess.shell("/bin/sh '\(root)/providers/\(setup)/setup.sh'")
        }
        for plugin in ["hunspell", "harper", "lingotweaker"] {
            try TestProcess.shell("/bin/sh '\(root)/providers/\(plugin)/build.sh' '\(directory)/providers'")
        }
        try TestProcess.shell("/bin/bash '\(root)/scripts/build-scanner.sh' '\(directory)'")
        return (directory + "/providers", directory + "/emend-scan")
    }

    /// A sandbox whose `emend` discovers the three checkers (and the built-in fixture, ranked
    /// below them), each with a time limit of 10 minutes per request. Why: the tests check
    /// what the checkers find and what is written, and a checker left out for being slow
    /// changes both. Harper builds its linter on its first request (about 11 s here, several
    /// times that on a loaded machine), past the default limit of a combination member
    /// (`MemberTimeLimit.defaultMilliseconds`, 30 s); with it the result depended on the
    /// machine's load. A hung checker still ends the run, at the limit.
    static func sandbox() throws -> CLISandbox {
        let parts: (providers: String, scanner: String)
        do { parts = try built.get() } catch { throw XCTSkip("the shipped checkers cannot be built here: \(error)") }
        let sandbox = CLISandbox()
        sandbox.environment["EMEND_PROVIDER_PATH"] = parts.providers
        sandbox.environment["EMEND_SCANNER"] = parts.scanner
        let config = sandbox.root + "/config/emend"
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        try ["org.emend.hunspell", "org.emend.harper", "org.emend.lingotweaker"]
            .map { "[providers.\"\($0)\"]\ntimeout_ms = 600000\n" }.joined(separator: "\n")
            .write(toFile: config + "/config.toml", atomically: true, encoding: .utf8)
        return sandbox
    }
}

/// The process provider (providers/process) running Tests/Fixtures/process/replay_checker.py:
/// a real plugin that proposes exactly the edits a test gives it.
enum ReplayChecker {
    static let plugin: Result<(providers: String, scanner: String), Error> = Result {
        let root = CLISandbox.repoRoot
        let directory = NSTemporaryDirectory() + "emend-cli-replay-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory + "/providers", withIntermediateDirectories: true)
        try TestProcess.shell("/bin/sh '\(root)/providers/process/build.sh' '\(directory)/providers'")
        try TestProcess.shell("/bin/bash '\(root)/scripts/build-scanner.sh' '\(directory)'")
        return (directory + "/providers", directory + "/emend-scan")
    }

    /// A sandbox whose `emend` proofreads with the replay checker alone, proposing `edits`
    /// (original, replacement, category, rule id, explanation); `contexts`: for an original,
    /// the text that must stand around it for its edit to be proposed.
    static func sandbox(_ edits: [(String, String, String, String, String)], contexts: [String: String] = [:],
                        config extra: String = "") throws -> CLISandbox {
        let parts: (providers: String, scanner: String)
        do { parts = try plugin.get() } catch { throw XCTSkip("the process provider cannot be built here: \(error)") }
        let sandbox = CLISandbox()
        sandbox.environment["EMEND_PROVIDER_PATH"] = parts.providers
        sandbox.environment["EMEND_SCANNER"] = parts.scanner
        let table = edits.map { edit in
            ["original": edit.0, "replacement": edit.1, "category": edit.2, "rule": edit.3, "explanation": edit.4]
                .merging(contexts[edit.0].map { ["context": $0] } ?? [:]) { a, _ in a }
        }
        let tablePath = sandbox.root + "/edits.json"
        try JSONSerialization.data(withJSONObject: table).write(to: URL(fileURLWithPath: tablePath))
        let script = CLISandbox.repoRoot + "/Tests/Fixtures/process/replay_checker.py"
        let config = sandbox.root + "/config/emend"
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        try """
            [tools]
            proofread = ["org.emend.process"]

            [providers."org.emend.process"]
            command = "python3 -u '\(script)' '\(tablePath)'"
            \(extra)

            """.write(toFile: config + "/config.toml", atomically: true, encoding: .utf8)
        return sandbox
    }
}
