import Foundation
import XCTest
@testable import EmendLSP

/// LaTeX documents (languageId `latex` or `tex`, or a `.tex` name) are checked with their
/// commands, math, comments and non-prose arguments protected, as Markdown's code is.
final class LaTeXDocumentTests: XCTestCase {
    func testLatexLanguageIdsAndNamesAreLaTeX() {
        for id in ["latex", "tex", "LaTeX", "plaintex"] { XCTAssertEqual(DocumentKind.forLanguage(id), .latex, id) }
        XCTAssertEqual(DocumentLanguage.of(languageID: "plaintext", uri: "file:///paper/main.tex").kind, .latex)
        XCTAssertEqual(DocumentLanguage.of(languageID: "latex", uri: "untitled:1").kind, .latex)
    }

    func testOnlyTheProseOfALaTeXDocumentIsFlagged() {
        let client = LSPTestClient()
        client.initialize()
        let text = "% teh comment\nWe see $teh$ and \\teh{} in \\ref{teh}, \\emph{tomorow}.\n\\begin{verbatim}\nteh\n\\end{verbatim}\n"
        client.open("file:///w/paper.tex", text, language: "latex")
        let flagged = client.diagnostics("file:///w/paper.tex", version: 1).compactMap { $0["message"] as? String }
        XCTAssertEqual(flagged.count, 1, "\(flagged)")
        XCTAssertTrue(flagged.first?.contains("tomorow") ?? false, "\(flagged)")
        // The same text as plain text: the comment, the math and the verbatim are prose.
        client.open("file:///w/paper.txt", text, language: "plaintext")
        let plain = client.diagnostics("file:///w/paper.txt", version: 1).compactMap { $0["message"] as? String }
        XCTAssertGreaterThan(plain.count, 2, "\(plain)")
        XCTAssertEqual(client.shutdownAndExit(), 0)
    }
}
