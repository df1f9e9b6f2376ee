import Foundation
import XCTest

final class ProofreadCommandTests: XCTestCase {
    private var sandbox: CLISandbox!

    override func setUp() {
        sandbox = CLISandbox()
    }

    @discardableResult
    private func copyExampleNotes() -> String {
        let text = try! String(contentsOfFile: CLISandbox.repoRoot + "/examples/text/notes.md", encoding: .utf8)
        return sandbox.write("notes.md", text)
    }

    func testExampleNotesReadLikeALinterAndSkipProtectedMarkdown() {
        copyExampleNotes()
        let result = sandbox.run(["proofread", "notes.md"])
        XCTAssertEqual(result.status, 1, result.stderr)
        let out = result.stdout
        XCTAssertTrue(out.contains("notes.md:8:14: spelling: “tomorow” may be misspelled. [SPELLING]"), out)
        XCTAssertTrue(out.contains("notes.md:9:13: grammar: “They” takes “have”. [AGREEMENT]"), out)
        XCTAssertTrue(out.contains("notes.md:23:21: spelling:"), out)
        // The quoted line, the marks under the word and the suggestion.
        XCTAssertTrue(out.contains(" 8 | We will meet tomorow to go over the the draft."), out)
        XCTAssertTrue(out.contains("|              ^^^^^^^ tomorrow"), out)
        XCTAssertTrue(out.contains("^^^^ delete"), out)
        // Code blocks (fenced and indented), inline code, block quotes, links and front
        // matter are protected: their "misspellings" are not reported.
        for protected in ["definately", "seperate", "untill", "wich", "beleive", "recieve", "wierd", "teh-guide", "teh-draft"] {
            XCTAssertFalse(out.contains("“\(protected)”"), "\(protected) is in protected text:\n\(out)")
        }
        XCTAssertEqual(out.lines(containing: ": spelling:").count + out.lines(containing: ": grammar:").count, 8, out)
        XCTAssertFalse(out.contains("\u{1B}["), "no colour when stdout is not a terminal")
        XCTAssertTrue(result.stderr.contains("notes.md: found 8 suggestions (4 grammar, 4 spelling)"), result.stderr)
    }

    /// A long line is quoted the same whether it is ASCII (read a byte a column) or not (read
    /// by Characters): the same window around the word, a tab as four spaces, control
    /// characters as spaces, the same marks. The two lines differ only in a word beyond the
    /// window ("cafe" / "café", as wide).
    func testLongLinesAreQuotedAlikeInASCIIAndBeyond() {
        let before = "\tOne two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
            + "seventeen eighteen nineteen twenty, and\t\u{0B}then we will meet"
        let after = " to go over the draft with everyone who came along to the garden party at the end of the long summer "
            + "afternoon by the river near the old bridge and the mill"
        sandbox.write("ascii.txt", before + " tomorow" + after + " cafe.\n")
        sandbox.write("beyond.txt", before + " tomorow" + after + " café.\n")
        let ascii = sandbox.run(["proofread", "ascii.txt"]), beyond = sandbox.run(["proofread", "beyond.txt"])
        XCTAssertEqual(ascii.status, 1, ascii.stderr)
        XCTAssertEqual(beyond.status, 1, beyond.stderr)
        let quoted = ascii.stdout.split(separator: "\n").dropFirst().prefix(2).joined(separator: "\n")
        XCTAssertTrue(quoted.contains("…"), "the long line is cut: \(ascii.stdout)")
        XCTAssertTrue(quoted.contains("and     then we will meet tomorow to go over"), "a tab as four spaces, a control character as one: \(quoted)")
        XCTAssertTrue(quoted.contains("^^^^^^^ tomorrow"), quoted)
        XCTAssertEqual(quoted, beyond.stdout.split(separator: "\n").dropFirst().prefix(2).joined(separator: "\n"))
    }

    func testNoProtectReportsCodeToo() {
        copyExampleNotes()
        let result = sandbox.run(["proofread", "--no-protect", "notes.md"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stdout.contains("“definately”"), result.stdout)
        XCTAssertTrue(result.stdout.contains("“beleive”"), result.stdout)
    }

    func testPlainTextFilesAreNotReadAsMarkdownUnlessAsked() {
        sandbox.write("note.txt", "Use `teh` here.\n")
        XCTAssertTrue(sandbox.run(["proofread", "note.txt"]).stdout.contains("“teh”"))
        XCTAssertEqual(sandbox.run(["proofread", "--markdown", "note.txt"]).status, 0)
    }

    func testCleanTextAndEmptyFileExitZero() {
        sandbox.write("clean.txt", "Everything here is spelled well.\n")
        let clean = sandbox.run(["proofread", "clean.txt"])
        XCTAssertEqual(clean.status, 0, clean.stderr)
        XCTAssertEqual(clean.stdout, "")
        XCTAssertTrue(clean.stderr.contains("clean.txt: no suggestions"))
        sandbox.write("empty.txt", "")
        let empty = sandbox.run(["proofread", "empty.txt"])
        XCTAssertEqual(empty.status, 0, empty.stderr)
        let json = sandbox.run(["proofread", "--json", "empty.txt"])
        XCTAssertEqual(json.status, 0)
        let object = try! JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
        XCTAssertEqual((object["matches"] as! [Any]).count, 0)
    }

    func testStandardInput() {
        let result = sandbox.run(["proofread", "-"], stdin: "I will recieve it.\n")
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stdout.hasPrefix("<stdin>:1:8: spelling: “recieve” may be misspelled."), result.stdout)
        let fixed = sandbox.run(["proofread", "--write", "-"], stdin: "I will recieve it tomorow.\n")
        XCTAssertEqual(fixed.status, 0, fixed.stderr)
        XCTAssertEqual(fixed.stdout, "I will receive it tomorrow.\n")
    }

    /// LanguageToolʼs match shape, parsed back; offsets counted in UTF-16 on text with emoji
    /// before the problems (each emoji is two units, four bytes).
    func testJSONInLanguageToolShapeWithUTF16Offsets() throws {
        let text = "Hi 😀 there, teh cat.\nWe meet 👋🏽 tomorow, I beleive.\n"
        sandbox.write("emoji.txt", text)
        let result = sandbox.run(["proofread", "--json", "--encoding", "utf16", "emoji.txt"])
        XCTAssertEqual(result.status, 1, result.stderr)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        XCTAssertEqual((object["software"] as? [String: Any])?["name"] as? String, "emend")
        XCTAssertEqual(object["encoding"] as? String, "utf16")
        let matches = try XCTUnwrap(object["matches"] as? [[String: Any]])
        XCTAssertEqual(matches.count, 3)
        let utf16 = Array(text.utf16)
        let expected = [("teh", "the"), ("tomorow", "tomorrow"), ("beleive", "believe")]
        for (match, (word, fix)) in zip(matches, expected) {
            let offset = try XCTUnwrap(match["offset"] as? Int)
            let length = try XCTUnwrap(match["length"] as? Int)
            XCTAssertEqual(String(decoding: utf16[offset..<offset + length], as: UTF16.self), word)
            let replacements = try XCTUnwrap(match["replacements"] as? [[String: Any]])
            XCTAssertEqual(replacements.first?["value"] as? String, fix)
            XCTAssertEqual(match["message"] as? String, "“\(word)” may be misspelled.")
            let rule = try XCTUnwrap(match["rule"] as? [String: Any])
            XCTAssertEqual(rule["id"] as? String, "SPELLING")
            XCTAssertEqual(rule["issueType"] as? String, "misspelling")
            let category = try XCTUnwrap(rule["category"] as? [String: Any])
            XCTAssertEqual(category["id"] as? String, "TYPOS")
            XCTAssertEqual(category["name"] as? String, "Possible Typo")
            let context = try XCTUnwrap(match["context"] as? [String: Any])
            let contextText = Array(try XCTUnwrap(context["text"] as? String).utf16)
            let contextOffset = try XCTUnwrap(context["offset"] as? Int)
            XCTAssertEqual(context["length"] as? Int, length)
            XCTAssertEqual(String(decoding: contextText[contextOffset..<contextOffset + length], as: UTF16.self), word)
        }
        // "tomorow" is after 👋🏽 (two scalars, four UTF-16 units) on line 2.
        XCTAssertEqual(matches[1]["line"] as? Int, 2)
        XCTAssertEqual(matches[1]["column"] as? Int, 14)
        XCTAssertEqual(matches[1]["offset"] as? Int, Array("Hi 😀 there, teh cat.\nWe meet 👋🏽 ".utf16).count)

        // The same matches in code points and in UTF-8 bytes.
        let scalars = Array(text.unicodeScalars)
        let inScalars = sandbox.run(["proofread", "--json", "--encoding", "codepoint", "emoji.txt"])
        let scalarMatches = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(inScalars.stdout.utf8)) as? [String: Any])?["matches"] as? [[String: Any]])
        for (match, (word, _)) in zip(scalarMatches, expected) {
            let offset = match["offset"] as! Int, length = match["length"] as! Int
            XCTAssertEqual(String(String.UnicodeScalarView(scalars[offset..<offset + length])), word)
        }
        let bytes = Array(text.utf8)
        let inBytes = sandbox.run(["proofread", "--json", "emoji.txt"])
        let byteMatches = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(inBytes.stdout.utf8)) as? [String: Any])?["matches"] as? [[String: Any]])
        for (match, (word, _)) in zip(byteMatches, expected) {
            let offset = match["offset"] as! Int, length = match["length"] as! Int
            XCTAssertEqual(String(decoding: bytes[offset..<offset + length], as: UTF8.self), word)
        }
    }

    func testDiffIsAUnifiedDiffThatGitApplies() throws {
        copyExampleNotes()
        let diff = sandbox.run(["proofread", "--diff", "notes.md"])
        XCTAssertEqual(diff.status, 1)
        XCTAssertTrue(diff.stdout.hasPrefix("--- a/notes.md\n+++ b/notes.md\n@@ -5,12 +5,12 @@\n"), diff.stdout)
        XCTAssertTrue(diff.stdout.contains("\n-We will meet tomorow to go over the the draft. Alot of people could of\n-joined, but they has other plans.\n+We will meet tomorrow to go over the draft. A lot of people could have\n+joined, but they have other plans.\n"), diff.stdout)
        XCTAssertTrue(diff.stdout.contains("\n-Thanks, and see you tomorow!\n+Thanks, and see you tomorrow!\n"), diff.stdout)

        // git apply takes it, and gives what --write writes.
        try diff.stdout.write(toFile: sandbox.root + "/fix.diff", atomically: true, encoding: .utf8)
        let git = Process()
        git.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        git.arguments = ["git", "apply", sandbox.root + "/fix.diff"]
        git.currentDirectoryURL = URL(fileURLWithPath: sandbox.root + "/work")
        do { try git.run() } catch { throw XCTSkip("git is not installed") }
        git.waitUntilExit()
        XCTAssertEqual(git.terminationStatus, 0)
        let patched = sandbox.read("notes.md")
        copyExampleNotes()
        XCTAssertEqual(sandbox.run(["proofread", "--write", "notes.md"]).status, 0)
        XCTAssertEqual(sandbox.read("notes.md"), patched)
    }

    func testWriteAppliesEverySuggestionAndKeepsTheFileMode() {
        let file = sandbox.write("letter.txt", "Dear team, we will recieve teh parts tomorow.\nThey has a example ready.\n")
        chmod(file, 0o640)
        let result = sandbox.run(["proofread", "--write", "letter.txt"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(sandbox.read("letter.txt"), "Dear team, we will receive the parts tomorrow.\nThey have an example ready.\n")
        XCTAssertTrue(result.stderr.contains("letter.txt: applied 5 suggestions"), result.stderr)
        var info = stat()
        stat(file, &info)
        XCTAssertEqual(info.st_mode & 0o777, 0o640)
        XCTAssertEqual(sandbox.listing(), ["letter.txt"], "no temporary file is left")
        let again = sandbox.run(["proofread", "letter.txt"])
        XCTAssertEqual(again.status, 0)
    }

    func testSelectionLimitsTheWork() {
        sandbox.write("two.txt", "First teh line.\nSecond teh line.\n")
        // Bytes 16..<33 are the second line.
        let result = sandbox.run(["proofread", "--selection", "16:33", "two.txt"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stdout.lines(containing: "spelling:"), ["two.txt:2:8: spelling: “teh” may be misspelled. [SPELLING]"])
    }

    func testProviderFailureExitsThree() {
        sandbox.write("fail.txt", "This [fixture:fail] text.\n")
        let result = sandbox.run(["proofread", "fail.txt"])
        XCTAssertEqual(result.status, 3, result.stderr)
        XCTAssertTrue(result.stderr.contains("fail.txt: org.emend.fixture: fixture: the text asked for a failure"), result.stderr)
    }

    func testLanguageAndResultOptionsAreAccepted() {
        sandbox.write("l.txt", "I beleive it.\n")
        let result = sandbox.run(["proofread", "--language", "en-GB", "--result-options", "plain,rich,list,table,intents", "--json", "l.txt"])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stdout.contains("\"code\" : \"en-GB\""), result.stdout)
        let bad = sandbox.run(["proofread", "--result-options", "plain,fancy", "l.txt"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("unknown option \"fancy\""), bad.stderr)
    }
}
