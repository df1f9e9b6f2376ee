import XCTest
@testable import EmendCore

/// Notes and answers written for the guard without looking at its rules (not the issue's
/// examples): what a small model plausibly answers, faithful or not. Each says whether a
/// person would call the answer a changed fact. The test holds the guard to all of them; a
/// miss here is a known gap, named in the message.
final class FactGuardHeldOutTests: XCTestCase {
    struct Case {
        let note: String
        let tool: WritingTool
        let answer: String
        let changesAFact: Bool
    }

    static let cases: [Case] = [
        // Faithful rewrites and summaries.
        Case(note: "Hi team, the offsite is on June 12 in Leeds. Coaches leave at 8:15 from the main gate; please dont be late.",
             tool: .rewriteProfessional,
             answer: "Dear team, the offsite takes place on June 12 in Leeds. Coaches depart from the main gate at 8:15, so please do not be late.",
             changesAFact: false),
        Case(note: "Tom can't review the contract before Wednesday, so Priya will do it.",
             tool: .rewriteFriendly, answer: "Tom isn't able to review the contract before Wednesday, so Priya will take care of it!",
             changesAFact: false),
        Case(note: "The printer on floor 3 is broken again. IT says a new one arrives in two weeks. Until then use the one on floor 2.",
             tool: .summary, answer: "The floor 3 printer is broken; use floor 2 until a new one arrives in two weeks.", changesAFact: false),
        Case(note: "Budget review: marketing spent $12,400 of $15,000. Travel is frozen until March. No new hires this quarter.",
             tool: .keyPoints, answer: "- Marketing spent $12,400 of $15,000\n- Travel frozen until March\n- No new hires this quarter",
             changesAFact: false),
        Case(note: "Shopping for the picnic: 2 loaves of bread, cheese, 6 apples and lemonade. Don't buy crisps, Jo is bringing them.",
             tool: .list, answer: "- 2 loaves of bread\n- cheese\n- 6 apples\n- lemonade\n- no crisps (Jo brings them)", changesAFact: false),
        Case(note: "Mina works Monday to Wednesday, Luis works Thursday and Friday. Nobody works on weekends.",
             tool: .table, answer: "| Name | Days |\n| --- | --- |\n| Mina | Monday to Wednesday |\n| Luis | Thursday, Friday |",
             changesAFact: false),
        // Unfaithful ones.
        Case(note: "Hi team, the offsite is on June 12 in Leeds. Coaches leave at 8:15 from the main gate; please dont be late.",
             tool: .rewriteConcise, answer: "Offsite June 21 in Leeds; coaches leave 8:15 from the main gate. Don't be late.", changesAFact: true),
        Case(note: "Tom can't review the contract before Wednesday, so Priya will do it.",
             tool: .rewriteConcise, answer: "Priya can't review the contract before Wednesday, so Tom will.", changesAFact: true),
        Case(note: "The printer on floor 3 is broken again. IT says a new one arrives in two weeks. Until then use the one on floor 2.",
             tool: .summary, answer: "The printer on floor 2 is broken; a new one arrives next week.", changesAFact: true),
        Case(note: "Budget review: marketing spent $12,400 of $15,000. Travel is frozen until March. No new hires this quarter.",
             tool: .keyPoints, answer: "- Marketing spent $12,400 of $15,000\n- Travel frozen until March\n- New hires this quarter", changesAFact: true),
        Case(note: "Shopping for the picnic: 2 loaves of bread, cheese, 6 apples and lemonade. Don't buy crisps, Jo is bringing them.",
             tool: .list, answer: "- 2 loaves of bread\n- cheese\n- 8 apples\n- lemonade\n- crisps", changesAFact: true),
        Case(note: "Mina works Monday to Wednesday, Luis works Thursday and Friday. Nobody works on weekends.",
             tool: .table, answer: "| Name | Days | Hours |\n| --- | --- | --- |\n| Mina | Monday to Wednesday | 24 |\n| Luis | Thursday, Friday | 16 |",
             changesAFact: true),
        Case(note: "The vendor will not deliver the chairs before the event.",
             tool: .rewriteFriendly, answer: "Good news: the chairs from the vendor will arrive before the event!", changesAFact: true),
        Case(note: "Our landlord will not renew the lease on the Elm Street office.",
             tool: .rewriteProfessional, answer: "The lease on the Elm Street office will not be renewed by our landlord.", changesAFact: false),
    ]

    func testTheGuardOnNotesItWasNotTunedOn() {
        var misses: [String] = []
        for (index, test) in Self.cases.enumerated() {
            let report = FactGuard.check(tool: test.tool, source: test.note, result: test.answer)
            if (report != nil) != test.changesAFact {
                misses.append("#\(index) \(test.tool.name): expected \(test.changesAFact ? "a changed fact" : "none"), got \(report?.changes ?? [])")
            }
        }
        XCTAssertEqual(misses, [])
    }
}
