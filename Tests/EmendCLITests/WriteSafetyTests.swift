import Foundation
import Glibc
import XCTest

/// --write never leaves a half-written file: a run killed while the provider works leaves
/// the file byte for byte as it was, and no temporary file behind.
final class WriteSafetyTests: XCTestCase {
    private var sandbox: CLISandbox!

    override func setUp() {
        sandbox = CLISandbox()
    }

    /// Text with errors the fixture would fix, and its marker that makes it work until cancelled.
    private let hanging = "We will recieve teh parts tomorow. [fixture:hang]\nÜbermorgen 😀 too.\n"

    private func killMidRun(_ arguments: [String], signal: Int32) -> Int32 {
        let original = sandbox.write("draft.txt", hanging)
        let before = sandbox.bytes("draft.txt")
        let running = sandbox.launch(arguments + [original])
        // The provider is working (it waits for a cancel that never comes).
        usleep(700_000)
        XCTAssertTrue(running.process.isRunning, "emend should still be waiting for the provider")
        kill(running.process.processIdentifier, signal)
        running.process.waitUntilExit()
        XCTAssertEqual(sandbox.bytes("draft.txt"), before, "the file is byte-identical")
        XCTAssertEqual(sandbox.listing(), ["draft.txt"], "no temporary file is left")
        return running.process.terminationStatus
    }

    func testSIGKILLDuringProofreadWrite() {
        _ = killMidRun(["proofread", "--write"], signal: SIGKILL)
    }

    func testSIGTERMDuringProofreadWriteStopsCleanly() {
        let running = sandbox.launch(["proofread", "--write", sandbox.write("draft.txt", hanging)])
        usleep(700_000)
        kill(running.process.processIdentifier, SIGTERM)
        running.process.waitUntilExit()
        let result = running.result()
        XCTAssertEqual(result.status, 128 + SIGTERM)
        XCTAssertTrue(result.stderr.contains("terminated; "), result.stderr)
        XCTAssertTrue(result.stderr.contains("draft.txt was not changed"), result.stderr)
        XCTAssertEqual(sandbox.read("draft.txt"), hanging)
        XCTAssertEqual(sandbox.listing(), ["draft.txt"])
    }

    func testSIGKILLAndSIGINTDuringRewriteWrite() {
        _ = killMidRun(["rewrite", "--tone", "friendly", "--write"], signal: SIGKILL)
        XCTAssertEqual(killMidRun(["rewrite", "--tone", "concise", "--write"], signal: SIGINT), 128 + SIGINT)
        XCTAssertEqual(killMidRun(["summarize", "--write"], signal: SIGTERM), 128 + SIGTERM)
    }

    func testWriteThroughASymlinkKeepsTheLink() throws {
        sandbox.write("real.txt", "Teh end.\n")
        try FileManager.default.createSymbolicLink(atPath: sandbox.path("link.txt"), withDestinationPath: "real.txt")
        XCTAssertEqual(sandbox.run(["proofread", "--write", "link.txt"]).status, 0)
        XCTAssertEqual(sandbox.read("real.txt"), "The end.\n")
        let destination = try FileManager.default.destinationOfSymbolicLink(atPath: sandbox.path("link.txt"))
        XCTAssertEqual(destination, "real.txt")
    }
}
