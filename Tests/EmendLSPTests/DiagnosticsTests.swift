import Foundation
import XCTest

/// Diagnostics from the real `emend lsp` with the fixture provider (its misspellings:
/// "tomorow", "teh", "wierd", ...; grammar: "could of" → COULD_OF).
final class DiagnosticsTests: XCTestCase {
    let line = "Café 😀 we meet tomorow."

    /// "Café 😀 " is 11 UTF-8 bytes, 8 UTF-16 units, 7 code points; "we meet " 8 more.
    func testAnEmojiLineInEachEncoding() {
        for (name, start) in [("utf-8", 19), ("utf-16", 16), ("utf-32", 15)] {
            let client = LSPTestClient()
            let capabilities = client.initialize(encodings: [name])["capabilities"] as? [String: Any]
            XCTAssertEqual(capabilities?["positionEncoding"] as? String, name)
            client.open("file:///e.txt", "first\n" + line + "\n")
            let diagnostics = client.diagnostics("file:///e.txt", version: 1)
            XCTAssertEqual(diagnostics.map { rangeOf($0["range"]) }, [[[1, start], [1, start + 7]]], name)
            // An edit in the same units: "x" before "tomorow" moves it one unit on.
            client.change("file:///e.txt", version: 2, [["range": lspRange(1, start, 1, start), "text": "x "]])
            let moved = client.diagnostics("file:///e.txt", version: 2)
            XCTAssertEqual(moved.map { rangeOf($0["range"]) }, [[[1, start + 2], [1, start + 9]]], name)
            XCTAssertEqual(client.shutdownAndExit(), 0)
        }
    }

    func testDiagnosticFields() {
        let client = LSPTestClient()
        client.initialize()
        client.open("file:///f.txt", "I could of come tomorow.")
        let diagnostics = client.diagnostics("file:///f.txt", version: 1)
        XCTAssertEqual(diagnostics.count, 2)
        let grammar = diagnostics.first { $0["code"] as? String == "COULD_OF" }
        let spelling = diagnostics.first { $0["code"] as? String == "SPELLING" }
        XCTAssertEqual(grammar?["source"] as? String, "emend")
        XCTAssertEqual(grammar?["severity"] as? Int, 2, "grammar: warning")
        XCTAssertEqual(spelling?["severity"] as? Int, 1, "spelling: error")
        XCTAssertEqual(grammar?["message"] as? String, "Use “could have”, not “could of”.")
        XCTAssertEqual(client.shutdownAndExit(), 0)
    }

    func testIncrementalChangesAppliedInOrder() {
        let client = LSPTestClient()
        client.initialize(options: ["debounceMs": 0])
        let uri = "file:///inc.txt"
        client.open(uri, "Alpha line.\n\nBeta tomorow.\n")
        XCTAssertEqual(client.diagnostics(uri, version: 1).map { rangeOf($0["range"]) }, [[[2, 5], [2, 12]]])
        // Two changes in one notification: the second's range is in the text the first left.
        client.change(uri, version: 2, [["range": lspRange(0, 0, 0, 0), "text": "New teh.\n\n"],
                                        ["range": lspRange(4, 0, 4, 4), "text": "Gamma"]])
        let second = client.diagnostics(uri, version: 2)
        XCTAssertEqual(second.map { rangeOf($0["range"]) }, [[[0, 4], [0, 7]], [[4, 6], [4, 13]]])
        // Deleting the misspelling removes its diagnostic.
        client.change(uri, version: 3, [["range": lspRange(4, 6, 4, 13), "text": "today"]])
        XCTAssertEqual(client.diagnostics(uri, version: 3).count, 1)
        // A change without a range replaces the whole text.
        client.change(uri, version: 4, [["text": "All new, wierd."]])
        XCTAssertEqual(client.diagnostics(uri, version: 4).map { rangeOf($0["range"]) }, [[[0, 9], [0, 14]]])
        // Closing clears them.
        client.notify("textDocument/didClose", ["textDocument": ["uri": uri]])
        let cleared = client.wait("cleared diagnostics") {
            ($0["params"] as? [String: Any])?["uri"] as? String == uri && (($0["params"] as? [String: Any])?["diagnostics"] as? [Any])?.isEmpty == true
        }
        XCTAssertNotNil(cleared)
        XCTAssertEqual(client.shutdownAndExit(), 0)
    }

    func testMarkdownProtectsCodeAndLinksAndSourceFilesCheckOnlyCommentsAndStrings() {
        let client = LSPTestClient()
        client.initialize()
        client.open("file:///m.md", "---\ntitle: teh\n---\n\nUse `teh` and [teh](http://teh.example) tomorow.\n\n```\nteh\n```\n",
                    language: "markdown")
        let markdown = client.diagnostics("file:///m.md", version: 1)
        XCTAssertEqual(markdown.map { rangeOf($0["range"]) }, [[[4, 15], [4, 18]], [[4, 40], [4, 47]]],
                       "the link text is prose; code, front matter and the URL are not")
        client.open("file:///s.swift", "let teh = \"one wierd text\" // see teh note\nlet x = \"teh\"\n", language: "swift")
        let source = client.diagnostics("file:///s.swift", version: 1)
        XCTAssertEqual(source.map { $0["message"] as? String ?? "" }.sorted(),
                       ["“wierd” may be misspelled.", "“teh” may be misspelled."].sorted())
        client.open("file:///d.json", "{\"teh\": \"teh wierd\"}", language: "json")
        XCTAssertEqual(client.diagnostics("file:///d.json", version: 1).count, 0, "languages it does not know are not checked")
        XCTAssertEqual(client.shutdownAndExit(), 0)
    }

    func testSettingsFromInitializationOptionsAndWorkspaceConfiguration() {
        let client = LSPTestClient()
        client.answers["workspace/configuration"] = [["severity": ["grammar": "hint"]]]
        client.initialize(configuration: true, options: ["severity": ["spelling": "information"], "ignoredRules": ["A_AN"]])
        XCTAssertNotNil(client.wait("workspace/configuration request") { $0["method"] as? String == "workspace/configuration" })
        client.open("file:///c.txt", "This is a example, tomorow I could of.")
        // The configuration answer may come before or after the first check: wait for both settings.
        var last: [[String: Any]] = []
        for _ in 0..<3 {
            last = client.diagnostics("file:///c.txt", version: 1)
            if last.contains(where: { $0["code"] as? String == "COULD_OF" && $0["severity"] as? Int == 4 }) { break }
        }
        XCTAssertEqual(Set(last.compactMap { $0["code"] as? String }), ["SPELLING", "COULD_OF"], "A_AN is ignored")
        XCTAssertEqual(last.first { $0["code"] as? String == "SPELLING" }?["severity"] as? Int, 3)
        XCTAssertEqual(last.first { $0["code"] as? String == "COULD_OF" }?["severity"] as? Int, 4)
        XCTAssertEqual(client.shutdownAndExit(), 0)
    }

    func testAProviderFailureIsAMessageNotADeadServer() {
        let client = LSPTestClient()
        client.initialize()
        client.open("file:///fail.txt", "This [fixture:fail] paragraph.\n\nThis tomorow one.\n")
        let message = client.wait("window/showMessage") { $0["method"] as? String == "window/showMessage" }
        let params = message?["params"] as? [String: Any]
        XCTAssertEqual(params?["type"] as? Int, 1)
        XCTAssertTrue((params?["message"] as? String ?? "").contains("fixture"), "\(String(describing: params))")
        client.open("file:///ok.txt", "Then tomorow.")
        XCTAssertEqual(client.diagnostics("file:///ok.txt", version: 1).count, 1)
        XCTAssertEqual(client.shutdownAndExit(), 0)
    }
}

/// A long check (many batches) is reported with $/progress when the client supports it.
final class CheckProgressTests: XCTestCase {
    func testOpeningALargeDocumentReportsProgressThatEndsAfterTheLastPublish() {
        let client = LSPTestClient()
        client.initialize(progress: true)
        // About 150 KB of distinct paragraphs: several batches of 48 KB.
        let paragraphs = (0..<1500).map { "Paragraph \($0) says we meet tomorow at \($0 % 24) o'clock, as planned before." }
        client.open("file:///large.txt", paragraphs.joined(separator: "\n\n"))
        let create = client.wait("progress create") { $0["method"] as? String == "window/workDoneProgress/create" }
        let token = (create?["params"] as? [String: Any])?["token"] as? String
        var kinds: [String] = []
        var percentages: [Int] = []
        while kinds.last != "end" {
            guard let progress = client.wait("$/progress", { $0["method"] as? String == "$/progress" }) else { break }
            let params = progress["params"] as? [String: Any]
            XCTAssertEqual(params?["token"] as? String, token)
            let value = params?["value"] as? [String: Any]
            kinds.append(value?["kind"] as? String ?? "?")
            if let percentage = value?["percentage"] as? Int { percentages.append(percentage) }
        }
        XCTAssertEqual(kinds.first, "begin")
        XCTAssertGreaterThan(kinds.filter { $0 == "report" }.count, 0)
        XCTAssertEqual(percentages, percentages.sorted(), "percentages only grow")
        // Every paragraph's misspelling is in the last publish, which came before the end.
        let publishes = client.pending.filter { $0["method"] as? String == "textDocument/publishDiagnostics" }
        let last = (publishes.last?["params"] as? [String: Any])?["diagnostics"] as? [[String: Any]] ?? []
        XCTAssertEqual(last.count, 1500)
        XCTAssertEqual(client.shutdownAndExit(), 0)
    }
}
