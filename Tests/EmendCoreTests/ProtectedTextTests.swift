import XCTest
import EmendCore
import EmendText

/// Protected ranges (code, quotes) and U+FFFC attachments are never changed by a tool.
final class ProtectedTextTests: XCTestCase {
    func testRewriteLeavesProtectedRangesAndAttachmentsAlone() throws {
        let original = "I do not think \u{FFFC} it is ready. Type `do not it is` here. We are done."
        let engine = TestEngine(original)
        let code = try XCTUnwrap(byteRange(of: "`do not it is`", in: original))
        engine.protectedRanges = [code]
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.rewriteFriendly)
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, "I don't think \u{FFFC} it's ready. Type `do not it is` here. We're done!")
        for replace in engine.replaces {
            XCTAssertFalse(replace.text.unicodeScalars.contains("\u{FFFC}"))
        }
        // Every replace was applied outside the protected text and the attachment.
        let context = try coordinator.contextText(coordinator.contextIDs[0])
        XCTAssertEqual(context.protectedRanges.map { context.substring($0) }, ["`do not it is`"])
        XCTAssertEqual(context.attachmentRanges.count, 1)
        try coordinator.revert()
        try engine.run(coordinator)
        XCTAssertEqual(engine.text, original)
    }

    func testProofreadingSuggestsNothingInsideProtectedText() throws {
        let original = "Run `teh --recieve` now, teh \u{FFFC} tomorow."
        let engine = TestEngine(original)
        engine.protectedRanges = [try XCTUnwrap(byteRange(of: "`teh --recieve`", in: original))]
        let coordinator = try makeCoordinator(engine)
        try coordinator.start(.proofread)
        try engine.run(coordinator)
        XCTAssertEqual(coordinator.suggestions.map(\.original), ["teh", "tomorow"])
        XCTAssertEqual(engine.text, "Run `teh --recieve` now, the \u{FFFC} tomorrow.")
    }

    func testEveryToolKeepsAnAttachmentInTheMiddleOfAWord() throws {
        let original = "We don't \u{FFFC}really know."
        for tool in [WritingTool.rewriteFriendly, .rewriteProfessional, .rewriteConcise] {
            let engine = TestEngine(original)
            let coordinator = try makeCoordinator(engine)
            try coordinator.start(tool)
            try engine.run(coordinator)
            XCTAssertEqual(engine.text.unicodeScalars.filter { $0 == "\u{FFFC}" }.count, 1, "\(tool): \(engine.text)")
            try coordinator.revert()
            try engine.run(coordinator)
            XCTAssertEqual(engine.text, original)
        }
    }
}
