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

/// List, table and summary keep protected text and attachments exactly once (issue 25: the
/// protected text came back a second time beside an attachment).
final class ProtectedTextOnceTests: XCTestCase {
    private func count(_ needle: String, in text: String) -> Int {
        var count = 0, rest = Substring(text)
        while let found = rest.range(of: needle) { count += 1; rest = rest[found.upperBound...] }
        return count
    }

    func testListTableAndSummaryKeepProtectedTextAndAttachmentsOnce() throws {
        let texts = ["A `x` b. C \u{FFFC} d.", "A \u{FFFC} b. C `x` d.", "A `x` \u{FFFC} b. C d.", "`x` A. \u{FFFC} B.",
                     "A \u{FFFC}`x` b. C d.", "A `x` b. C `y` \u{FFFC} d."]
        for text in texts {
            for tool in [WritingTool.list, .table, .summary, .keyPoints] {
                for plain in [true, false] {
                    let engine = TestEngine(text, selection: 0..<text.utf8.count)
                    engine.protectedRanges = ["`x`", "`y`"].compactMap { byteRange(of: $0, in: text) }
                    var opts = options()
                    opts.preferredResultOptions = plain ? [.plainText] : [.list, .table]
                    let coordinator = try makeCoordinator(engine, options: opts)
                    try coordinator.start(tool)
                    try engine.run(coordinator)
                    let shown = engine.presented.last?.text ?? engine.text
                    let label = "\(tool) \(plain ? "plain" : "rich") of “\(text)” gave “\(shown)”"
                    for code in ["`x`", "`y`"] where text.contains(code) {
                        XCTAssertLessThanOrEqual(count(code, in: shown), 1, label)
                        if tool != .summary { XCTAssertEqual(count(code, in: shown), 1, label) }
                    }
                    XCTAssertLessThanOrEqual(count("\u{FFFC}", in: shown), 1, label)
                    if tool != .summary { XCTAssertEqual(count("\u{FFFC}", in: shown), 1, label) }
                }
            }
        }
    }
}
