import Foundation
import XCTest
import EmendCore
@testable import EmendLSP

/// After a rewrite's edit is applied, each of its changes is a review item: a diagnostic
/// (code "rewrite") with the quick fixes "Keep this change" and "Undo this change", and
/// "Keep all changes of the rewrite"; undoing one puts back its original and leaves the
/// others; an edit in a change makes it the writer's (its item goes).
final class ReviewItemTests: XCTestCase {
    let uri = "file:///notes.txt"

    func serverClient() -> LSPTestClient {
        LSPTestClient(inProcess: { input, output, root in
            var configuration = ServerConfiguration(version: "test", environment: LSPTestClient.sandboxEnvironment(root: root),
                                                    makeCatalog: { .success(ProviderList([FixtureProvider()])) })
            configuration.input = input
            configuration.output = output
            return LanguageServer(configuration: configuration).run()
        })
    }

    private func rewriteItems(_ client: LSPTestClient, count: Int, file: StaticString = #filePath, line: UInt = #line) -> [[String: Any]] {
        let message = client.wait("\(count) review items", file: file, line: line) { message in
            guard message["method"] as? String == "textDocument/publishDiagnostics", let params = message["params"] as? [String: Any],
                  let all = params["diagnostics"] as? [[String: Any]] else { return false }
            return all.filter { $0["code"] as? String == "rewrite" }.count == count
        }
        let all = (message?["params"] as? [String: Any])?["diagnostics"] as? [[String: Any]] ?? []
        return all.filter { $0["code"] as? String == "rewrite" }
    }

    private func quickFixes(_ client: LSPTestClient, at range: [String: Any]) -> [[String: Any]] {
        let reply = client.call("textDocument/codeAction", ["textDocument": ["uri": uri], "range": range,
                                                            "context": ["diagnostics": [Any](), "only": ["quickfix"]]])
        return reply?["result"] as? [[String: Any]] ?? []
    }

    func testEachChangeOfARewriteIsKeptOrUndoneOnItsOwn() throws {
        let client = serverClient()
        client.initialize(resolve: false, options: ["debounceMs": 0])
        client.open(uri, "It is noon. We are here.")
        let actions = client.call("textDocument/codeAction", ["textDocument": ["uri": uri], "range": lspRange(0, 0, 0, 24),
                                                              "context": ["diagnostics": [Any](), "only": ["refactor.rewrite"]]])
        let rewrite = try XCTUnwrap((actions?["result"] as? [[String: Any]])?.first?["command"] as? [String: Any])
        XCTAssertNotNil(client.call("workspace/executeCommand", ["command": rewrite["command"]!, "arguments": rewrite["arguments"]!]))
        let apply = try XCTUnwrap(client.wait("workspace/applyEdit") { $0["method"] as? String == "workspace/applyEdit" })
        client.send(["jsonrpc": "2.0", "id": apply["id"]!, "result": ["applied": true]])
        let edit = try XCTUnwrap(((((apply["params"] as? [String: Any])?["edit"] as? [String: Any])?["changes"] as? [String: Any])?[uri] as? [[String: Any]])?.first)
        client.change(uri, version: 2, [["range": edit["range"]!, "text": edit["newText"]!]])
        // "It's noon. We're here!": three changes, whole words.
        let items = rewriteItems(client, count: 3)
        XCTAssertEqual(items.map { $0["message"] as? String }, ["Rewrite: “It is” → “It's”", "Rewrite: “We are” → “We're”", "Rewrite: “.” → “!”"])
        XCTAssertEqual(items.map { rangeOf($0["range"]) }, [[[0, 0], [0, 4]], [[0, 11], [0, 16]], [[0, 21], [0, 22]]])

        // The quick fixes of "We're".
        let fixes = quickFixes(client, at: lspRange(0, 11, 0, 11))
        XCTAssertEqual(fixes.compactMap { $0["title"] as? String },
                       ["Keep this change", "Undo this change (back to “We are”)", "Keep all changes of the rewrite"])
        let undo = try XCTUnwrap((((fixes[1]["edit"] as? [String: Any])?["changes"] as? [String: Any])?[uri] as? [[String: Any]])?.first)
        XCTAssertEqual(undo["newText"] as? String, "We are")
        client.change(uri, version: 3, [["range": undo["range"]!, "text": undo["newText"]!]])
        XCTAssertEqual(rewriteItems(client, count: 2).map { $0["message"] as? String }, ["Rewrite: “It is” → “It's”", "Rewrite: “.” → “!”"],
                       "undoing one change leaves the others")

        // Keep "It's": its mark goes, the text stays.
        let keep = try XCTUnwrap(quickFixes(client, at: lspRange(0, 1, 0, 1)).first?["command"] as? [String: Any])
        XCTAssertEqual(keep["command"] as? String, "emend.keepChange")
        XCTAssertNotNil(client.call("workspace/executeCommand", ["command": keep["command"]!, "arguments": keep["arguments"]!]))
        XCTAssertEqual(rewriteItems(client, count: 1).first?["message"] as? String, "Rewrite: “.” → “!”")

        // Typing over the last change makes it the writer's.
        client.change(uri, version: 4, [["range": lspRange(0, 22, 0, 23), "text": "?"]])
        XCTAssertEqual(rewriteItems(client, count: 0).count, 0)
        XCTAssertEqual(client.shutdownAndExit(), 0)
    }

    func testKeepAllEndsTheReview() throws {
        let client = serverClient()
        client.initialize(resolve: false, options: ["debounceMs": 0])
        client.open(uri, "It is noon. We are here.")
        let actions = client.call("textDocument/codeAction", ["textDocument": ["uri": uri], "range": lspRange(0, 0, 0, 24),
                                                              "context": ["diagnostics": [Any](), "only": ["refactor.rewrite"]]])
        let rewrite = try XCTUnwrap((actions?["result"] as? [[String: Any]])?.first?["command"] as? [String: Any])
        XCTAssertNotNil(client.call("workspace/executeCommand", ["command": rewrite["command"]!, "arguments": rewrite["arguments"]!]))
        let apply = try XCTUnwrap(client.wait("workspace/applyEdit") { $0["method"] as? String == "workspace/applyEdit" })
        let edit = try XCTUnwrap(((((apply["params"] as? [String: Any])?["edit"] as? [String: Any])?["changes"] as? [String: Any])?[uri] as? [[String: Any]])?.first)
        client.change(uri, version: 2, [["range": edit["range"]!, "text": edit["newText"]!]])
        _ = rewriteItems(client, count: 3)
        let all = try XCTUnwrap(quickFixes(client, at: lspRange(0, 1, 0, 1)).last?["command"] as? [String: Any])
        XCTAssertEqual(all["command"] as? String, "emend.keepAllChanges")
        XCTAssertNotNil(client.call("workspace/executeCommand", ["command": all["command"]!, "arguments": all["arguments"]!]))
        _ = rewriteItems(client, count: 0)
        XCTAssertEqual(client.shutdownAndExit(), 0)
    }
}
