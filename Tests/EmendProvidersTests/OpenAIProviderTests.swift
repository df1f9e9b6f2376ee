import Foundation
import XCTest
import EmendCore
@testable import EmendProviders
import EmendTestSupport

private let openAIID = "org.emend.openai"

/// Helpers shared by both classes below.
private func openAIProvider(_ settings: [(key: String, value: String)],
                            logs: PluginLogCollector = PluginLogCollector()) throws -> PluginProvider {
    PluginProvider(record: try PluginLibrary.load(path: try OpenAIPluginBuild.path()).record, settings: settings, logger: logs.logger)
}

private func request(_ tool: WritingTool, _ text: String, prompt: String? = nil) -> ProviderRequest {
    ProviderRequest(tool: tool, text: text, selection: 0..<text.utf8.count, resultOptions: .plainText, prompt: prompt)
}

private func isCancelled(_ outcome: ProviderOutcome) -> Bool {
    [.failed("cancelled"), .failed("\(openAIID): cancelled")].contains(outcome)
}

/// The openai plugin against Tests/Fixtures/openai/fault_server.py, a real local HTTP server
/// that fails on purpose: retries, keys, errors, cancellation and the shaping of answers, with
/// answers that are the same on every machine.
final class OpenAIProviderFaultTests: XCTestCase {
    override func setUpWithError() throws {
        if let reason = OpenAIPluginBuild.missing { throw XCTSkip(reason) }
    }

    private func settings(_ server: FaultServer, _ more: [(key: String, value: String)] = []) -> [(key: String, value: String)] {
        [(key: "base_url", value: server.baseURL), (key: "retry_delay_ms", value: "10")] + more
    }

    // MARK: streaming

    func testStreamsWholeCharactersWhenTheServerSplitsThem() throws {
        let server = try FaultServer(script: "200")
        let sink = PluginTestSink()
        let outcome = try openAIProvider(settings(server)).run(request(.rewriteFriendly, "hello cafe world"), sink: sink)
        XCTAssertEqual(outcome, .finished)
        XCTAssertEqual(sink.text, "Hello, café 😀 world.")
        XCTAssertGreaterThan(sink.texts.count, 1, "streamed in pieces")
        XCTAssertFalse(sink.texts.contains { $0.contains("\u{FFFD}") }, "\(sink.texts)")
        XCTAssertFalse(sink.logs.contains { $0.contains("not valid UTF-8") }, "\(sink.logs)")
        XCTAssertEqual(server.requests.count, 1)
    }

    func testTheRequestBody() throws {
        let server = try FaultServer(script: "200@bullets")
        let provider = try openAIProvider(settings(server, [(key: "model", value: "smol"), (key: "max_tokens", value: "77"),
                                                            (key: "temperature", value: "0.5")]))
        XCTAssertEqual(provider.run(request(.keyPoints, "One. Two. Three."), sink: PluginTestSink()), .finished)
        let noGrammar = try openAIProvider(settings(server, [(key: "send_grammar", value: "false"), (key: "temperature", value: "-1")]))
        XCTAssertEqual(noGrammar.run(request(.keyPoints, "One. Two. Three."), sink: PluginTestSink()), .finished)
        XCTAssertEqual(noGrammar.run(request(.summary, "One. Two. Three."), sink: PluginTestSink()), .finished)

        let requests = server.requests
        XCTAssertEqual(requests.count, 3)
        XCTAssertEqual(requests[0]["path"] as? String, "/v1/chat/completions")
        let body = try XCTUnwrap(requests[0]["body"] as? [String: Any])
        XCTAssertEqual(body["stream"] as? Bool, true)
        XCTAssertEqual(body["model"] as? String, "smol")
        XCTAssertEqual(body["max_tokens"] as? Int, 77)
        XCTAssertEqual(body["temperature"] as? Double, 0.5)
        XCTAssertTrue((body["grammar"] as? String)?.contains("root ::=") == true, "the shared GBNF for key points")
        let messages = try XCTUnwrap(body["messages"] as? [[String: String]])
        XCTAssertEqual(messages.map { $0["role"] }, ["system", "user"])
        XCTAssertTrue(messages[1]["content"]?.contains("One. Two. Three.") == true, "\(messages)")
        XCTAssertNil(requests[0]["authorization"] as? String, "no key configured, no header")

        let plain = try XCTUnwrap(requests[1]["body"] as? [String: Any])
        XCTAssertNil(plain["grammar"], "send_grammar = false")
        XCTAssertNil(plain["temperature"], "temperature = -1 leaves it to the server")
        XCTAssertNil(plain["model"])
        XCTAssertNil((requests[2]["body"] as? [String: Any])?["grammar"], "free text has no grammar")
    }

    func testAWholeJSONAnswerFromAServerThatDoesNotStream() throws {
        let server = try FaultServer(script: "json")
        let sink = PluginTestSink()
        XCTAssertEqual(try openAIProvider(settings(server)).run(request(.summary, "Text."), sink: sink), .finished)
        XCTAssertEqual(sink.text, "A whole answer.")
    }

    // MARK: the shapes of answers

    func testListLinesAreNormalisedToDashItems() throws {
        let server = try FaultServer(script: "200@bullets")
        let sink = PluginTestSink()
        XCTAssertEqual(try openAIProvider(settings(server)).run(request(.list, "First, second and third."), sink: sink), .finished)
        XCTAssertEqual(sink.text, "- First point\n- Second point\n- Third point")
    }

    func testTablesGetASeparatorAndEqualRows() throws {
        let server = try FaultServer(script: "200@table")
        let sink = PluginTestSink()
        XCTAssertEqual(try openAIProvider(settings(server)).run(request(.table, "Ann is 31, Bob is unknown."), sink: sink), .finished)
        XCTAssertEqual(sink.text, "| Name | Age |\n| :--- | ---: |\n| Ann | 31, extra |\n| Bob |  |")
        assertMarkdownTable(sink.text)
    }

    func testProofreadingJSONBecomesEdits() throws {
        let server = try FaultServer(script: "200@proof")
        let text = "We meet tomorow at noon."
        let sink = PluginTestSink()
        XCTAssertEqual(try openAIProvider(settings(server)).run(request(.proofread, text), sink: sink), .finished)
        XCTAssertEqual(sink.texts, [])
        XCTAssertEqual(sink.edits.map(\.range), [byteRange(of: "tomorow", in: text)])
        XCTAssertEqual(sink.edits.first?.replacement, "tomorrow")
        XCTAssertEqual(sink.edits.first?.ruleID, "OPENAI")
        let body = try XCTUnwrap(server.requests.first?["body"] as? [String: Any])
        XCTAssertTrue((body["grammar"] as? String)?.contains("edits") == true)
    }

    func testAnEditNextToCurlyQuotesOrANoBreakSpaceFindsItsWord() throws {
        let server = try FaultServer(script: "200@proof,200@proof")
        let provider = try openAIProvider(settings(server))
        // A word inside "Cafétomorow" is not the word; one between curly quotes, or before a
        // no-break space, is.
        let quoted = "Cafétomorow and “tomorow” at noon."
        let spaced = "See you tomorow\u{00A0}at noon."
        let afterQuote = byteRange(of: "“tomorow", in: quoted).lowerBound + "“".utf8.count
        for (text, expected) in [(quoted, afterQuote..<afterQuote + 7), (spaced, byteRange(of: "tomorow", in: spaced))] {
            let sink = PluginTestSink()
            XCTAssertEqual(provider.run(request(.proofread, text), sink: sink), .finished)
            XCTAssertEqual(sink.edits.map(\.range), [expected], text)
        }
    }

    // MARK: retries

    func testA429ThenA200IsRetriedAfterRetryAfter() throws {
        let server = try FaultServer(script: "429:0,200")
        let sink = PluginTestSink()
        XCTAssertEqual(try openAIProvider(settings(server)).run(request(.rewriteConcise, "Some text."), sink: sink), .finished)
        XCTAssertEqual(sink.text, "Hello, café 😀 world.")
        XCTAssertEqual(server.requests.count, 2)
        XCTAssertTrue(sink.logs.contains {
            $0.hasPrefix("\(openAIID): info: HTTP 429 from \(server.baseURL)/chat/completions: too many requests; retry 1 of 3 in 0 ms (Retry-After)")
        }, "\(sink.logs)")
    }

    func testA503ThenA200IsRetriedWithBackOff() throws {
        let server = try FaultServer(script: "503,503,200")
        let sink = PluginTestSink()
        XCTAssertEqual(try openAIProvider(settings(server)).run(request(.summary, "Some text."), sink: sink), .finished)
        XCTAssertEqual(sink.text, "Hello, café 😀 world.")
        XCTAssertEqual(server.requests.count, 3)
        let retries = sink.logs.filter { $0.contains("HTTP 503") }
        XCTAssertEqual(retries.count, 2, "\(sink.logs)")
        XCTAssertTrue(retries[0].hasSuffix("the model is loading; retry 1 of 3 in 10 ms"), retries[0])
        XCTAssertTrue(retries[1].hasSuffix("the model is loading; retry 2 of 3 in 20 ms"), retries[1])
    }

    func testAConnectionClosedWithoutAnAnswerIsRetried() throws {
        let server = try FaultServer(script: "drop,200")
        let sink = PluginTestSink()
        XCTAssertEqual(try openAIProvider(settings(server)).run(request(.summary, "Some text."), sink: sink), .finished)
        XCTAssertEqual(server.requests.count, 2)
        XCTAssertTrue(sink.logs.contains { $0.contains("retry 1 of 3") }, "\(sink.logs)")
    }

    func testRetriesStopAtTheSetting() throws {
        let server = try FaultServer(script: "503")
        let outcome = try openAIProvider(settings(server, [(key: "retries", value: "2")])).run(request(.summary, "x"), sink: PluginTestSink())
        XCTAssertEqual(outcome, .failed("\(openAIID): HTTP 503 from \(server.baseURL)/chat/completions: the model is loading (3 attempts)"))
        XCTAssertEqual(server.requests.count, 3)
    }

    func testOtherStatusesAreNotRetried() throws {
        let server = try FaultServer(script: "400")
        let outcome = try openAIProvider(settings(server)).run(request(.summary, "x"), sink: PluginTestSink())
        XCTAssertEqual(outcome, .failed("\(openAIID): HTTP 400 from \(server.baseURL)/chat/completions: fault 400"))
        XCTAssertEqual(server.requests.count, 1)
    }

    func testAStreamThatBreaksAfterContentIsNotRetried() throws {
        let server = try FaultServer(script: "break,200")
        let sink = PluginTestSink()
        let outcome = try openAIProvider(settings(server)).run(request(.summary, "x"), sink: sink)
        guard case .failed(let reason) = outcome else { return XCTFail("\(outcome)") }
        XCTAssertTrue(reason.hasPrefix("\(openAIID): the answer from \(server.baseURL)/chat/completions broke off: "), reason)
        XCTAssertTrue(reason.hasSuffix("(after part of the answer was shown: not retried)"), reason)
        XCTAssertEqual(sink.text, "Half an answer")
        XCTAssertEqual(server.requests.count, 1)
    }

    func testAnErrorEventInTheStreamFails() throws {
        let server = try FaultServer(script: "error")
        let outcome = try openAIProvider(settings(server)).run(request(.summary, "x"), sink: PluginTestSink())
        XCTAssertEqual(outcome, .failed("\(openAIID): the server reported an error: the model crashed"))
    }

    func testAnUnreachableServerFailsClearlyAfterTheRetries() throws {
        let port = try TestProcess.freePort()
        let sink = PluginTestSink()
        let outcome = try openAIProvider([(key: "base_url", value: "http://127.0.0.1:\(port)/v1"), (key: "retries", value: "2"),
                                          (key: "retry_delay_ms", value: "10")]).run(request(.summary, "x"), sink: sink)
        guard case .failed(let reason) = outcome else { return XCTFail("\(outcome)") }
        XCTAssertTrue(reason.hasPrefix("\(openAIID): cannot reach http://127.0.0.1:\(port)/v1/chat/completions: "), reason)
        XCTAssertTrue(reason.contains("port \(port)"), reason)
        XCTAssertTrue(reason.hasSuffix(" (3 attempts)"), reason)
        XCTAssertEqual(sink.logs.filter { $0.contains("cannot reach") }.count, 2, "two retries logged: \(sink.logs)")
    }

    // MARK: the key

    func testTheKeyFromTheEnvironmentIsSentAndNeverLogged() throws {
        let key = "sk-emend-test-\(UUID().uuidString)"
        setenv("EMEND_TEST_OPENAI_KEY", key, 1)
        defer { unsetenv("EMEND_TEST_OPENAI_KEY") }
        let server = try FaultServer(script: "503,200,401echo")
        let logs = PluginLogCollector()
        let provider = try openAIProvider(settings(server, [(key: "api_key_env", value: "EMEND_TEST_OPENAI_KEY")]), logs: logs)
        let sink = PluginTestSink()
        XCTAssertEqual(provider.run(request(.summary, "Some text."), sink: sink), .finished)
        XCTAssertEqual(server.requests.map { $0["authorization"] as? String }, ["Bearer \(key)", "Bearer \(key)"])

        // A server that echoes the key in its error: the message says [redacted] instead.
        let failing = PluginTestSink()
        guard case .failed(let reason) = provider.run(request(.summary, "x"), sink: failing) else { return XCTFail() }
        XCTAssertEqual(reason, "\(openAIID): HTTP 401 from \(server.baseURL)/chat/completions: invalid key in Bearer [redacted] (check the API key)")
        for line in logs.all + sink.logs + failing.logs + [reason] {
            XCTAssertFalse(line.contains(key), line)
        }
        XCTAssertFalse((sink.logs + logs.all).isEmpty, "there were log lines to check")
    }

    func testAKeyFileReadableByOthersIsRefused() throws {
        let path = PluginBuilder.directory + "/key-\(UUID().uuidString.prefix(8))"
        let key = "sk-file-\(UUID().uuidString)"
        try Data((key + "\n").utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o644)
        let server = try FaultServer(script: "200")
        let plugin = try OpenAIPluginBuild.path()
        let outcome = try openAIProvider(settings(server, [(key: "api_key_file", value: path)])).run(request(.summary, "x"), sink: PluginTestSink())
        XCTAssertEqual(outcome, .failed("\(plugin): create failed with EMEND_E_INVALID_ARGUMENT: api_key_file \"\(path)\" is refused: "
                                        + "its mode 0644 lets group or others access it; make it readable only by you (chmod 600)"))
        XCTAssertEqual(server.requests.count, 0)

        chmod(path, 0o600)
        XCTAssertEqual(try openAIProvider(settings(server, [(key: "api_key_file", value: path)])).run(request(.summary, "x"), sink: PluginTestSink()),
                       .finished)
        XCTAssertEqual(server.requests.first?["authorization"] as? String, "Bearer \(key)", "the newline is not part of the key")
    }

    func testKeySettingsThatCannotWork() throws {
        let plugin = try OpenAIPluginBuild.path()
        func reason(_ settings: [(key: String, value: String)]) throws -> String {
            guard case .failed(let reason) = try openAIProvider(settings).run(request(.summary, "x"), sink: PluginTestSink()) else {
                XCTFail("ran")
                return ""
            }
            return reason
        }
        unsetenv("EMEND_TEST_NO_SUCH_KEY")
        XCTAssertEqual(try reason([(key: "api_key_env", value: "EMEND_TEST_NO_SUCH_KEY")]),
                       "\(plugin): create failed with EMEND_E_INVALID_ARGUMENT: api_key_env names the environment variable "
                       + "EMEND_TEST_NO_SUCH_KEY, which is not set")
        XCTAssertEqual(try reason([(key: "api_key_file", value: "/nonexistent/key")]),
                       "\(plugin): create failed with EMEND_E_INVALID_ARGUMENT: api_key_file \"/nonexistent/key\" cannot be opened: "
                       + "No such file or directory")
        XCTAssertEqual(try reason([(key: "retries", value: "many")]),
                       "\(plugin): create failed with EMEND_E_INVALID_ARGUMENT: retries must be a number from 0 to 10, not \"many\"")
        XCTAssertEqual(try reason([(key: "base_url", value: "ftp://example.org")]),
                       "\(plugin): create failed with EMEND_E_INVALID_ARGUMENT: base_url must start with http:// or https://, "
                       + "not \"ftp://example.org\"")
    }

    // MARK: cancellation

    func testCancelWhileWaitingForTheServer() throws {
        let server = try FaultServer(script: "stall,200")
        let provider = try openAIProvider(settings(server))
        let outcome = provider.run(request(.summary, "x"), sink: PluginTestSink(cancelAfterSeconds: 0.3))
        XCTAssertTrue(isCancelled(outcome), "\(outcome)")
        XCTAssertEqual(server.requests.count, 1, "a cancelled request is not retried")
        // The next run gets the next answer.
        let sink = PluginTestSink()
        XCTAssertEqual(provider.run(request(.summary, "x"), sink: sink), .finished)
        XCTAssertEqual(sink.text, "Hello, café 😀 world.")
    }

    func testCancelMidStream() throws {
        let server = try FaultServer(script: "slow")
        let sink = PluginTestSink(cancelAfterTexts: 3)
        let outcome = try openAIProvider(settings(server)).run(request(.rewriteProfessional, "x"), sink: sink)
        XCTAssertTrue(isCancelled(outcome), "\(outcome)")
        XCTAssertEqual(sink.texts, ["word0", " word1", " word2"])
        XCTAssertEqual(server.requests.count, 1)
    }

    // MARK: the registry's network gate

    func testOffUntilTheConfigurationEnablesNetworkProviders() throws {
        let server = try FaultServer(script: "200")
        let record = try PluginLibrary.load(path: try OpenAIPluginBuild.path()).record
        XCTAssertTrue(record.usesNetwork)
        XCTAssertTrue(record.streams)
        XCTAssertEqual(record.tools, Set(WritingTool.allCases))

        let off = ProviderRegistry(discovery: DiscoveryResult(records: [record]),
                                   configuration: try ProviderConfiguration.parse(""), builtins: [FixtureProvider()])
        XCTAssertEqual(off.entries.first { $0.id == openAIID }?.disabledReason, "uses the network; set network = true in config.toml")
        XCTAssertEqual(try off.provider(for: .summary, named: nil).id, "org.emend.fixture")
        XCTAssertThrowsError(try off.provider(for: .summary, named: openAIID)) { error in
            XCTAssertEqual(error as? EmendError,
                           EmendError(.refused, "provider \"\(openAIID)\" is off: uses the network; set network = true in config.toml"))
        }
        XCTAssertEqual(server.requests.count, 0)

        let configuration = try ProviderConfiguration.parse("""
            network = true
            [providers."\(openAIID)"]
            base_url = "\(server.baseURL)"
            retries = 0
            """)
        let on = ProviderRegistry(discovery: DiscoveryResult(records: [record]), configuration: configuration, builtins: [FixtureProvider()])
        let provider = try on.provider(for: .summary, named: nil)
        XCTAssertEqual(provider.id, openAIID)
        let sink = PluginTestSink()
        XCTAssertEqual(provider.run(request(.summary, "Some text."), sink: sink), .finished)
        XCTAssertEqual(sink.text, "Hello, café 😀 world.")
        XCTAssertEqual(server.requests.count, 1, "the settings of config.toml reached the plugin")
    }
}

/// The openai plugin against a real llama-server with the small model of scripts/setup-llama.sh.
/// Model output differs between machines: these tests check shapes, not words.
final class OpenAIProviderTests: XCTestCase {
    override func setUpWithError() throws {
        if let reason = OpenAIPluginBuild.missing { throw XCTSkip(reason) }
        if let reason = LlamaServer.unavailable {
            if ProcessInfo.processInfo.environment["CI"] != nil {
                throw NSError(domain: "OpenAIProviderTests", code: 1, userInfo: [NSLocalizedDescriptionKey: "CI is set: \(reason)"])
            }
            throw XCTSkip(reason)
        }
    }

    override class func tearDown() {
        LlamaServer.stopShared()
        super.tearDown()
    }

    private func provider(maxTokens: Int = 96) throws -> PluginProvider {
        let server = try LlamaServer.shared()
        return try openAIProvider([(key: "base_url", value: server.baseURL), (key: "max_tokens", value: String(maxTokens)),
                                   (key: "temperature", value: "0.2")])
    }

    private static let paragraph = """
        The meeting moved to Thursday because the room was booked. Anna will bring the slides, \
        Ben will order lunch, and everyone should read the budget report before we meet.
        """

    func testARewriteStreamsValidText() throws {
        let sink = PluginTestSink()
        XCTAssertEqual(try provider().run(request(.rewriteFriendly, Self.paragraph), sink: sink), .finished)
        XCTAssertGreaterThan(sink.texts.count, 1, "streamed in more than one piece")
        XCTAssertFalse(sink.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
        XCTAssertFalse(sink.logs.contains { $0.contains("not valid UTF-8") }, "\(sink.logs)")
        for piece in sink.texts { XCTAssertFalse(piece.unicodeScalars.contains("\u{FFFD}"), "a piece cut inside a character: \(piece)") }
        XCTAssertTrue(sink.logs.contains { $0.hasPrefix("\(openAIID): info: ") && $0.contains("pieces from the server") }, "\(sink.logs)")
    }

    func testKeyPointsAndListsAreDashLines() throws {
        let provider = try provider()
        for tool in [WritingTool.keyPoints, .list] {
            let sink = PluginTestSink()
            XCTAssertEqual(provider.run(request(tool, Self.paragraph), sink: sink), .finished, tool.name)
            let lines = sink.text.split(separator: "\n", omittingEmptySubsequences: false)
            XCTAssertFalse(lines.isEmpty, tool.name)
            for line in lines { XCTAssertTrue(line.hasPrefix("- ") && line.count > 2, "\(tool.name): \(sink.text)") }
        }
    }

    func testATableIsAMarkdownTable() throws {
        let sink = PluginTestSink()
        let text = "Anna is 34 and lives in Oslo. Ben is 27 and lives in Rome. Chloe is 45 and lives in Lyon."
        XCTAssertEqual(try provider(maxTokens: 160).run(request(.table, text), sink: sink), .finished)
        assertMarkdownTable(sink.text)
    }

    func testProofreadEditsAreValid() throws {
        let text = "She dont like the the weather tomorow, and they was late."
        let sink = PluginTestSink()
        XCTAssertEqual(try provider(maxTokens: 160).run(request(.proofread, text), sink: sink), .finished)
        XCTAssertEqual(sink.texts, [], "proofreading answers with edits only")
        let bytes = Array(text.utf8)
        var previousEnd = 0
        // The originals the model proposed, from the plugin's debug line of its answer.
        let answer = sink.logs.first { $0.contains("the model's proofreading answer: ") }
        for edit in sink.edits {
            XCTAssertTrue(edit.range.lowerBound >= previousEnd && edit.range.upperBound <= bytes.count, "\(edit.range)")
            previousEnd = edit.range.upperBound
            let covered = String(decoding: bytes[edit.range], as: UTF8.self)
            XCTAssertFalse(covered.isEmpty)
            XCTAssertNotEqual(covered, edit.replacement, "no-op edit \(edit)")
            if let answer {
                XCTAssertTrue(answer.contains(jsonEscaped(covered)), "the original \(covered) is in the answer: \(answer)")
            }
        }
        XCTAssertNotNil(answer, "\(sink.logs)")
    }

    func testCancelMidStream() throws {
        let provider = try provider(maxTokens: 400)
        let sink = PluginTestSink(cancelAfterTexts: 3)
        let outcome = provider.run(request(.compose, "", prompt: "Write a long story about a dragon who learns to bake bread."),
                                   sink: sink)
        XCTAssertTrue(isCancelled(outcome), "\(outcome)")
        XCTAssertEqual(sink.texts.count, 3, "nothing reaches the host after the cancel")
        // The server is free for the next request.
        XCTAssertEqual(provider.run(request(.rewriteConcise, "We will meet on Thursday at noon."), sink: PluginTestSink()), .finished)
    }

    private func jsonEscaped(_ text: String) -> String {
        let data = try! JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self).dropFirst(2).dropLast(2).description
    }
}

/// A header line, a separator line, then rows: every line "| ... |" with the header's number of cells.
func assertMarkdownTable(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard lines.count >= 3 else { return XCTFail("not a table with rows: \(text)", file: file, line: line) }
    func cells(_ row: String) -> [String]? {
        guard row.hasPrefix("|"), row.hasSuffix("|"), row.count >= 2 else { return nil }
        return row.dropFirst().dropLast().split(separator: "|", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
    }
    guard let header = cells(lines[0]), !header.isEmpty else { return XCTFail("header: \(text)", file: file, line: line) }
    guard let separator = cells(lines[1]), separator.count == header.count,
          separator.allSatisfy({ $0.range(of: "^:?-{3,}:?$", options: .regularExpression) != nil }) else {
        return XCTFail("separator: \(text)", file: file, line: line)
    }
    for row in lines.dropFirst(2) {
        XCTAssertEqual(cells(row)?.count, header.count, "row \"\(row)\" of \(text)", file: file, line: line)
    }
}
