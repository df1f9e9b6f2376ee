import XCTest
@testable import EmendMarkdown

/// LaTeX's markup is protected, its prose is not.
final class LaTeXProtectionTests: XCTestCase {
    /// The parts of `text` left to the tools, joined by "|".
    private func prose(_ text: String) -> String {
        let bytes = Array(text.utf8)
        var parts: [String] = []
        var at = 0
        for range in LaTeXProtection.protectedRanges(in: bytes) + [bytes.count..<bytes.count] {
            let piece = String(decoding: bytes[at..<range.lowerBound], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if !piece.isEmpty { parts.append(piece) }
            at = range.upperBound
        }
        return parts.joined(separator: "|")
    }

    func testCommandsMathAndCommentsAreProtected() {
        XCTAssertEqual(prose("Let $x = u$ be \\emph{small} and \\nabla f zero. % a note\nNext line."),
                       "Let|be|small|and|f zero.|Next line.")
        XCTAssertEqual(prose("Take \\frac{a}{b} here."), "Take|a|b|here.")
        XCTAssertEqual(prose("A $$x^2$$ and \\(y\\) and \\[z\\] end."), "A|and|and|end.")
        XCTAssertEqual(prose("Costs 5\\% more."), "Costs 5|more.")
    }

    func testNonProseArgumentsAndEnvironments() {
        XCTAssertEqual(prose("See Section~\\ref{sec:intro} and \\cite[p.~3]{knuth84}."), "See Section|and|.")
        XCTAssertEqual(prose("\\section{The Intro}\\label{sec:intro}"), "The Intro")
        XCTAssertEqual(prose("Text.\n\\begin{equation}\n  E = mc^2\n\\end{equation}\nMore text."), "Text.|More text.")
        XCTAssertEqual(prose("A\n\\begin{verbatim}\nteh code\n\\end{verbatim}\nB"), "A|B")
        XCTAssertEqual(prose("\\begin{itemize}\n\\item One thing.\n\\end{itemize}"), "One thing.")
        XCTAssertEqual(prose("\\begin{tabular}{lcr}\nCell one & Cell two \\\\\n\\end{tabular}"), "Cell one|Cell two")
        XCTAssertEqual(prose("Use \\verb|teh x| and \\href{http://x.org}{the site}."), "Use|and|the site|.")
        XCTAssertEqual(prose("\\usepackage[utf8]{inputenc}\n\\includegraphics[width=2cm]{fig.png}"), "")
    }

    /// No bound splits a character: a control symbol or a `\verb` delimiter that is not
    /// ASCII is taken whole.
    func testNoRangeSplitsACharacter() {
        for text in ["Voil\\é done.", "Use \\verbéteh xé here.", "Use \\verb😀a b😀 and \\😀 end.", "Odd \\verbé never closed"] {
            let bytes = Array(text.utf8)
            for range in LaTeXProtection.protectedRanges(in: bytes) {
                for bound in [range.lowerBound, range.upperBound] where bound < bytes.count {
                    XCTAssertNotEqual(bytes[bound] & 0xC0, 0x80, "a bound inside a character in \(text): \(range)")
                }
            }
        }
        XCTAssertEqual(prose("Use \\verbéteh xé here."), "Use|here.")
    }

    func testWhatDoesNotCloseIsProtectedToTheEnd() {
        XCTAssertEqual(prose("Good text $x + y and more"), "Good text")
        XCTAssertEqual(prose("Good \\begin{equation} x"), "Good")
        XCTAssertEqual(prose("Good \\label{x and more"), "Good")
        XCTAssertEqual(LaTeXProtection.protectedRanges(in: []), [])
        XCTAssertEqual(prose("trailing \\"), "trailing")
    }

    func testFileNames() {
        XCTAssertTrue(LaTeXProtection.isLaTeXFileName("paper/main.tex"))
        XCTAssertTrue(LaTeXProtection.isLaTeXFileName("x.STY"))
        XCTAssertTrue(LaTeXProtection.isLaTeXFileName("a.cls"))
        XCTAssertTrue(LaTeXProtection.isLaTeXFileName("a.ltx"))
        XCTAssertFalse(LaTeXProtection.isLaTeXFileName("a.tex/readme"))
        XCTAssertFalse(LaTeXProtection.isLaTeXFileName("notes.md"))
    }
}
