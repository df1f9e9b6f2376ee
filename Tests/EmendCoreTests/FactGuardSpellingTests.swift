import XCTest
@testable import EmendCore
import EmendText

/// A rewrite that corrects a misspelling adds no fact: "tomorow" → "tomorrow" is the text's
/// own date, "Micheal" → "Michael" its own person, "José" its "Jose". A number, a name or a
/// date that is really new (or another one in place of the text's) is still caught.
final class FactGuardSpellingTests: XCTestCase {
    private func changes(_ tool: WritingTool, _ source: String, _ result: String, prompt: String? = nil) -> [String] {
        FactGuard.check(tool: tool, source: source, result: result, prompt: prompt)?.changes ?? []
    }

    func testACorrectedMisspellingIsNoNewFact() {
        XCTAssertEqual(changes(.rewriteProfessional, "see you tomorow at the office", "See you tomorrow at the office."), [])
        XCTAssertEqual(changes(.rewriteFriendly, "We meet on wensday with the team.", "We meet on Wednesday with the team!"), [])
        XCTAssertEqual(changes(.rewriteFriendly, "See you on Wensday then.", "See you on Wednesday then!"), [], "a misspelled weekday read as a name")
        XCTAssertEqual(changes(.rewriteConcise, "Tell Micheal the plan is ready.", "Tell Michael the plan is ready."), [])
        XCTAssertEqual(changes(.rewriteConcise, "Ask Jose about the invoice.", "Ask José about the invoice."), [])
        XCTAssertEqual(changes(.rewriteConcise, "The report is due next wek.", "The report is due next week."), [])
        XCTAssertEqual(changes(.rewriteFriendly, "the meating with the suplier was canceld",
                               "The meeting with the supplier was cancelled."), [])
        XCTAssertEqual(changes(.summary, "Lunch with the team tomorow.", "Lunch tomorrow."), [], "a summary too")
    }

    func testReallyNewFactsAreStillCaught() {
        // Another date, weekday, name or number in place of the text's is a change, however close it is written.
        XCTAssertEqual(changes(.rewriteProfessional, "See you on Monday.", "See you on Sunday."), ["changes ‘Monday’ to ‘Sunday’"])
        XCTAssertEqual(changes(.rewriteProfessional, "See you today.", "See you tonight."), ["changes ‘today’ to ‘tonight’"])
        XCTAssertEqual(changes(.rewriteConcise, "Ask Jon about it.", "Ask John about it."), ["changes ‘Jon’ to ‘John’"])
        XCTAssertEqual(changes(.rewriteConcise, "Ask Marion about it.", "Ask Marian about it."), ["changes ‘Marion’ to ‘Marian’"])
        XCTAssertEqual(changes(.rewriteConcise, "We need 15 testers.", "We need 16 testers."), ["changes ‘15’ to ‘16’"])
        XCTAssertEqual(changes(.rewriteConcise, "We need sixty testers.", "We need fifty testers."), ["changes ‘sixty’ to ‘fifty’"])
        // New facts beside a corrected misspelling.
        XCTAssertEqual(changes(.rewriteProfessional, "see you tomorow", "See you tomorrow at 3pm."), ["adds ‘3pm’"])
        XCTAssertEqual(changes(.summary, "Lunch with the team.", "Lunch with Tom tomorrow."), ["adds ‘tomorrow’", "adds ‘Tom’"])
        // A word of the text close to a date word is no misspelling of it when it is a word of its own.
        XCTAssertEqual(changes(.keyPoints, "We sow the seeds.", "- We sow the seeds today"), ["adds ‘today’"])
    }

    func testWhatCountsAsASpellingCorrection() {
        XCTAssertTrue(SpellingCorrection.corrects("tomorow", to: "tomorrow", kind: .date))
        XCTAssertTrue(SpellingCorrection.corrects("tommorrow", to: "tomorrow", kind: .date), "two edits at eight letters")
        XCTAssertTrue(SpellingCorrection.corrects("wek", to: "week", kind: .date), "a letter left out of a short word")
        XCTAssertTrue(SpellingCorrection.corrects("fourty", to: "forty", kind: .number))
        XCTAssertTrue(SpellingCorrection.corrects("Zoe", to: "Zoë", kind: .name), "diacritics fold")
        XCTAssertTrue(SpellingCorrection.corrects("Zoe", to: "Zoe\u{308}", kind: .name), "a combining mark folds too")
        XCTAssertTrue(SpellingCorrection.corrects("micheal", to: "Michael", kind: .name), "two letters swapped")
        XCTAssertFalse(SpellingCorrection.corrects("tan", to: "ten", kind: .number), "a short word changed is another word")
        XCTAssertFalse(SpellingCorrection.corrects("15", to: "16", kind: .number), "digits are no spelling")
        XCTAssertFalse(SpellingCorrection.corrects("jon", to: "john", kind: .name))
        XCTAssertFalse(SpellingCorrection.corrects("marion", to: "marian", kind: .name))
        XCTAssertFalse(SpellingCorrection.corrects("tomorw", to: "tonight", kind: .date), "three edits")
        XCTAssertEqual(EditDistance.distance(Array("ca"), Array("ac"), limit: 2), 1, "a swap is one edit")
        XCTAssertEqual(EditDistance.distance(Array("kitten"), Array("sitting"), limit: 5), 3)
        XCTAssertEqual(EditDistance.distance(Array("kitten"), Array("sitting"), limit: 1), 2, "cut off above the limit")
    }
}
