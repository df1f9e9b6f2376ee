import XCTest
@testable import EmendCore
import EmendText

/// Protected text (a link, a code block) the provider left out comes back where it belongs
/// or after the result as its own paragraph, never glued into the middle of a sentence.
final class MissingProtectedTextTests: XCTestCase {
    /// `original` with `pieces` protected and read as placeholders ⟦1⟧, ⟦2⟧ …; `answer` is the
    /// provider's text; the result as the engine gets it (plain).
    private func restored(_ original: String, pieces: [String], answer: String) -> String {
        var placeholders: [String: PlaceholderText] = [:]
        for (index, piece) in pieces.enumerated() {
            let offset = original.utf8.count - original.split(separator: piece, maxSplits: 1, omittingEmptySubsequences: false)[1].utf8.count - piece.utf8.count
            placeholders["⟦\(index + 1)⟧"] = PlaceholderText(text: AttributedText(piece), regionOffset: offset)
        }
        return AttributeTransfer.apply(original: AttributedText(original), result: AttributedText(answer), placeholders: placeholders,
                                       styled: false).string
    }

    static let note = "The deploy script moved. See https://example.com/deploy for the details, and run it like this:\n\n```\n./deploy.sh --prod\n```\n\nAsk Dana before Friday if anything breaks."
    static let pieces = ["https://example.com/deploy", "```\n./deploy.sh --prod\n```"]

    func testASummaryThatDropsALinkAndACodeBlockGetsThemAfterItAsParagraphs() {
        let result = restored(Self.note, pieces: Self.pieces, answer: "The deploy script moved; ask Dana before Friday if anything breaks.")
        XCTAssertEqual(result, "The deploy script moved; ask Dana before Friday if anything breaks.\n\nhttps://example.com/deploy\n\n```\n./deploy.sh --prod\n```")
    }

    func testALinkWhoseWordsSurviveGoesBackBetweenThemAsAWord() {
        let result = restored(Self.note, pieces: Self.pieces,
                              answer: "The deploy script moved. See for the details, and run it like this:\n\n⟦2⟧\n\nAsk Dana before Friday.")
        XCTAssertEqual(result, "The deploy script moved. See https://example.com/deploy for the details, and run it like this:\n\n```\n./deploy.sh --prod\n```\n\nAsk Dana before Friday.")
    }

    func testALinkTheProviderWroteOutIsNotAddedTwice() {
        let result = restored(Self.note, pieces: Self.pieces, answer: "Details at https://example.com/deploy.\n\n⟦2⟧")
        XCTAssertEqual(result, "Details at https://example.com/deploy.\n\n```\n./deploy.sh --prod\n```")
    }

    func testTheTextsOwnParagraphBreakIsUsed() {
        let original = "Call Ana at 5. Notes: https://example.com/n"
        let result = AttributeTransfer.apply(original: AttributedText(original), result: AttributedText("Call Ana at 5."),
                                             placeholders: ["⟦1⟧": PlaceholderText(text: AttributedText("https://example.com/n"), regionOffset: 22)],
                                             styled: false, paragraphSeparator: "\n").string
        XCTAssertEqual(result, "Call Ana at 5.\nhttps://example.com/n")
    }

    func testACodeBlockTheProviderWroteIntoASentenceBecomesAParagraphAgain() {
        // What the small local model did with the note: the code block's token where the
        // link's was, the link's left out. The link's words survive around the place: it goes
        // back there; the block goes after the result.
        let result = restored(Self.note, pieces: Self.pieces,
                              answer: "The deploy script moved. See ⟦2⟧ for the details.\n\nAsk Dana before Friday.")
        XCTAssertEqual(result, "The deploy script moved. See https://example.com/deploy for the details.\n\nAsk Dana before Friday.\n\n```\n./deploy.sh --prod\n```")
        // A link alone on its line in the original may go into a sentence: it is no block.
        let original = "Notes:\nhttps://example.com/n\nCall Ana."
        let inline = AttributeTransfer.apply(original: AttributedText(original), result: AttributedText("Notes are at ⟦1⟧. Call Ana."),
                                             placeholders: ["⟦1⟧": PlaceholderText(text: AttributedText("https://example.com/n"), regionOffset: 7)],
                                             styled: false).string
        XCTAssertEqual(inline, "Notes are at https://example.com/n. Call Ana.")
    }
}

