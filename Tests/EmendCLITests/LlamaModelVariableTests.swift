import Foundation
import XCTest
import EmendTestSupport

/// EMEND_LLAMA_MODEL naming a model outside emend's directories: the llama plugin's sandbox
/// lets it read that file (it failed with "Permission denied"), and `emend doctor` checks the
/// model the variable names (it looked at the default one only).
final class LlamaModelVariableTests: XCTestCase {
    /// The llama plugin and the scanner, built once per test process; skipped without llama.cpp.
    static let built: Result<(providers: String, scanner: String), Error> = Result {
        let root = CLISandbox.repoRoot
        let directory = NSTemporaryDirectory() + "emend-cli-llama-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory + "/providers", withIntermediateDirectories: true)
        try TestProcess.shell("/bin/sh '\(root)/providers/llama/build.sh' '\(directory)/providers'")
        try TestProcess.shell("/bin/bash '\(root)/scripts/build-scanner.sh' '\(directory)'")
        return (directory + "/providers", directory + "/emend-scan")
    }

    /// The model of .deps/llama.env (scripts/setup-llama.sh).
    private func model() throws -> String {
        let file = CLISandbox.repoRoot + "/.deps/llama.env"
        guard let text = try? String(contentsOfFile: file, encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("EMEND_LLAMA_MODEL=") }) else {
            throw XCTSkip("llama.cpp is not set up (bash scripts/setup-llama.sh)")
        }
        let path = line.dropFirst("EMEND_LLAMA_MODEL=".count).replacingOccurrences(of: "'", with: "")
        guard FileManager.default.fileExists(atPath: path) else { throw XCTSkip("the model \(path) is missing") }
        return path
    }

    private func sandbox() throws -> CLISandbox {
        let parts: (providers: String, scanner: String)
        do { parts = try Self.built.get() } catch { throw XCTSkip("the llama plugin cannot be built here: \(error)") }
        let sandbox = CLISandbox()
        sandbox.environment["EMEND_PROVIDER_PATH"] = parts.providers
        sandbox.environment["EMEND_SCANNER"] = parts.scanner
        return sandbox
    }

    func testTheModelTheVariableNamesIsReadInTheSandbox() throws {
        let model = try model()
        let sandbox = try sandbox()
        // Outside emend's data and cache directories (and every system path the sandbox allows).
        let elsewhere = sandbox.root + "/elsewhere"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        let copy = elsewhere + "/model.gguf"
        if link(model, copy) != 0 { try FileManager.default.copyItem(atPath: model, toPath: copy) }
        sandbox.environment["EMEND_LLAMA_MODEL"] = copy
        sandbox.write("note.txt", "I really think that we should basically just go now.\n")
        let result = sandbox.run(["rewrite", "--tone", "concise", "--provider", "org.emend.llama", "--force", "note.txt"], timeout: 300)
        XCTAssertFalse(result.stderr.contains("Permission denied"), result.stderr)
        XCTAssertEqual(result.status, 0, result.stderr)

        let doctor = sandbox.run(["doctor", "--quick"])
        XCTAssertTrue(doctor.stdout.contains("\(copy) (from EMEND_LLAMA_MODEL)"), doctor.stdout)
    }

    func testDoctorChecksTheModelTheVariableNames() throws {
        let sandbox = try sandbox()
        sandbox.environment["EMEND_LLAMA_MODEL"] = sandbox.root + "/nowhere/model.gguf"
        let doctor = sandbox.run(["doctor", "--quick"])
        XCTAssertEqual(doctor.status, 1, doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains("no model file at \(sandbox.root)/nowhere/model.gguf (from EMEND_LLAMA_MODEL)"), doctor.stdout)
        XCTAssertTrue(doctor.stdout.contains("point EMEND_LLAMA_MODEL at a .gguf model file"), doctor.stdout)
    }
}
