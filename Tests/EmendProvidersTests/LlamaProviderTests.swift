import Foundation
import XCTest
import EmendCore
@testable import EmendProviders
import EmendTestSupport

/// The llama provider plugin (providers/llama), built at test time with its build.sh against
/// the llama.cpp of scripts/setup-llama.sh and run through PluginProvider on the real bundled
/// model (SmolLM2-135M-Instruct). Greedy output differs between machines, so nothing here
/// compares model text: the tests check shapes (bullets, tables, edits that fit the text),
/// streaming, cancellation, errors and long inputs.
final class LlamaProviderTests: XCTestCase {
    private static let id = "org.emend.llama"

    override func setUpWithError() throws {
        if let reason = LlamaPluginBuild.missing { throw XCTSkip(reason) }
    }

    private func provider(_ settings: [(key: String, value: String)] = [],
                          logs: PluginLogCollector = PluginLogCollector()) throws -> PluginProvider {
        var all = settings
        if !all.contains(where: { $0.key == "model" }) { all.append((key: "model", value: try LlamaPluginBuild.model())) }
        // One thread: on a busy (shared CI) machine two spinning threads slow ggml down tenfold.
        if !all.contains(where: { $0.key == "threads" }) { all.append((key: "threads", value: "1")) }
        return PluginProvider(record: try PluginLibrary.load(path: try LlamaPluginBuild.path()).record, settings: all,
                              logger: logs.logger)
    }

    private func run(_ provider: PluginProvider, _ tool: WritingTool, _ text: String, selection: Range<Int>? = nil,
                     protected: [Range<Int>] = [], prompt: String? = nil, previousResult: String? = nil,
                     sink: PluginTestSink = PluginTestSink()) -> (ProviderOutcome, PluginTestSink) {
        let request = ProviderRequest(tool: tool, text: text, selection: selection ?? 0..<text.utf8.count,
                                      protectedRanges: protected, prompt: prompt, previousResult: previousResult)
        return (provider.run(request, sink: sink), sink)
    }

    private func assertCancelled(_ outcome: ProviderOutcome, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue([.failed("cancelled"), .failed("\(Self.id): cancelled")].contains(outcome), "\(outcome)",
                      file: file, line: line)
    }

    /// Output the host refused (invalid UTF-8, bad edits) is logged by the host as "dropped".
    private func assertNothingDropped(_ sink: PluginTestSink, file: StaticString = #filePath, line: UInt = #line) {
        let dropped = sink.logs.filter { $0.contains("dropped emitted text") || $0.contains("dropped an edit")
            || $0.contains("not valid UTF-8") }
        XCTAssertEqual(dropped, [], file: file, line: line)
    }

    private func lines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    static let note = """
        Hey, so the meeting got moved to Thursday because half the team is out sick. We still need to finish \
        the slides before then, and somebody has to book the big room at the café near the naïve-art museum. \
        Let me know if you can help with any of that 🙂.
        """

    static let groceries = """
        For the picnic we need bread, cheese, apples, lemonade, paper plates and a blanket. Anna brings the \
        bread and the cheese, Ben buys the apples and the lemonade, and I pack the plates and the blanket.
        """

    // MARK: text tools

    func testRewritesStreamWholeCharactersInSeveralChunks() throws {
        let provider = try provider()
        let cases: [(WritingTool, String?, String?)] = [
            (.rewriteFriendly, nil, nil), (.rewriteProfessional, nil, nil), (.rewriteConcise, nil, nil),
            (.rewriteDescribed, "Make it sound excited.", nil),
            (.followUp, "Make it shorter.", "The meeting moved to Thursday; please help with the slides and the room."),
        ]
        for (tool, prompt, previous) in cases {
            let (outcome, sink) = run(provider, tool, Self.note, prompt: prompt, previousResult: previous)
            XCTAssertEqual(outcome, .finished, "\(tool)")
            XCTAssertGreaterThan(sink.texts.count, 1, "\(tool): streamed in pieces")
            XCTAssertTrue(sink.texts.allSatisfy { !$0.isEmpty }, "\(tool)")
            // The host decodes each chunk strictly (and logs a drop otherwise): no chunk was cut
            // inside a character, and none needed repair.
            XCTAssertTrue(sink.texts.allSatisfy { !$0.contains("\u{FFFD}") }, "\(sink.texts)")
            let text = sink.text
            XCTAssertFalse(text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "\(tool)")
            XCTAssertEqual(text, text.trimmingCharacters(in: .whitespacesAndNewlines), "\(tool): no blank edges")
            assertNothingDropped(sink)
        }
    }

    func testSummaryAndCompose() throws {
        let provider = try provider()
        let (summary, summarySink) = run(provider, .summary, Self.note)
        XCTAssertEqual(summary, .finished)
        XCTAssertFalse(summarySink.text.isEmpty)
        assertNothingDropped(summarySink)

        // Compose with nothing selected: the prompt alone.
        let (composed, composeSink) = run(provider, .compose, "", prompt: "Write one sentence inviting friends to a picnic.")
        XCTAssertEqual(composed, .finished)
        XCTAssertFalse(composeSink.text.isEmpty)
        assertNothingDropped(composeSink)
    }

    func testKeyPointsAndListAreBulletLines() throws {
        let provider = try provider()
        for tool in [WritingTool.keyPoints, .list] {
            let (outcome, sink) = run(provider, tool, Self.groceries)
            XCTAssertEqual(outcome, .finished, "\(tool)")
            let items = lines(sink.text)
            XCTAssertGreaterThanOrEqual(items.count, 1, "\(tool)")
            for item in items {
                XCTAssertTrue(item.hasPrefix("- "), "\(tool): \(item)")
                XCTAssertFalse(item.dropFirst(2).trimmingCharacters(in: .whitespaces).isEmpty, "\(tool): \(item)")
            }
            if tool == .keyPoints { XCTAssertLessThanOrEqual(items.count, 5, sink.text) }
            assertNothingDropped(sink)
        }
    }

    func testTableHasAHeaderASeparatorAndRowsOfEqualWidth() throws {
        let (outcome, sink) = run(try provider(), .table, Self.groceries)
        XCTAssertEqual(outcome, .finished)
        assertTable(sink.text)
        assertNothingDropped(sink)
    }

    private func assertTable(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        let rows = lines(text)
        XCTAssertGreaterThanOrEqual(rows.count, 3, "header, separator, at least one row: \(text)", file: file, line: line)
        guard rows.count >= 3 else { return }
        func cells(_ row: String) -> [String] {
            Array(row.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()).map(String.init)
        }
        let width = cells(rows[0]).count
        XCTAssertGreaterThanOrEqual(width, 2, text, file: file, line: line)
        for row in rows {
            XCTAssertTrue(row.hasPrefix("|") && row.hasSuffix("|"), row, file: file, line: line)
            XCTAssertEqual(cells(row).count, width, "\(row) in\n\(text)", file: file, line: line)
        }
        XCTAssertTrue(cells(rows[1]).allSatisfy { cell in
            let dashes = cell.trimmingCharacters(in: CharacterSet(charactersIn: " :"))
            return !dashes.isEmpty && dashes.allSatisfy { $0 == "-" }
        }, "separator row: \(rows[1])", file: file, line: line)
        XCTAssertTrue(rows[2...].contains { !cells($0).allSatisfy { $0.trimmingCharacters(in: .whitespaces).isEmpty } },
                      "a data row with text", file: file, line: line)
    }

    // MARK: proofreading

    static let wrong = "Their going too the party tomorow, and they has brought there own snacks. I could of done it better. "
        + "This is a example of an error. She dont like it."

    func testProofreadEditsFitTheText() throws {
        let provider = try provider([(key: "proofread", value: "true")])
        let text = "Intro stays. " + Self.wrong + " `tomorow` is code."
        let selection = byteRange(of: Self.wrong, in: text)
        let code = byteRange(of: "`tomorow`", in: text)
        let (outcome, sink) = run(provider, .proofread, text, selection: selection, protected: [code])
        XCTAssertEqual(outcome, .finished)
        XCTAssertEqual(sink.texts, [])
        let bytes = Array(text.utf8)
        var previousEnd = selection.lowerBound
        for edit in sink.edits {
            XCTAssertTrue(selection.contains(edit.range.lowerBound) && edit.range.upperBound <= selection.upperBound, "\(edit)")
            XCTAssertGreaterThanOrEqual(edit.range.lowerBound, previousEnd, "in order, not overlapping")
            XCTAssertFalse(edit.range.overlaps(code))
            let original = String(decoding: bytes[edit.range], as: UTF8.self)
            XCTAssertFalse(original.isEmpty)
            XCTAssertNotEqual(original, edit.replacement, "not a no-op")
            XCTAssertEqual(edit.ruleID, "LLAMA")
            previousEnd = edit.range.upperBound
        }
        assertNothingDropped(sink)
    }

    func testProofreadingIsOffUnlessTurnedOn() throws {
        let (outcome, sink) = run(try provider(), .proofread, Self.wrong)
        XCTAssertEqual(outcome, .finished)
        XCTAssertEqual(sink.edits, [])
        XCTAssertTrue(sink.logs.contains { $0.contains("proofreading with the model is off") }, "\(sink.logs)")
    }

    // MARK: cancel, errors, settings

    func testCancelAfterTheFirstChunk() throws {
        let provider = try provider()
        let (outcome, sink) = run(provider, .rewriteFriendly, Self.note, sink: PluginTestSink(cancelAfterTexts: 1))
        assertCancelled(outcome)
        XCTAssertGreaterThanOrEqual(sink.texts.count, 1)
        XCTAssertLessThanOrEqual(sink.texts.count, 2, "at most one more chunk after cancel: \(sink.texts)")
        // The instance serves the next request. On a busy machine the cancelled run may take
        // longer than the in-process grace (a second) to notice; until it ends, runs are
        // refused with that reason (PluginProviderTests), so the next one waits for it.
        var (next, nextSink) = run(provider, .summary, Self.note)
        let deadline = Date().addingTimeInterval(30)
        while next == .failed("\(Self.id): an earlier run did not finish after it was cancelled"), Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
            (next, nextSink) = run(provider, .summary, Self.note)
        }
        XCTAssertEqual(next, .finished)
        XCTAssertFalse(nextSink.text.isEmpty)
    }

    // MARK: the model's life and threads

    /// idle_unload: the model is freed after that many seconds without a run, and the next run
    /// loads it again and works.
    func testAnIdleModelIsUnloadedAndLoadedAgainForTheNextRun() throws {
        let logs = PluginLogCollector()
        let provider = try provider([(key: "idle_unload", value: "1")], logs: logs)
        let (first, _) = run(provider, .summary, Self.groceries)
        XCTAssertEqual(first, .finished)
        let deadline = Date().addingTimeInterval(30)
        while !logs.all.contains(where: { $0.contains("model unloaded after 1 s without a run") }) && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
        XCTAssertTrue(logs.all.contains { $0.contains("model unloaded after 1 s without a run") }, "\(logs.all)")
        let (second, sink) = run(provider, .summary, Self.groceries)
        XCTAssertEqual(second, .finished)
        XCTAssertFalse(sink.text.isEmpty)
        XCTAssertTrue(sink.logs.contains { $0.contains("loaded SmolLM2") && $0.contains("again") }, "\(sink.logs)")
    }

    /// Without idle_unload the model stays (no reaper), and a run in progress is never unloaded.
    func testTheModelStaysWhileInUseAndWithoutIdleUnload() throws {
        let logs = PluginLogCollector()
        let kept = try provider([(key: "idle_unload", value: "0")], logs: logs)
        XCTAssertEqual(run(kept, .summary, Self.groceries).0, .finished)
        Thread.sleep(forTimeInterval: 1.5)
        XCTAssertEqual(run(kept, .summary, Self.groceries).1.logs.filter { $0.contains("again") }, [])
        XCTAssertFalse(logs.all.contains { $0.contains("unloaded") }, "\(logs.all)")
    }

    /// threads = "auto" (the default) takes the cores free at the start of each run; a number
    /// is taken as it is.
    func testThreadsFollowTheFreeCoresUnlessSet() throws {
        let auto = run(try provider([(key: "threads", value: "auto")]), .summary, Self.groceries)
        XCTAssertEqual(auto.0, .finished)
        XCTAssertTrue(auto.1.logs.contains { $0.contains("threads (the free cores: ") && $0.contains("runnable threads on the machine") },
                      "\(auto.1.logs)")
        let fixed = run(try provider([(key: "threads", value: "1")]), .summary, Self.groceries)
        XCTAssertTrue(fixed.1.logs.contains { $0.contains("1 of 1 threads (threads in the settings)") }, "\(fixed.1.logs)")
        for (key, value) in [("poll", "101"), ("idle_unload", "-1")] {
            guard case .failed(let reason) = run(try provider([(key: key, value: value)]), .summary, Self.note).0 else {
                XCTFail("\(key) = \(value) did not fail")
                continue
            }
            XCTAssertTrue(reason.contains("\(key) must be"), reason)
        }
    }

    func testAModelThatDoesNotExistFailsCreate() throws {
        let missing = "/nonexistent-\(UUID().uuidString.prefix(8))/model.gguf"
        let (outcome, _) = run(try provider([(key: "model", value: missing)]), .summary, Self.note)
        guard case .failed(let reason) = outcome else { return XCTFail("the run did not fail") }
        XCTAssertTrue(reason.contains("create failed with EMEND_E_NOT_FOUND"), reason)
        XCTAssertTrue(reason.contains("no model at \(missing)"), reason)
        XCTAssertTrue(reason.contains("setup-llama.sh"), reason)
    }

    func testBadSettingsFailCreateAndUnknownOnesAreLogged() throws {
        for (key, value) in [("threads", "many"), ("context", "12"), ("max_tokens", "0"), ("proofread", "yes")] {
            guard case .failed(let reason) = run(try provider([(key: key, value: value)]), .summary, Self.note).0 else {
                XCTFail("\(key) = \(value) did not fail")
                continue
            }
            XCTAssertTrue(reason.contains("create failed with EMEND_E_INVALID_ARGUMENT: \(key) must be"), reason)
        }
        let logs = PluginLogCollector()
        XCTAssertEqual(run(try provider([(key: "colour", value: "blue")], logs: logs), .summary, Self.note).0, .finished)
        XCTAssertTrue(logs.all.contains("\(Self.id): warning: unknown setting \"colour\" ignored"), "\(logs.all)")
    }

    func testDescriptor() throws {
        let provider = try provider()
        XCTAssertEqual(provider.tools, Set(WritingTool.allCases))
        XCTAssertEqual(provider.record.languages, ["*"])
        XCTAssertFalse(provider.record.usesNetwork)
        XCTAssertGreaterThan(provider.record.priority, 0, "preferred over the built-in fixture")
        XCTAssertLessThan(provider.record.priority, 5, "after Hunspell and Harper when proofreading is combined")
        // A described change without its description.
        guard case .failed(let reason) = run(provider, .rewriteDescribed, Self.note).0 else {
            return XCTFail("the run did not fail")
        }
        XCTAssertTrue(reason.contains("needs a prompt"), reason)
    }

    // MARK: long inputs

    /// Eight paragraphs, some 700 tokens: more than a context of 512 holds with its output.
    static let longText = (1...8).map { n in
        "Paragraph \(n). The team met on day \(n) to plan the spring fair. They listed the stalls, the music, "
            + "the food and the games, and they agreed who would call the bakery, who would print the posters and "
            + "who would ask the school for the hall. Everyone left with a clear task and a date to report back."
    }.joined(separator: "\n\n")

    func testLongInputIsSplitIntoPiecesThatFitASmallContext() throws {
        let provider = try provider([(key: "context", value: "512"), (key: "max_tokens", value: "160"),
                                     (key: "proofread", value: "true")])
        for tool in [WritingTool.rewriteConcise, .summary, .list] {
            let (outcome, sink) = run(provider, tool, Self.longText)
            XCTAssertEqual(outcome, .finished, "\(tool)")
            XCTAssertFalse(sink.text.isEmpty, "\(tool)")
            XCTAssertTrue(sink.logs.contains { $0.contains("the input is longer than the context allows") }, "\(tool): \(sink.logs)")
            if tool == .list { XCTAssertTrue(lines(sink.text).allSatisfy { $0.hasPrefix("- ") }, sink.text) }
            assertNothingDropped(sink)
        }
        let text = Self.longText.replacingOccurrences(of: "agreed", with: "agred")
        let (outcome, sink) = run(provider, .proofread, text)
        XCTAssertEqual(outcome, .finished)
        let bytes = Array(text.utf8)
        for edit in sink.edits {
            XCTAssertTrue(edit.range.upperBound <= bytes.count)
            XCTAssertNotEqual(String(decoding: bytes[edit.range], as: UTF8.self), edit.replacement)
        }
        assertNothingDropped(sink)
    }

    func testAContextTooSmallForThePromptFailsAndSaysSo() throws {
        // The described change alone takes more than the 128 tokens of the context.
        let provider = try provider([(key: "context", value: "128"), (key: "max_tokens", value: "64")])
        let described = String(repeating: "Make it sound warmer and more personal, like a note to a friend. ", count: 12)
        let (outcome, sink) = run(provider, .rewriteDescribed, Self.note, prompt: described)
        guard case .failed(let reason) = outcome else { return XCTFail("\(outcome)") }
        XCTAssertTrue(reason.contains("tokens is too small for rewrite (described)"), reason)
        XCTAssertEqual(sink.texts, [])
    }
}

/// Builds providers/llama/build.sh into PluginBuilder's directory, once per test process, and
/// reads <repo>/.deps/llama.env (written by scripts/setup-llama.sh) for the model.
enum LlamaPluginBuild {
    static let environmentFile = PluginBuilder.repoRoot + "/.deps/llama.env"

    /// Why the tests cannot run here, or nil. Without llama.env they are skipped, except in CI
    /// (the variable CI set), where scripts/test.sh runs setup-llama.sh first and a missing
    /// build must fail loudly.
    static let missing: String? = {
        if !FileManager.default.fileExists(atPath: environmentFile) && ProcessInfo.processInfo.environment["CI"] == nil {
            return "llama.cpp is not set up (bash scripts/setup-llama.sh)"
        }
        return nil
    }()

    /// KEY=value lines of llama.env (values as printf %q writes them).
    static func environment() throws -> [String: String] {
        let text = try String(contentsOfFile: environmentFile, encoding: .utf8)
        var values: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            var value = ""
            var escaped = false
            for character in line[line.index(after: equals)...] {
                if escaped || character != "\\" { value.append(character); escaped = false } else { escaped = true }
            }
            if value.hasPrefix("'"), value.hasSuffix("'"), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            values[String(line[..<equals])] = value
        }
        return values
    }

    private static let built: Result<String, Error> = Result {
        let directory = PluginBuilder.directory + "/llama"
        try TestProcess.shell("/bin/sh '\(PluginBuilder.repoRoot)/providers/llama/build.sh' '\(directory)'")
        return directory + "/llama.so"
    }

    static func path() throws -> String { try built.get() }

    static func model() throws -> String {
        _ = try path()   // build.sh sets llama.cpp up (and writes llama.env) when it is missing
        guard let model = try environment()["EMEND_LLAMA_MODEL"] else {
            throw NSError(domain: "LlamaPluginBuild", code: 1,
                          userInfo: [NSLocalizedDescriptionKey: "\(environmentFile) names no EMEND_LLAMA_MODEL"])
        }
        return model
    }
}
