import XCTest
@testable import EmendCore

/// The fact guard: each kind of fact, kept, dropped, added, changed; rewrites against
/// summaries; formatting that is free.
final class FactGuardTests: XCTestCase {
    private func changes(_ tool: WritingTool, _ source: String, _ result: String, prompt: String? = nil) -> [String] {
        FactGuard.check(tool: tool, source: source, result: result, prompt: prompt)?.changes ?? []
    }

    func testTheLaunchNoteFromTheIssue() {
        let source = "the launch got pushed to next week because legal still hasnt signed off on the privacy page. please dont tell customers a date yet"
        let result = "I'm glad to hear that the launch has been delayed. Please let customers know about this situation."
        let found = changes(.rewriteFriendly, source, result)
        XCTAssertTrue(found.contains("drops ‘next week’"), "\(found)")
        XCTAssertTrue(found.contains { $0.hasPrefix("negation of ‘tell customers a date") }, "\(found)")
        let report = FactGuard.check(tool: .rewriteFriendly, source: source, result: result)
        XCTAssertTrue(report?.explanation.hasPrefix("The result changes facts of the text: ") ?? false)
        XCTAssertTrue(report?.factsToKeep.contains("next week") ?? false, "\(report?.factsToKeep ?? [])")
    }

    func testAGoodRewriteKeepsEveryFact() {
        let source = "The launch moves to next week because legal hasn't signed off. Please don't tell customers a date; Ana will email ana@example.com by Friday at 3pm about the $5 fee."
        let result = "Heads up: the launch is moving to next week, since legal has not signed off yet. Please do not give customers a date! Ana will email ana@example.com by friday at 3 p.m. about the five dollars fee."
        XCTAssertEqual(changes(.rewriteFriendly, source, result), [])
    }

    func testNumbersChangedDroppedAndAdded() {
        XCTAssertEqual(changes(.rewriteConcise, "We need 5 testers for 3 days.", "We need 7 testers for 3 days."), ["changes ‘5’ to ‘7’"])
        XCTAssertEqual(changes(.rewriteConcise, "We need five testers.", "We need 5 testers."), [])
        XCTAssertEqual(changes(.rewriteConcise, "It costs $1,200 per month.", "It costs 1200 dollars a month."), [])
        XCTAssertEqual(changes(.rewriteConcise, "Uptime was 99.5% last quarter.", "Uptime was high last quarter."), ["drops ‘99.5%’"])
        XCTAssertEqual(changes(.summary, "Uptime was 99.5% last quarter.", "Uptime was high."), [], "a summary may leave facts out")
        XCTAssertEqual(changes(.summary, "Uptime was high.", "Uptime was 99.9%."), ["adds ‘99.9%’"], "but never adds one")
    }

    func testDatesTimesAndWeekdays() {
        XCTAssertEqual(changes(.rewriteProfessional, "See you on Friday at 10:30.", "See you on friday at 10:30am."), [])
        XCTAssertEqual(changes(.rewriteProfessional, "See you on Friday.", "See you on Monday."), ["changes ‘Friday’ to ‘Monday’"])
        XCTAssertEqual(changes(.rewriteProfessional, "Due March 3rd.", "Due on 3 March."), [])
        XCTAssertEqual(changes(.rewriteProfessional, "Call me at 3pm.", "Call me at 15:00."), [])
        XCTAssertEqual(changes(.rewriteProfessional, "Call me at 3pm.", "Call me at 4pm."), ["changes ‘3pm’ to ‘4pm’"])
        XCTAssertEqual(changes(.keyPoints, "We ship soon.", "- We ship tomorrow"), ["adds ‘tomorrow’"])
    }

    func testNamesLinksAddressesQuotesAndCode() {
        XCTAssertEqual(changes(.rewriteFriendly, "Ask Priya Patel about it.", "Ask about it."), ["drops ‘Priya Patel’"])
        XCTAssertEqual(changes(.rewriteFriendly, "Thanks. Priya will call.", "Thank you! priya will call."), [], "a name's case is free")
        XCTAssertEqual(changes(.summary, "The team met.", "The team met with Acme Corp."), ["adds ‘Acme Corp’"])
        XCTAssertEqual(changes(.rewriteFriendly, "Docs at https://example.com/a.", "Docs are online."), ["drops ‘https://example.com/a’"])
        XCTAssertTrue(changes(.rewriteFriendly, "Mail bob@example.org now.", "Mail him now.").contains("drops ‘bob@example.org’"))
        XCTAssertEqual(changes(.rewriteFriendly, "She said “we are done” and left.", "She said we might be done and left."), ["drops ‘“we are done”’"])
        XCTAssertEqual(changes(.rewriteConcise, "Run `make test` first.", "Run the tests first."), ["drops ‘`make test`’"])
    }

    func testNegationsFlippedLostAndAdded() {
        XCTAssertEqual(changes(.rewriteFriendly, "Do not deploy on Friday.", "Deploy on Friday!"), ["negation of ‘deploy on Friday’ lost"])
        XCTAssertEqual(changes(.summary, "Do not deploy on Friday.", "Deploy on Friday."), ["negation of ‘deploy on Friday’ lost"], "a summary must not flip one either")
        XCTAssertEqual(changes(.rewriteFriendly, "We will deploy on Friday.", "We won't deploy on Friday."), ["adds a negation to ‘deploy on Friday’"])
        XCTAssertEqual(changes(.rewriteFriendly, "It isnt ready.", "It is not ready yet."), [])
        XCTAssertEqual(changes(.rewriteFriendly, "We cannot ship without tests.", "We can't ship without tests."), [])
    }

    func testAFactOfThePromptMayBeAdded() {
        XCTAssertEqual(changes(.rewriteDescribed, "We meet soon.", "We meet on Monday.", prompt: "say we meet on Monday"), [])
        XCTAssertEqual(changes(.rewriteDescribed, "We meet soon.", "We meet on Monday.", prompt: "make it formal"), ["adds ‘Monday’"])
    }

    func testProofreadAndComposeAreNotGuarded() {
        XCTAssertNil(FactGuard.check(tool: .proofread, source: "5 apples", result: "7 apples"))
        XCTAssertNil(FactGuard.check(tool: .compose, source: "", result: "Meet on Monday at 5."))
    }

    func testSentenceStartsAreNotNames() {
        let facts = FactExtractor.facts(in: "Please review it. Thanks for that. Then ask Ana. Ana said yes, NASA too.")
        XCTAssertEqual(facts.filter { $0.kind == .name }.map(\.key), ["ana", "ana", "nasa"],
                       "a capitalised word at a sentence's start is a name only when it is one elsewhere")
    }

    func testOrdinaryRewritesThatAreNotFactChanges() {
        XCTAssertEqual(changes(.rewriteFriendly, "Anna's report is done.", "The report by Anna is done!"), [])
        XCTAssertEqual(changes(.rewriteFriendly, "Meet at 10AM.", "Meet at 10 a.m.!"), [])
        XCTAssertEqual(changes(.rewriteFriendly, "Ship v2 now.", "Ship version 2 now!"), [])
        XCTAssertEqual(changes(.rewriteConcise, "It is not just faster but also safer.", "It is faster and safer."), [])
        XCTAssertEqual(changes(.rewriteFriendly, "She said “Ship it.” and left.", "She said “ship it” and left!"), [])
        XCTAssertEqual(changes(.rewriteDescribed, "We meet on Monday.", "We meet on Tuesday.", prompt: "move it to Tuesday"), [],
                       "a change the prompt asks for")
    }

    func testAnUnclosedBacktickOrQuoteIsNoFact() {
        let facts = FactExtractor.facts(in: "Run `make and \"then\nnothing else closes.")
        XCTAssertFalse(facts.contains { $0.kind == .code || $0.kind == .quote }, "\(facts)")
    }

    // MARK: Lists and tables, cells included

    func testATableWithInventedNumbersInItsCellsIsCaught() {
        // The party note of issue 28: its only number is "at 5"; the model's table counted on.
        let note = "Party at my place on Saturday at 5. Alice brings cake, Carol brings drinks, Bob brings the music."
        let table = "Time\tGuest\tHost\n5\talice\tbob\n10\tcarol\tbob\n20\tbob\tbob\n30\tbob\tbob"
        let found = changes(.table, note, table)
        XCTAssertTrue(found.contains("adds ‘10’") && found.contains("adds ‘20’") && found.contains("adds ‘30’"), "\(found)")
        XCTAssertFalse(found.contains("adds ‘5’"), "5 is the note's: \(found)")
        // The same table as Markdown (a model's own answer, before the engine's shape).
        let markdown = "| Time | Guest | Host |\n| --- | --- | --- |\n| 5 | alice | bob |\n| 10 | carol | bob |"
        XCTAssertEqual(changes(.table, note, markdown), ["adds ‘10’"])
    }

    func testARowNumberColumnIsScaffoldingButOnlyWhenItNumbersTheRows() {
        let note = "Ana leads the review. Ben writes the notes. Chris books the room."
        XCTAssertEqual(changes(.table, note, "#\tWho\tTask\n1\tAna\tleads the review\n2\tBen\twrites the notes\n3\tChris\tbooks the room"), [])
        XCTAssertEqual(changes(.table, note, "| Who | Task |\n|---|---|\n| Ana | leads the review |\n| Ben | writes the notes |"), [],
                       "column names are the table's own words")
        XCTAssertEqual(changes(.table, note, "Step\tWho\n1\tAna\n2\tBen\n3\tChris"), [], "1, 2, 3 down the rows numbers them")
        XCTAssertEqual(changes(.table, note, "Who\tHours\nAna\t4\nBen\t2"), ["adds ‘4’", "adds ‘2’"])
        XCTAssertEqual(changes(.table, note, "Who\tTask\tDue\nAna\tthe review\tFriday"), ["adds ‘Friday’"])
        XCTAssertEqual(changes(.table, note, "Task (2026)\tWho\nthe review\tAna"), ["adds ‘2026’"], "a number in the header is a fact")
    }

    func testListsAndKeyPointsAreCheckedItemByItem() {
        let note = "We need chairs for the workshop. Mia will order them; the budget is $300."
        XCTAssertEqual(changes(.list, note, "- chairs for the workshop\n- Mia orders them\n- budget: $300"), [])
        XCTAssertEqual(changes(.list, note, "1. 40 chairs\n2. Mia orders them\n3. budget: $300"), ["adds ‘40’"])
        XCTAssertEqual(changes(.keyPoints, note, "- Mia orders chairs\n- Budget $500"), ["adds ‘$500’"])
    }

    // MARK: Negations tied to what they negate

    func testANegationMovedToAnotherSubjectIsAChangedFact() {
        let source = "Sarah Jones will not attend the two meetings on Thursday."
        let moved = "Just a heads-up: the two meetings on Thursday will not be taking place, according to Sarah Jones."
        let found = changes(.rewriteFriendly, source, moved)
        XCTAssertTrue(found.contains { $0.hasPrefix("negation of ‘attend the two meetings") && $0.contains("moved to") }, "\(found)")
        XCTAssertEqual(FactGuard.check(tool: .rewriteFriendly, source: source, result: moved)?.factsToKeep.contains("not attend the two meetings on Thursday"), true)
        // The other way round: what was cancelled becomes someone's absence.
        XCTAssertTrue(changes(.summary, "The Thursday meetings will not take place.", "Sarah will not attend the Thursday meetings.")
            .contains { $0.contains("moved to") })
        // Said of someone else the note names.
        XCTAssertTrue(changes(.rewriteConcise, "Sarah will not attend the meeting, but Tom will attend.", "Tom will not attend the meeting.")
            .contains { $0.contains("moved to ‘Tom’") })
    }

    func testANegationKeptOnItsSubjectInOtherWordsIsTheSameFact() {
        XCTAssertEqual(changes(.rewriteFriendly, "Sarah Jones will not attend the two meetings.", "Sarah Jones won't be able to attend the two meetings."), [])
        XCTAssertEqual(changes(.rewriteFriendly, "Sarah Jones will not attend the two meetings.", "She will not attend the two meetings, Sarah Jones says."), [])
        XCTAssertEqual(changes(.rewriteProfessional, "The report was not finished by Ana.", "Ana did not complete the report."), [],
                       "the other voice states the same")
        XCTAssertEqual(changes(.rewriteProfessional, "The team will not attend the launch.", "Our staff won't attend the launch."), [])
        XCTAssertEqual(changes(.rewriteFriendly, "Please don't tell customers a date yet.", "Please do not share a date with customers yet."), [])
    }

    func testALinkOfTheSourceIsNoAdditionHoweverTheSourceWroteIt() {
        for source in ["Read [the guide](https://example.com/guide) first.", "Read the guide (<https://example.com/guide>) first.",
                       "Read the guide at https://example.com/guide/, first.", "Read “https://example.com/guide” first."] {
            XCTAssertEqual(changes(.summary, source, "Read the guide at https://example.com/guide first."), [], source)
            XCTAssertEqual(changes(.rewriteFriendly, source, "Please read the guide first: https://example.com/guide"), [], source)
        }
        XCTAssertEqual(changes(.summary, "Read [the guide](https://example.com/guide) first.", "Read https://example.com/other first."),
                       ["adds ‘https://example.com/other’"])
    }
}

