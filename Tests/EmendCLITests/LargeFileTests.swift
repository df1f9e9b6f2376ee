import Foundation
import XCTest
import EmendTestSupport

/// A 10 MB file is proofread in one session (thousands of suggestions stay quick), and a
/// terminal sees progress while the provider works.
final class LargeFileTests: XCTestCase {
    private var sandbox: CLISandbox!

    override func setUp() {
        sandbox = CLISandbox()
    }

    private func writeLargeFile(_ name: String, megabytes: Int) -> Int {
        let clean = String(repeating: "This paragraph is clean and has nothing wrong with it, so the checker says nothing. ", count: 12) + "\n\n"
        let faulty = "We will meet tomorow to go over teh draft.\n\n```\ncode with teh typo stays\n```\n\n"
        var text = ""
        var errors = 0
        var index = 0
        while text.utf8.count < megabytes * 1024 * 1024 {
            if index % 25 == 0 { text += faulty; errors += 2 } else { text += clean }
            index += 1
        }
        sandbox.write(name, text)
        return errors
    }

    func testTenMegabytes() throws {
        let errors = writeLargeFile("big.md", megabytes: 10)
        let started = Date()
        let result = sandbox.run(["proofread", "--json", "big.md"], timeout: 600)
        XCTAssertEqual(result.status, 1, result.stderr)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let matches = try XCTUnwrap(object["matches"] as? [[String: Any]])
        XCTAssertEqual(matches.count, errors)
        // Offsets are in the whole file.
        let bytes = sandbox.bytes("big.md")
        for match in matches {
            let offset = match["offset"] as! Int, length = match["length"] as! Int
            let word = String(decoding: bytes[offset..<offset + length], as: UTF8.self)
            XCTAssertTrue(word == "tomorow" || word == "teh", "\(offset): \(word)")
        }
        print("10 MB: proofread in \(Int(Date().timeIntervalSince(started))) s")
    }

    func testProgressOnATerminalAndWrite() throws {
        let errors = writeLargeFile("mid.md", megabytes: 3)
        let run = try PseudoTerminalRun(sandbox, ["proofread", "--write", "mid.md"])
        run.waitFor("proofreading mid.md", timeout: 120)
        XCTAssertEqual(run.finish(timeout: 300), 0)
        XCTAssertTrue(run.screen.range(of: #"proofreading mid\.md \d+\.\ds"#, options: .regularExpression) != nil, "a spinner with the elapsed time")
        let text = sandbox.read("mid.md")
        XCTAssertFalse(text.contains("tomorow"))
        XCTAssertEqual(text.components(separatedBy: "code with teh typo stays").count - 1, errors / 2, "code blocks stay")
        XCTAssertEqual(sandbox.listing(), ["mid.md"])
    }
}
