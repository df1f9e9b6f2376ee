import Foundation
import XCTest
@testable import EmendLSP

/// Which documents are checked as what: every Markdown flavour is Markdown, an unknown
/// languageId is plain text (and the log says so), and each document's own languageId and
/// file name decide, whatever the client sent for the one before.
final class DocumentLanguageTests: XCTestCase {
    func testEveryMarkdownFlavourIsMarkdown() {
        for id in ["markdown", "gfm", "GFM", "rmd", "rmarkdown", "mdx", "quarto", "pandoc", "markdown.mdx", "markdown_github", "vimwiki"] {
            XCTAssertEqual(DocumentKind.forLanguage(id), .markdown, id)
            XCTAssertEqual(DocumentLanguage.of(languageID: id, uri: "untitled:Untitled-1"), DocumentLanguage(kind: .markdown, note: nil), id)
        }
    }

    func testAnUnknownLanguageIsPlainTextWithANoteAndDataIsNotChecked() {
        let unknown = DocumentLanguage.of(languageID: "klingon-script", uri: "file:///tmp/a.kli")
        XCTAssertEqual(unknown.kind, .plainText)
        XCTAssertTrue(unknown.note?.contains("\"klingon-script\"") ?? false, "\(String(describing: unknown.note))")
        let json = DocumentLanguage.of(languageID: "json", uri: "file:///tmp/package.json")
        XCTAssertEqual(json.kind, .unchecked)
        XCTAssertNotNil(json.note, "not silently skipped")
        XCTAssertEqual(DocumentLanguage.of(languageID: "python", uri: "file:///a/b.py").note, nil)
    }

    func testAClearFileNameOverrulesALanguageIdOfAnotherKind() {
        let python = DocumentLanguage.of(languageID: "markdown", uri: "file:///src/tool.py")
        XCTAssertEqual(python.kind, .forLanguage("python"))
        XCTAssertTrue(python.note?.contains("tool.py") ?? false)
        XCTAssertEqual(DocumentLanguage.of(languageID: "python", uri: "file:///notes/README.md?x=1").kind, .markdown)
        XCTAssertEqual(DocumentLanguage.of(languageID: "markdown", uri: "file:///notes/todo.txt").kind, .markdown, "a weak name: the languageId")
        XCTAssertEqual(DocumentLanguage.of(languageID: "typescriptreact", uri: "file:///a/App.tsx"),
                       DocumentLanguage(kind: .forLanguage("typescriptreact"), note: nil), "the same kind: no note")
    }

    /// Every LaTeX extension is LaTeX (one case of the extension table holds them all).
    func testLaTeXExtensionsAreLaTeX() {
        for ext in ["tex", "ltx", "sty", "cls", "TEX"] {
            XCTAssertEqual(DocumentLanguage.languageID(forExtension: DocumentLanguage.fileExtension(of: "a." + ext) ?? ""), "latex", ext)
        }
        XCTAssertEqual(DocumentLanguage.of(languageID: "markdown", uri: "file:///paper/main.tex").kind, .forLanguage("latex"))
    }

    func testEachDocumentIsCheckedByItsOwnLanguage() {
        let client = LSPTestClient()
        client.initialize()
        func flagged(_ uri: String, _ text: String, _ language: String) -> [String] {
            client.open(uri, text, language: language)
            return client.diagnostics(uri, version: 1).compactMap { $0["message"] as? String }.map { $0.contains("teh") ? "teh" : "tomorow" }
        }
        // The second as eglot sends it with one server entry for markdown-mode and python-mode.
        XCTAssertEqual(flagged("file:///w/notes.md", "See `teh` tomorow.\n", "markdown"), ["tomorow"], "inline code is not checked")
        XCTAssertEqual(flagged("file:///w/tool.py", "def teh():\n    return 1  # see you tomorow\n", "markdown"), ["tomorow"],
                       "only the comment of the Python file")
        XCTAssertEqual(flagged("file:///w/notes", "Read `teh` tomorow.\n", "gfm"), ["tomorow"], "gfm is Markdown")
        XCTAssertEqual(flagged("file:///w/x.kli", "Read `teh` tomorow.\n", "klingon-script"), ["teh", "tomorow"],
                       "an unknown language: all of it, as plain text")
        let logs = [client.wait("a log line for tool.py") { ($0["method"] as? String) == "window/logMessage" && "\($0)".contains("tool.py") },
                    client.wait("a log line for x.kli") { ($0["method"] as? String) == "window/logMessage" && "\($0)".contains("klingon-script") }]
        XCTAssertEqual(logs.compactMap { $0 }.count, 2)
        XCTAssertEqual(client.shutdownAndExit(), 0)
    }
}
