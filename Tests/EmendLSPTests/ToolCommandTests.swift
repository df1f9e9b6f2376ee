import Foundation
import XCTest
import EmendCore
@testable import EmendLSP

/// Selection tools with a model that takes as long as the test wants (a gate the test
/// opens): `emend.runTool` is answered while the model still writes, the result comes later
/// as workspace/applyEdit with `$/progress`, and what the user types elsewhere meanwhile
/// moves the result instead of throwing it away.
final class ToolCommandTests: XCTestCase {
    /// Holds every run of the tools (not proofread) until `open()`; counts runs that started
    /// and runs that saw their cancellation.
    final class Gate: @unchecked Sendable {
        private let condition = NSCondition()
        private var isOpen = false
        private(set) var started = 0
        private(set) var cancelled = 0

        func open() { condition.lock(); isOpen = true; condition.broadcast(); condition.unlock() }
        func close() { condition.lock(); isOpen = false; condition.unlock() }

        /// Waits for the gate; false when the run was cancelled first.
        func pass(_ sink: ProviderSink) -> Bool {
            condition.lock()
            defer { condition.unlock() }
            started += 1
            condition.broadcast()
            while !isOpen {
                if sink.isCancelled {
                    cancelled += 1
                    condition.broadcast()
                    return false
                }
                _ = condition.wait(until: Date().addingTimeInterval(0.005))
            }
            return true
        }

        /// Waits until `count` runs started (or cancelled, with `cancelled: true`).
        func wait(started count: Int = 1, cancelled: Bool = false, timeout: TimeInterval = 20) -> Bool {
            let deadline = Date().addingTimeInterval(timeout)
            condition.lock()
            defer { condition.unlock() }
            while (cancelled ? self.cancelled : started) < count {
                if !condition.wait(until: deadline) { return false }
            }
            return true
        }
    }

    /// The fixture, with its tools held at the gate.
    struct GatedProvider: WritingProvider {
        let gate: Gate
        let base = FixtureProvider()
        var id: String { "org.emend.test.gated" }
        var tools: Set<WritingTool> { base.tools }
        var writesMarkdown: Bool { true }
        var canRetry: Bool { false }
        func run(_ request: ProviderRequest, sink: ProviderSink) -> ProviderOutcome {
            if request.tool != .proofread && !gate.pass(sink) { return .failed("cancelled at the gate") }
            return base.run(request, sink: sink)
        }
    }

    let uri = "file:///notes.txt"

    func serverClient(_ gate: Gate) -> LSPTestClient {
        LSPTestClient(inProcess: { input, output, root in
            var configuration = ServerConfiguration(version: "test", environment: LSPTestClient.sandboxEnvironment(root: root),
                                                    makeCatalog: { .success(ProviderList([GatedProvider(gate: gate)])) })
            configuration.input = input
            configuration.output = output
            return LanguageServer(configuration: configuration).run()
        })
    }

    func rewriteAction(_ client: LSPTestClient, _ range: [String: Any]) -> [String: Any] {
        let reply = client.call("textDocument/codeAction", ["textDocument": ["uri": uri], "range": range,
                                                            "context": ["diagnostics": [Any](), "only": ["refactor.rewrite"]]])
        return (reply?["result"] as? [[String: Any]])?.first ?? [:]
    }

    func progress(_ client: LSPTestClient, _ token: Any, kind: String) -> [String: Any]? {
        let message = client.wait("$/progress \(kind)") { message in
            guard message["method"] as? String == "$/progress", let params = message["params"] as? [String: Any],
                  let value = params["value"] as? [String: Any] else { return false }
            return "\(params["token"] ?? "")" == "\(token)" && value["kind"] as? String == kind
        }
        return (message?["params"] as? [String: Any])?["value"] as? [String: Any]
    }

    func appliedEdit(_ message: [String: Any]?) -> [String: Any]? {
        ((((message?["params"] as? [String: Any])?["edit"] as? [String: Any])?["changes"] as? [String: Any])?[uri] as? [[String: Any]])?.first
    }

    func testRunToolIsAnsweredWhileTheModelWritesAndTheEditComesLaterWithProgress() throws {
        let gate = Gate()
        let client = serverClient(gate)
        client.initialize(resolve: false, progress: true, options: ["debounceMs": 0])
        client.open(uri, "It is noon.")
        _ = client.diagnostics(uri, version: 1)
        let command = try XCTUnwrap(rewriteAction(client, lspRange(0, 0, 0, 11))["command"] as? [String: Any])
        XCTAssertEqual(command["command"] as? String, "emend.runTool")

        let sent = Date()
        let id = client.request("workspace/executeCommand", ["command": command["command"]!, "arguments": command["arguments"]!])
        let reply = client.response(id)
        let latency = Date().timeIntervalSince(sent)
        XCTAssertTrue(reply?["result"] is NSNull, "\(String(describing: reply))")
        XCTAssertTrue(gate.wait(started: 1), "the model runs")
        XCTAssertEqual(gate.cancelled, 0)
        print("runTool answered after \(Int(latency * 1000)) ms while the model was still writing")
        // The client created the token; begin, then a report a second later while the model is held.
        let create = client.wait("progress create") { $0["method"] as? String == "window/workDoneProgress/create" }
        let token = try XCTUnwrap((create?["params"] as? [String: Any])?["token"])
        XCTAssertEqual(progress(client, token, kind: "begin")?["cancellable"] as? Bool, true)
        XCTAssertNotNil(progress(client, token, kind: "report")?["message"] as? String)
        XCTAssertFalse(client.pending.contains { $0["method"] as? String == "workspace/applyEdit" }, "nothing before the model ends")

        gate.open()
        let apply = client.wait("workspace/applyEdit") { $0["method"] as? String == "workspace/applyEdit" }
        let edit = try XCTUnwrap(appliedEdit(apply))
        XCTAssertEqual(edit["newText"] as? String, "'s noon!", "“It is noon.” → “It's noon!”")
        XCTAssertEqual(rangeOf(edit["range"]), [[0, 2], [0, 11]])
        XCTAssertNotNil(progress(client, token, kind: "end"))
        XCTAssertEqual(client.shutdownAndExit(), 0)
    }

    func testTheRequestsWorkDoneTokenCarriesTheProgressAndCancelStopsTheModel() throws {
        let gate = Gate()
        let client = serverClient(gate)
        client.initialize(resolve: false, progress: true, options: ["debounceMs": 0])
        client.open(uri, "It is noon.")
        let command = try XCTUnwrap(rewriteAction(client, lspRange(0, 0, 0, 11))["command"] as? [String: Any])
        let id = client.request("workspace/executeCommand", ["command": command["command"]!, "arguments": command["arguments"]!,
                                                             "workDoneToken": "eglot-7"])
        XCTAssertTrue(client.response(id)?["result"] is NSNull)
        XCTAssertEqual(progress(client, "eglot-7", kind: "begin")?["cancellable"] as? Bool, true)
        XCTAssertTrue(gate.wait(started: 1))
        client.notify("window/workDoneProgress/cancel", ["token": "eglot-7"])
        XCTAssertTrue(gate.wait(started: 1, cancelled: true), "the model saw the cancellation")
        XCTAssertEqual(progress(client, "eglot-7", kind: "end")?["message"] as? String, "cancelled")
        XCTAssertFalse(client.pending.contains { $0["method"] as? String == "window/workDoneProgress/create" },
                       "the request's own token, no other")
        // Still serving; no edit ever came.
        XCTAssertNotNil(client.call("textDocument/codeAction", ["textDocument": ["uri": uri], "range": lspRange(0, 0, 0, 0),
                                                                "context": ["diagnostics": [Any]()]])?["result"])
        XCTAssertFalse(client.pending.contains { $0["method"] as? String == "workspace/applyEdit" })
        XCTAssertEqual(client.shutdownAndExit(), 0)
    }

    /// A result that is ready at once still goes out a moment after the command's answer:
    /// Emacs 28's jsonrpc would leave an edit that came in the same read unparsed.
    func testAnInstantResultFollowsTheAnswerAfterAGap() throws {
        let gate = Gate()
        gate.open()
        let client = serverClient(gate)
        client.initialize(resolve: false, options: ["debounceMs": 0])
        client.open(uri, "It is noon.")
        let command = try XCTUnwrap(rewriteAction(client, lspRange(0, 0, 0, 11))["command"] as? [String: Any])
        let id = client.request("workspace/executeCommand", ["command": command["command"]!, "arguments": command["arguments"]!])
        XCTAssertNotNil(client.response(id))
        let answered = Date()
        XCTAssertNotNil(client.wait("workspace/applyEdit") { $0["method"] as? String == "workspace/applyEdit" })
        let gap = Date().timeIntervalSince(answered)
        XCTAssertGreaterThanOrEqual(gap, 0.03, "the edit came \(Int(gap * 1000)) ms after the answer")
        XCTAssertEqual(client.shutdownAndExit(), 0)
    }

    /// lsp-mode resolves synchronously: a client that can take a command back from a resolve
    /// (lsp-mode, Neovim) is offered `emend.runTool` itself, never a model run inside resolve.
    func testClientsThatResolveCommandsAreOfferedTheCommand() throws {
        let gate = Gate()
        let client = serverClient(gate)
        let capabilities: [String: Any] = ["textDocument": ["codeAction": ["resolveSupport": ["properties": ["edit", "command"]]]]]
        XCTAssertNotNil(client.call("initialize", ["processId": NSNull(), "rootUri": NSNull(), "capabilities": capabilities])?["result"])
        client.notify("initialized", [String: Any]())
        client.open(uri, "It is noon.")
        let action = rewriteAction(client, lspRange(0, 0, 0, 11))
        let command = try XCTUnwrap(action["command"] as? [String: Any], "\(action)")
        XCTAssertEqual(command["command"] as? String, "emend.runTool")
        XCTAssertNil(action["data"], "nothing to resolve")
        XCTAssertTrue(client.call("workspace/executeCommand", ["command": command["command"]!, "arguments": command["arguments"]!])?["result"] is NSNull,
                      "answered while the model is held")
        gate.open()
        XCTAssertEqual(appliedEdit(client.wait("workspace/applyEdit") { $0["method"] as? String == "workspace/applyEdit" })?["newText"] as? String,
                       "'s noon!")
        XCTAssertEqual(client.shutdownAndExit(), 0)
    }

    /// A client that resolves edits keeps sending didChange while it waits: edits
    /// outside the selection move the result; an edit inside it makes it stale (-32801).
    func testTypingElsewhereWhileTheModelWritesMovesTheResult() throws {
        let gate = Gate()
        let client = serverClient(gate)
        client.initialize(options: ["debounceMs": 0])
        client.open(uri, "Title\nIt is noon. Tail")
        let action = rewriteAction(client, lspRange(1, 0, 1, 11))
        let id = client.request("codeAction/resolve", action)
        XCTAssertTrue(gate.wait(started: 1))
        // Above the selection, on its line just before it, and after it.
        client.change(uri, version: 2, [["range": lspRange(0, 0, 0, 0), "text": "Notes\n\n"]])
        client.change(uri, version: 3, [["range": lspRange(3, 0, 3, 0), "text": "😀 "]])
        client.change(uri, version: 4, [["range": lspRange(3, 15, 3, 19), "text": "End of the line"]])
        _ = client.diagnostics(uri, version: 4)
        gate.open()
        let resolved = client.response(id)
        let edits = ((resolved?["result"] as? [String: Any])?["edit"] as? [String: Any])?["changes"] as? [String: Any]
        let edit = try XCTUnwrap((edits?[uri] as? [[String: Any]])?.first, "\(String(describing: resolved))")
        // “😀 It is noon.” → “😀 It's noon.”: the emoji is two UTF-16 units, the space one.
        XCTAssertEqual(rangeOf(edit["range"]), [[3, 5], [3, 7]])
        XCTAssertEqual(edit["newText"] as? String, "'")

        // An edit inside the selection: the result was written for text that is gone.
        gate.close()
        let second = rewriteAction(client, lspRange(3, 3, 3, 14))
        let secondID = client.request("codeAction/resolve", second)
        XCTAssertTrue(gate.wait(started: 2))
        client.change(uri, version: 5, [["range": lspRange(3, 6, 3, 8), "text": "was"]])
        _ = client.diagnostics(uri, version: 5)
        gate.open()
        XCTAssertEqual((client.response(secondID)?["error"] as? [String: Any])?["code"] as? Int, -32801)
        XCTAssertEqual(client.shutdownAndExit(), 0)
    }
}
