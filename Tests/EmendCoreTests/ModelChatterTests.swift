import XCTest
@testable import EmendCore

/// The model's chatter around its answer ("Here's a revised version:", "This rephrased
/// sentence aims…") never reaches the text; the answer itself, and words the writer wrote,
/// always do.
final class ModelChatterTests: XCTestCase {
    private let source = "The meeting is moved to Friday. Bring the budget numbers."

    func testAnIntroductionAndACommentaryAroundTheAnswerGo() {
        let answer = "Here's a revised version of the text:\n\nThe meeting has moved to Friday; please bring the budget numbers.\n\n"
            + "This rephrased sentence aims to be clearer while keeping the original meaning."
        XCTAssertEqual(ModelChatter.stripped(answer, source: source), "The meeting has moved to Friday; please bring the budget numbers.")
    }

    func testAgreementsLabelsAndInlineIntroductionsGo() {
        XCTAssertEqual(ModelChatter.stripped("Sure!\nThe meeting moved to Friday.", source: source), "The meeting moved to Friday.")
        XCTAssertEqual(ModelChatter.stripped("Revised version:\nThe meeting moved to Friday.", source: source), "The meeting moved to Friday.")
        XCTAssertEqual(ModelChatter.stripped("Certainly! Here is the rewritten text: The meeting moved to Friday.", source: source),
                       "The meeting moved to Friday.")
        XCTAssertEqual(ModelChatter.stripped("\"The meeting moved to Friday.\"", source: source), "The meeting moved to Friday.",
                       "quotation marks around the whole answer")
        XCTAssertEqual(ModelChatter.stripped("The meeting moved to Friday.\n\nI made the tone more direct and kept every fact.", source: source),
                       "The meeting moved to Friday.")
        XCTAssertEqual(ModelChatter.stripped("The meeting moved to Friday.\n(Note: I kept the day as written.)", source: source),
                       "The meeting moved to Friday.")
    }

    func testTheLocalModelsReportOfItsEditsGoes() {
        // SmolLM2-135M's answer to `emend follow-up "make it shorter"`, word for word.
        let answer = "Hey, the server is down again and Ana can't fix it before 3. Don't restart it yourself.\n\n"
            + "I removed unnecessary commas to make the sentence more concise while maintaining its original meaning."
        XCTAssertEqual(ModelChatter.stripped(answer, source: "The server is down again. Ana can't fix it before 3."),
                       "Hey, the server is down again and Ana can't fix it before 3. Don't restart it yourself.")
        XCTAssertEqual(ModelChatter.stripped("Done by Friday.\nI've shortened the second sentence.", source: source), "Done by Friday.")
        XCTAssertEqual(ModelChatter.stripped("Done by Friday.\nI think we can ship.", source: source), "Done by Friday.\nI think we can ship.",
                       "the answer's own sentence in the first person")
        XCTAssertEqual(ModelChatter.stripped("Ship it.\nI need the numbers.", source: source), "Ship it.\nI need the numbers.")
        XCTAssertEqual(ModelChatter.stripped("Hi Sam,\nI hope you are well.\nLet me know if you need anything.", source: "hi sam. call me"),
                       "Hi Sam,\nI hope you are well.\nLet me know if you need anything.")
        XCTAssertEqual(ModelChatter.stripped("Call me, Sam.\n\nLet me know if you'd like any further changes!", source: "hi sam. call me"),
                       "Call me, Sam.")
        XCTAssertEqual(ModelChatter.stripped("Hi Sam,\nI wanted to thank you for your help yesterday.", source: "Thanks for the help yesterday, Sam."),
                       "Hi Sam,\nI wanted to thank you for your help yesterday.", "a letter's own line in the first person")
    }

    func testAnAnswerWithoutChatterStaysByteForByte() {
        for answer in ["The meeting moved to Friday.\n", "- Friday\n- budget numbers", "Note the new day: Friday.", "  Friday it is.  \n\n"] {
            XCTAssertEqual(ModelChatter.stripped(answer, source: source), answer)
        }
    }

    func testTheWritersOwnWordsStayEvenWhenTheyLookLikeChatter() {
        let letter = "Hi Sam,\n\nThe invoice is attached.\n\nLet me know if anything is missing.\nBest, Ana"
        let rewrite = "Hi Sam,\n\nPlease find the invoice attached.\n\nLet me know if anything is missing.\nBest, Ana"
        XCTAssertEqual(ModelChatter.stripped(rewrite, source: letter), rewrite, "the letter itself ends “Let me know…”")
        let list = "Here are the steps:\n1. Open the file.\n2. Save it."
        XCTAssertEqual(ModelChatter.stripped("Here are the steps:\n1. Open the file.\n2. Save it as PDF.", source: list),
                       "Here are the steps:\n1. Open the file.\n2. Save it as PDF.", "the source's own introduction")
        XCTAssertEqual(ModelChatter.stripped("\"Ship it,\" she said, \"today.\"", source: "She said ship it today."),
                       "\"Ship it,\" she said, \"today.\"", "quotation marks inside are the text's")
    }

    func testAnAnswerThatIsAllChatterIsLeftForTheQualityCheck() {
        XCTAssertEqual(ModelChatter.stripped("Here's a revised version:", source: source), "Here's a revised version:")
    }
}
