import Foundation
import XCTest
import EmendCore
@testable import EmendLSP

/// Hover over a finding, `codeDescription` links and one quick fix per replacement, with a
/// provider that writes its other suggestions and the rule's page into the explanation (as
/// the Hunspell provider writes its other suggestions).
final class HoverTests: XCTestCase {
    static let explanation = "“wierd” is not in the en_US dictionary. Other suggestions: “wired”, “weir”. See https://example.org/rules/HUNSPELL."

    struct SpellerWithAlternatives: WritingProvider {
        var id: String { "org.emend.test.speller" }
        var tools: Set<WritingTool> { [.proofread] }
        func run(_ request: ProviderRequest, sink: ProviderSink) -> ProviderOutcome {
            let bytes = Array(request.text.utf8), word = Array("wierd".utf8)
            for start in 0...(max(bytes.count - word.count, 0)) where Array(bytes[start..<min(start + word.count, bytes.count)]) == word {
                sink.emitEdit(ProviderEdit(range: start..<(start + word.count), replacement: "weird", explanation: HoverTests.explanation,
                                           category: "spelling", ruleID: "HUNSPELL"))
            }
            return .finished
        }
    }

    let uri = "file:///hover.txt"

    func serverClient() -> LSPTestClient {
        LSPTestClient(inProcess: { input, output, root in
            var configuration = ServerConfiguration(version: "test", environment: LSPTestClient.sandboxEnvironment(root: root),
                                                    makeCatalog: { .success(ProviderList([SpellerWithAlternatives()])) })
            configuration.input = input
            configuration.output = output
            return LanguageServer(configuration: configuration).run()
        })
    }

    func testTheExplanationsSuggestionsAndLinkAreReadOut() {
        XCTAssertEqual(ExplanationDetails.alternatives(in: Self.explanation), ["wired", "weir"])
        XCTAssertEqual(ExplanationDetails.link(in: Self.explanation), "https://example.org/rules/HUNSPELL")
        XCTAssertEqual(ExplanationDetails.link(in: "See (https://en.wikipedia.org/wiki/Comma_(punctuation))."),
                       "https://en.wikipedia.org/wiki/Comma_(punctuation)")
        XCTAssertEqual(ExplanationDetails.alternatives(in: "Use “an” before a vowel sound."), [], "quotes without the marker")
        XCTAssertNil(ExplanationDetails.link(in: "No link here: https:// alone."))
    }

    func testHoverLinkAndAQuickFixForEachReplacement() throws {
        let client = serverClient()
        let capabilities = client.initialize(options: ["debounceMs": 0])["capabilities"] as? [String: Any]
        XCTAssertEqual(capabilities?["hoverProvider"] as? Bool, true)
        client.open(uri, "A 😀 wierd day.\n")
        let diagnostics = client.diagnostics(uri, version: 1)
        XCTAssertEqual(diagnostics.count, 1)
        XCTAssertEqual((diagnostics.first?["codeDescription"] as? [String: Any])?["href"] as? String, "https://example.org/rules/HUNSPELL")

        let reply = client.call("textDocument/codeAction", ["textDocument": ["uri": uri], "range": lspRange(0, 7, 0, 7),
                                                            "context": ["diagnostics": [Any](), "only": ["quickfix"]]])
        let fixes = (reply?["result"] as? [[String: Any]] ?? []).filter { $0["edit"] != nil }
        XCTAssertEqual(fixes.map { $0["title"] as? String ?? "" }, ["Replace with “weird”", "Replace with “wired”", "Replace with “weir”"])
        XCTAssertEqual(fixes.map { $0["isPreferred"] as? Bool ?? false }, [true, false, false])
        let third = ((fixes.last?["edit"] as? [String: Any])?["changes"] as? [String: Any])?[uri] as? [[String: Any]]
        XCTAssertEqual(third?.first?["newText"] as? String, "weir")
        XCTAssertEqual(rangeOf(third?.first?["range"]), [[0, 5], [0, 10]], "after the emoji's two UTF-16 units")

        let hover = try XCTUnwrap(client.call("textDocument/hover", ["textDocument": ["uri": uri], "position": ["line": 0, "character": 7]])?["result"]
                                  as? [String: Any])
        let contents = try XCTUnwrap(hover["contents"] as? [String: Any])
        XCTAssertEqual(contents["kind"] as? String, "markdown")
        let value = contents["value"] as? String ?? ""
        XCTAssertTrue(value.contains("**Emend: spelling (`HUNSPELL`)**"), value)
        XCTAssertTrue(value.contains("Replacements: “weird”, “wired”, “weir”"), value)
        XCTAssertTrue(value.contains("[About this rule](https://example.org/rules/HUNSPELL)"), value)
        XCTAssertEqual(rangeOf(hover["range"]), [[0, 5], [0, 10]])
        XCTAssertTrue(client.call("textDocument/hover", ["textDocument": ["uri": uri], "position": ["line": 0, "character": 1]])?["result"] is NSNull,
                      "no finding, no hover")
        XCTAssertEqual((client.call("textDocument/hover", ["textDocument": ["uri": uri], "position": ["line": 9, "character": 0]])?["error"]
                        as? [String: Any])?["code"] as? Int, -32602, "a position outside the text")
        XCTAssertEqual(client.shutdownAndExit(), 0)
    }

    func testPlainTextHoverForClientsWithoutMarkdown() {
        let finding = UnitFinding(range: 0..<5, original: "wierd", replacement: "weird", explanation: Self.explanation,
                                  category: "spelling", ruleID: "HUNSPELL")
        XCTAssertEqual(LanguageServer.hoverText(finding, markdown: false),
                       "Emend: spelling (HUNSPELL)\n\(Self.explanation)\nReplacements: “weird”, “wired”, “weir”\nAbout this rule: https://example.org/rules/HUNSPELL")
    }
}
