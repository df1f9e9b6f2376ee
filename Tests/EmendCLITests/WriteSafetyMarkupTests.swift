import Foundation
import XCTest

/// `--write` and `--diff` never damage a document: LaTeX's markup is protected (by the file's
/// name or --latex), and the edits testers saw damage files are refused with the real checkers.
final class WriteSafetyMarkupTests: XCTestCase {
    /// A LaTeX file whose every markup part holds a word the fixture corrects ("teh",
    /// "tomorow"); only the two in prose may change.
    private let latex = """
        \\documentclass{article}
        \\newcommand{\\teh}{x}
        % teh comment
        \\begin{document}
        We recieve $teh + x$ and \\teh{} here, \\emph{tomorow}.
        \\begin{equation}
        teh = 1
        \\end{equation}
        See \\ref{teh} and \\cite{tomorow}.
        \\end{document}

        """

    private var corrected: String {
        latex.replacingOccurrences(of: "We recieve", with: "We receive")
            .replacingOccurrences(of: "\\emph{tomorow}", with: "\\emph{tomorrow}")
    }

    func testATeXFileIsWrittenWithItsMarkupUntouched() {
        let sandbox = CLISandbox()
        sandbox.write("paper.tex", latex)
        let result = sandbox.run(["proofread", "--write", "paper.tex"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(sandbox.read("paper.tex"), corrected)
    }

    func testLatexFlagProtectsAnyFileAndStandardInput() {
        let sandbox = CLISandbox()
        sandbox.write("paper.txt", latex)
        let diff = sandbox.run(["proofread", "--latex", "--diff", "paper.txt"])
        XCTAssertEqual(diff.status, 1, diff.stderr)
        XCTAssertEqual(diff.stdout.split(separator: "\n").filter { $0.hasPrefix("+") && !$0.hasPrefix("+++") },
                       ["+We receive $teh + x$ and \\teh{} here, \\emph{tomorrow}."])
        let piped = sandbox.run(["proofread", "--latex", "--write", "-"], stdin: latex)
        XCTAssertEqual(piped.status, 0, piped.stderr)
        XCTAssertEqual(piped.stdout, corrected)
        // Without --latex the math and the comment are prose to the fixture; a command's name
        // never is (the filter every front end shares).
        let plain = sandbox.run(["proofread", "--diff", "paper.txt"])
        XCTAssertTrue(plain.stdout.contains("+% the comment"), plain.stdout)
        XCTAssertFalse(plain.stdout.contains("\\the"), plain.stdout)
        XCTAssertEqual(sandbox.run(["proofread", "--latex", "--markdown", "paper.txt"]).status, 2)
    }

    /// The damaging edits testers saw, with Hunspell, Harper and LingoTweaker as discovered.
    func testTheRealCheckersDamageNothing() throws {
        let sandbox = try RealCheckers.sandbox()
        let tex = """
            \\documentclass{article}
            \\begin{document}
            We take $\\frac{a}{b}$ and $\\nabla f = u$ here.
            You could of done it.
            \\end{document}

            """
        sandbox.write("paper.tex", tex)
        let written = sandbox.run(["proofread", "--write", "paper.tex"], timeout: 300)
        XCTAssertEqual(written.status, 0, written.stderr)
        XCTAssertEqual(sandbox.read("paper.tex"), tex.replacingOccurrences(of: "could of", with: "could have"))

        // The same markup read as plain text: the filter still refuses edits of markup.
        sandbox.write("paper.txt", tex)
        let plain = sandbox.run(["proofread", "--diff", "paper.txt"], timeout: 300)
        XCTAssertEqual(plain.status, 1, plain.stderr)
        for damage in ["\\franc", "\\nail", "= up"] {
            XCTAssertFalse(plain.stdout.contains(damage), "\(damage) in \(plain.stdout)")
        }

        let readme = """
            It needs libgcc_s and libc, libm at run time, and each plugin is a shared object.
            See the GNU General Public Licenses for details.

            """
        sandbox.write("README.txt", readme)
        let diff = sandbox.run(["proofread", "--diff", "README.txt"], timeout: 300)
        for damage in ["libgcc_sand", "LBC", "limb", "plug in", "the GNU Public"] {
            XCTAssertFalse(diff.stdout.contains(damage), "\(damage) in \(diff.stdout)")
        }
        let readmeWritten = sandbox.run(["proofread", "--write", "README.txt"], timeout: 300)
        // --write exits 0 (or 4 for a partial result): never a usage or run failure.
        XCTAssertTrue(readmeWritten.status == 0 || readmeWritten.status == 4, "\(readmeWritten.status): \(readmeWritten.stderr)")
        XCTAssertEqual(sandbox.read("README.txt"), readme)
    }

    /// Messages are plain text from every checker: no `<suggestion>` markup, no backticks, in
    /// the human report and in --json.
    func testMessagesCarryNoMarkup() throws {
        let sandbox = try RealCheckers.sandbox()
        sandbox.write("notes.txt", """
            You could of done it. Its a nice day, isnt it? This is a example of an error.
            Their going too the party tomorow, and they has brought there own snacks.
            I dont know why we went to Köln. The the cat sat.

            """)
        let json = sandbox.run(["proofread", "--json", "notes.txt"], timeout: 300)
        XCTAssertEqual(json.status, 1, json.stderr)
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let matches = try XCTUnwrap(report["matches"] as? [[String: Any]])
        XCTAssertGreaterThanOrEqual(matches.count, 4, json.stdout)
        var rules: Set<String> = []
        for match in matches {
            let message = try XCTUnwrap(match["message"] as? String)
            XCTAssertFalse(message.contains("<") || message.contains(">") || message.contains("`"), message)
            if let rule = match["rule"] as? [String: Any], let id = rule["id"] as? String { rules.insert(id) }
        }
        XCTAssertTrue(rules.contains("MODAL_OF") || rules.contains("ModalOf"), "\(rules)")
        // Every replacement a message proposes is in the list (LanguageTool's "could've").
        for match in matches {
            let message = match["message"] as? String ?? ""
            let values = (match["replacements"] as? [[String: Any]] ?? []).compactMap { $0["value"] as? String }
            if message.contains("“could've”") { XCTAssertTrue(values.contains("could've"), "\(values)") }
        }
        let human = sandbox.run(["proofread", "notes.txt"], timeout: 300)
        XCTAssertFalse(human.stdout.contains("<suggestion>"), human.stdout)
        XCTAssertTrue(human.stdout.contains("“could have”") || human.stdout.contains("could have"), human.stdout)
    }
}

/// Each damaging edit testers saw, proposed by a real plugin (the process provider replaying
/// it), is refused: not shown, or shown and never applied by --write or --diff.
final class WriteSafetyReplayTests: XCTestCase {
    private static let damaging: [(String, String, String, String, String)] = [
        ("frac", "franc", "spelling", "MORFOLOGIK_RULE_EN_US", "Possible spelling mistake found."),
        ("nabla", "nail", "spelling", "MORFOLOGIK_RULE_EN_US", "Possible spelling mistake found."),
        ("u$", "up", "spelling", "MORFOLOGIK_RULE_EN_US", "Possible spelling mistake found."),
        ("libgcc_s and", "libgcc_sand", "grammar", "JOINED", "Did you mean <suggestion>libgcc_sand</suggestion>?"),
        ("libc", "LBC", "spelling", "MORFOLOGIK_RULE_EN_US", "Possible spelling mistake found."),
        ("libm", "limb", "spelling", "MORFOLOGIK_RULE_EN_US", "Possible spelling mistake found."),
        ("plugin", "plug in", "grammar", "SPLIT", "Use `plug in` as a verb."),
        ("General Public Licenses", "Public", "grammar", "GENERAL_XX", "Consider using only <suggestion>Public</suggestion>."),
        ("tomorow", "tomorrow", "spelling", "HUNSPELL", "Possible spelling mistake found."),
    ]

    private let text = """
        We take $\\frac{a}{b}$ and $\\nabla f = u$ here.
        It needs libgcc_s and libc, libm at run time; each plugin is a shared object.
        See the GNU General Public Licenses for details. Until tomorow.

        """

    func testEveryDamagingEditIsRefusedAndTheRealSlipIsApplied() throws {
        let sandbox = try ReplayChecker.sandbox(Self.damaging)
        sandbox.write("notes.txt", text)
        let written = sandbox.run(["proofread", "--write", "notes.txt"], timeout: 120)
        XCTAssertEqual(written.status, 0, written.stderr)
        XCTAssertEqual(sandbox.read("notes.txt"), text.replacingOccurrences(of: "tomorow", with: "tomorrow"), written.stderr)
        // "plugin" -> "plug in" is shown (a person may want it) but held back from --write.
        XCTAssertTrue(written.stderr.contains("1 suggestion not applied"), written.stderr)

        sandbox.write("notes.txt", text)
        let json = sandbox.run(["proofread", "--json", "notes.txt"], timeout: 120)
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let matches = try XCTUnwrap(report["matches"] as? [[String: Any]])
        let shown = matches.compactMap { ($0["replacements"] as? [[String: Any]])?.first?["value"] as? String }
        XCTAssertEqual(Set(shown), ["plug in", "tomorrow"], json.stdout)
        for match in matches {
            let message = match["message"] as? String ?? ""
            XCTAssertFalse(message.contains("`") || message.contains("<"), message)
        }
        let diff = sandbox.run(["proofread", "--diff", "notes.txt"], timeout: 120)
        XCTAssertFalse(diff.stdout.contains("plug in"), diff.stdout)
        XCTAssertTrue(diff.stdout.contains("+See the GNU General Public Licenses for details. Until tomorrow."), diff.stdout)
    }

    func testInLaTeXTheMarkupIsNeverOffered() throws {
        let sandbox = try ReplayChecker.sandbox(Self.damaging)
        sandbox.write("paper.tex", text)
        let written = sandbox.run(["proofread", "--write", "paper.tex"], timeout: 120)
        XCTAssertEqual(written.status, 0, written.stderr)
        XCTAssertEqual(sandbox.read("paper.tex"), text.replacingOccurrences(of: "tomorow", with: "tomorrow"))
    }

    /// The picky rules that are most of the false alarms on correct sentences are style, off
    /// unless `[proofreading] style = true`; a repeated sentence start counts only in its paragraph.
    func testPickyRulesAreStyleAndOffByDefault() throws {
        let picky: [(String, String, String, String, String)] = [
            ("However we", "However, we", "grammar", "SENT_START_CONJUNCTIVE_LINKING_ADVERB_COMMA", "A comma may be missing."),
            ("left and we", "left, and we", "punctuation", "COMMA_COMPOUND_SENTENCE", "Use a comma before ‘and’."),
            ("Then", "Next", "style", "ENGLISH_WORD_REPEAT_BEGINNING_RULE", "Three successive sentences begin with the same word."),
            ("dont", "don't", "grammar", "EN_CONTRACTION_SPELLING", "Possible spelling mistake found."),
        ]
        let text = "Then we left and we came back.\n\nThen we ate.\n\nThen we slept. However we stayed. I dont know.\n"
        func shown(_ sandbox: CLISandbox) throws -> [String] {
            sandbox.write("notes.txt", text)
            let json = sandbox.run(["proofread", "--json", "notes.txt"], timeout: 120)
            let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], json.stderr)
            return (report["matches"] as? [[String: Any]] ?? []).compactMap { match in
                guard let rule = match["rule"] as? [String: Any], let id = rule["id"] as? String,
                      let category = rule["category"] as? [String: Any], let name = category["id"] as? String else { return nil }
                return "\(id) \(name)"
            }
        }
        XCTAssertEqual(try shown(try ReplayChecker.sandbox(picky)), ["EN_CONTRACTION_SPELLING TYPOS"])
        let styled = try shown(try ReplayChecker.sandbox(picky, config: "\n[proofreading]\nstyle = true"))
        XCTAssertEqual(Set(styled), ["COMMA_COMPOUND_SENTENCE STYLE", "SENT_START_CONJUNCTIVE_LINKING_ADVERB_COMMA STYLE",
                                     "EN_CONTRACTION_SPELLING TYPOS"], "the third \"Then\" starts its own paragraph: \(styled)")
    }
}
