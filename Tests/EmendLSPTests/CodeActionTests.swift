import Foundation
import XCTest

/// Code actions of the real `emend lsp`: quick fixes, the dictionary, and the selection
/// tools resolved lazily with progress and cancellation.
final class CodeActionTests: XCTestCase {
    let uri = "file:///notes.txt"

    func actions(_ client: LSPTestClient, _ range: [String: Any], only: [String]? = nil) -> [[String: Any]] {
        var context: [String: Any] = ["diagnostics": [Any]()]
        if let only { context["only"] = only }
        let reply = client.call("textDocument/codeAction", ["textDocument": ["uri": uri], "range": range, "context": context])
        return reply?["result"] as? [[String: Any]] ?? []
    }

    func testAQuickFixPerSuggestionTheFirstPreferred() {
        let client = LSPTestClient()
        client.initialize()
        client.open(uri, "We meet tomorow 😀 and they could of come.")
        XCTAssertEqual(client.diagnostics(uri, version: 1).count, 2)
        let all = actions(client, lspRange(0, 0, 0, 30), only: ["quickfix"])
        let fixes = all.filter { $0["edit"] != nil }
        XCTAssertEqual(fixes.map { $0["title"] as? String ?? "" }, ["Replace with “tomorrow”", "Replace with “could have”"])
        XCTAssertEqual(fixes.map { $0["isPreferred"] as? Bool ?? false }, [true, false])
        let edit = ((fixes[0]["edit"] as? [String: Any])?["changes"] as? [String: Any])?[uri] as? [[String: Any]]
        XCTAssertEqual(edit?.first?["newText"] as? String, "tomorrow")
        XCTAssertEqual(rangeOf(edit?.first?["range"]), [[0, 8], [0, 15]])
        XCTAssertEqual((fixes[0]["diagnostics"] as? [[String: Any]])?.first?["code"] as? String, "SPELLING")
        // At a caret inside the word, only its own fixes.
        let atCaret = actions(client, lspRange(0, 10, 0, 10))
        XCTAssertEqual(atCaret.compactMap { $0["title"] as? String },
                       ["Replace with “tomorrow”", "Add “tomorow” to dictionary", "Ignore this rule (SPELLING)"])
        XCTAssertEqual(client.shutdownAndExit(), 0)
    }

    func testAddToDictionaryWritesTheSharedFileAndHidesTheWord() throws {
        let client = LSPTestClient()
        client.initialize()
        client.open(uri, "Tomorow we see tomorow, and they could of.")
        XCTAssertEqual(client.diagnostics(uri, version: 1).count, 3)
        let add = actions(client, lspRange(0, 16, 0, 16)).first { ($0["title"] as? String ?? "").hasPrefix("Add") }
        let command = try XCTUnwrap(add?["command"] as? [String: Any])
        XCTAssertTrue(client.call("workspace/executeCommand", ["command": command["command"]!, "arguments": command["arguments"]!])?["result"] is NSNull)
        let words = try String(contentsOfFile: client.root + "/config/emend/dictionary.txt", encoding: .utf8)
        XCTAssertEqual(words, "tomorow\n")
        let after = client.diagnostics(uri, version: 1)
        XCTAssertEqual(after.compactMap { $0["code"] as? String }, ["COULD_OF"], "“Tomorow” at a sentence start is accepted too")

        let ignore = actions(client, lspRange(0, 33, 0, 33)).first { ($0["title"] as? String ?? "").hasPrefix("Ignore") }
        let ignoreCommand = try XCTUnwrap(ignore?["command"] as? [String: Any])
        XCTAssertEqual(ignoreCommand["arguments"] as? [String], ["COULD_OF"])
        _ = client.call("workspace/executeCommand", ["command": ignoreCommand["command"]!, "arguments": ignoreCommand["arguments"]!])
        XCTAssertEqual(try String(contentsOfFile: client.root + "/config/emend/ignored-rules.txt", encoding: .utf8), "COULD_OF\n")
        XCTAssertEqual(client.diagnostics(uri, version: 1).count, 0)
        XCTAssertEqual(client.shutdownAndExit(), 0)
    }

    func testSelectionToolsAreResolvedLazilyWithProgress() throws {
        let client = LSPTestClient()
        client.initialize(progress: true)
        client.open(uri, "Intro.\n\nWe will meet at noon. It is near.\n")
        _ = client.diagnostics(uri, version: 1)
        let offered = actions(client, lspRange(2, 0, 2, 33), only: ["refactor"])
        XCTAssertEqual(offered.map { $0["title"] as? String ?? "" },
                       ["Rewrite: friendly", "Rewrite: professional", "Rewrite: concise", "Summarize", "Make a list", "Make a table"])
        XCTAssertTrue(offered.allSatisfy { $0["kind"] as? String == "refactor.rewrite" && $0["edit"] == nil }, "no model ran yet")
        XCTAssertTrue(actions(client, lspRange(2, 3, 2, 3), only: ["refactor"]).isEmpty, "no selection, no tools")

        let friendly = offered[0]
        let id = client.request("codeAction/resolve", friendly)
        let create = client.wait("progress create") { $0["method"] as? String == "window/workDoneProgress/create" }
        let token = (create?["params"] as? [String: Any])?["token"] as? String
        let resolved = client.response(id)
        let edits = ((resolved?["result"] as? [String: Any])?["edit"] as? [String: Any])?["changes"] as? [String: Any]
        let edit = try XCTUnwrap((edits?[uri] as? [[String: Any]])?.first)
        // The fixture's friendly tone contracts "It is": the edit is the smallest span that changed.
        XCTAssertEqual(rangeOf(edit["range"]), [[2, 24], [2, 26]])
        XCTAssertEqual(edit["newText"] as? String, "'")
        XCTAssertEqual((resolved?["result"] as? [String: Any])?["title"] as? String, "Rewrite: friendly")
        var kinds: [String] = []
        for _ in 0..<2 {
            let progress = client.wait("$/progress") { ($0["method"] as? String) == "$/progress" }
            XCTAssertEqual((progress?["params"] as? [String: Any])?["token"] as? String, token)
            kinds.append(((progress?["params"] as? [String: Any])?["value"] as? [String: Any])?["kind"] as? String ?? "")
        }
        XCTAssertEqual(kinds, ["begin", "end"])

        // Summarize: the summary goes below the selection, which stays.
        let summary = client.call("codeAction/resolve", offered[3])
        let summaryEdit = (((summary?["result"] as? [String: Any])?["edit"] as? [String: Any])?["changes"] as? [String: Any])?[uri] as? [[String: Any]]
        XCTAssertEqual(rangeOf(summaryEdit?.first?["range"]), [[2, 33], [2, 33]])
        XCTAssertEqual(summaryEdit?.first?["newText"] as? String, "\n\nWe will meet at noon.\n")
        XCTAssertEqual(client.shutdownAndExit(), 0)
    }

    func testCancellingAResolveStopsTheModel() {
        let client = LSPTestClient()
        client.initialize()
        client.open(uri, "Please [fixture:hang] wait here.")
        let tool = actions(client, lspRange(0, 0, 0, 32), only: ["refactor.rewrite"])[2]
        let id = client.request("codeAction/resolve", tool)
        usleep(200_000)
        // The loop is not blocked by the running model: other requests are answered meanwhile.
        XCTAssertNotNil(client.call("textDocument/codeAction", ["textDocument": ["uri": uri], "range": lspRange(0, 0, 0, 0),
                                                                "context": ["diagnostics": [Any]()]])?["result"])
        client.notify("$/cancelRequest", ["id": id])
        XCTAssertEqual((client.response(id)?["error"] as? [String: Any])?["code"] as? Int, -32800)
        XCTAssertEqual(client.shutdownAndExit(), 0)
    }

    func testAnActionForAnOlderVersionIsRefused() {
        let client = LSPTestClient()
        client.initialize()
        client.open(uri, "We will meet at noon.")
        let tool = actions(client, lspRange(0, 0, 0, 21), only: ["refactor.rewrite"])[0]
        client.change(uri, version: 2, [["range": lspRange(0, 0, 0, 0), "text": "Now "]])
        XCTAssertEqual((client.call("codeAction/resolve", tool)?["error"] as? [String: Any])?["code"] as? Int, -32801)
        XCTAssertEqual(client.shutdownAndExit(), 0)
    }

    func testClientsWithoutResolveGetACommandThatAppliesTheEdit() throws {
        let client = LSPTestClient()
        client.initialize(resolve: false)
        client.open(uri, "It is noon.")
        let tool = actions(client, lspRange(0, 0, 0, 11), only: ["refactor.rewrite"])[0]
        let command = try XCTUnwrap(tool["command"] as? [String: Any])
        XCTAssertEqual(command["command"] as? String, "emend.runTool")
        let id = client.request("workspace/executeCommand", ["command": command["command"]!, "arguments": command["arguments"]!])
        let apply = client.wait("workspace/applyEdit") { $0["method"] as? String == "workspace/applyEdit" }
        let edits = (((apply?["params"] as? [String: Any])?["edit"] as? [String: Any])?["changes"] as? [String: Any])?[uri] as? [[String: Any]]
        XCTAssertEqual(edits?.first?["newText"] as? String, "'s noon!", "“It is noon.” → “It's noon!”")
        XCTAssertTrue(client.response(id)?["result"] is NSNull)
        XCTAssertEqual(client.shutdownAndExit(), 0)
    }
}
