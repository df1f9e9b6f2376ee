import Foundation
import XCTest
@testable import EmendCore

/// An invented event made of ordinary words ("and a raffle will be held", "the meeting was
/// cancelled") is a changed fact as much as an invented number; the words a tone or a
/// summary adds of its own, and paraphrases of what the text says, are not.
final class FactGuardAddedStatementTests: XCTestCase {
    private func changes(_ tool: WritingTool, _ source: String, _ result: String, prompt: String? = nil) -> [String] {
        FactGuard.check(tool: tool, source: source, result: result, prompt: prompt)?.changes ?? []
    }

    static let party = "The party is at 5. Bring snacks if you can."

    func testAnInventedEventInARewriteIsCaught() {
        XCTAssertEqual(changes(.rewriteFriendly, Self.party, "The party is at 5, and a raffle will be held! Bring snacks if you can."),
                       ["adds ‘a raffle will be held’"])
        XCTAssertEqual(changes(.rewriteProfessional, Self.party, "The party is at 5. Please bring snacks if you can. The meeting was cancelled."),
                       ["adds ‘The meeting was cancelled’"])
        XCTAssertEqual(changes(.rewriteConcise, Self.party, "Party at 5; prizes will be awarded. Bring snacks."),
                       ["adds ‘prizes will be awarded’"])
    }

    func testAnInventedStatementInASummaryListOrTableIsCaught() {
        XCTAssertEqual(changes(.summary, Self.party, "The party is at 5 and a raffle will be held."), ["adds ‘a raffle will be held’"])
        XCTAssertEqual(changes(.keyPoints, Self.party, "- Party at 5\n- Bring snacks\n- Raffle prizes announced"),
                       ["adds ‘Raffle prizes announced’"])
        XCTAssertEqual(changes(.table, Self.party, "| What | Detail |\n| --- | --- |\n| Party | at 5 |\n| Raffle | tickets sold at door |"),
                       ["adds ‘tickets sold at door’"])
    }

    func testTheWritersOwnWordsInATonedRewriteAreNoStatement() {
        for result in [
            "Hi everyone! The party is at 5, so bring snacks if you can. Can't wait to celebrate with you all!",
            "Just a friendly reminder: the party starts at 5. It would be lovely if you could bring some snacks. Looking forward to seeing you there!",
            "Hope you're all doing well! The party is at 5. Feel free to bring snacks if you can. This will be a great chance to catch up.",
            "The party is at 5. If possible, kindly bring snacks. Thank you in advance for your contribution.",
            "Party at 5. Bring snacks if you can.",
        ] {
            XCTAssertEqual(changes(.rewriteFriendly, Self.party, result), [], result)
        }
    }

    func testParaphrasesAndLemmasOfTheSourcesWordsAreNoInvention() {
        XCTAssertEqual(changes(.rewriteProfessional, "The workshop got cancelled because the trainer is ill.",
                               "The workshop has been cancelled, as the trainer is unwell."), [])
        XCTAssertEqual(changes(.summary, "We hold the raffle after dinner. Tickets cost nothing.",
                               "A raffle will be held after dinner; tickets are free."), [], "held is hold")
        XCTAssertEqual(changes(.keyPoints, "The cancellation of the trip was announced by Mia on Monday.",
                               "- Mia announced on Monday that the trip was cancelled"), [])
        XCTAssertEqual(changes(.rewriteDescribed, Self.party, "The party is at 5 and a raffle will be held.", prompt: "mention the raffle being held"), [],
                       "what the prompt asks for is no invention")
    }

    /// The guard's other rules' honest cases (FactGuardTests, FactGuardHeldOutTests) stay
    /// unrefused with this rule.
    func testTheHeldOutFaithfulAnswersAreStillAccepted() {
        for test in FactGuardHeldOutTests.cases where !test.changesAFact {
            XCTAssertNil(AddedStatements.find(tool: test.tool, sourceWords: FactWords.words(in: test.note), promptWords: [],
                                              resultWords: FactWords.words(in: FactGuard.withoutScaffolding(test.answer).body)).first,
                         test.answer)
        }
    }

    // MARK: Figures over the benchmark's 50 notes

    /// Over the 50 notes of benchmarks/facts (written for the benchmark, not for this rule):
    /// honest results built from each note without a person choosing words per note (its
    /// sentences as key points, as a list, as a one-line summary; the note in a friendly
    /// frame of greetings and wishes) must not be refused for an added statement, and each
    /// note with an invented event appended must be. Prints the figures before (the guard
    /// without the rule) and after.
    func testFiguresOverTheBenchmarkNotes() throws {
        let notesURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../benchmarks/facts/notes.jsonl").standardized
        let notes = try String(contentsOf: notesURL, encoding: .utf8).split(separator: "\n").compactMap { line -> String? in
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return object?["text"] as? String
        }
        XCTAssertEqual(notes.count, 50)
        let frames = [("Hi all! ", " Thanks so much, and hope to see you there!"),
                      ("Hello everyone, just a quick reminder. ", " Feel free to reach out with any questions."),
                      ("", " Looking forward to it, can't wait!")]
        let inventions = ["A raffle will be held afterwards.", "The meeting was cancelled.", "Prizes will be awarded to the winners.",
                          "The venue has been changed to the library.", "Free pizza will be served."]
        var honest: [(WritingTool, String, String)] = []
        var invented: [(WritingTool, String, String)] = []
        for (index, note) in notes.enumerated() {
            let bytes = Array(note.utf8)
            let sentences = SentenceSegmenter.sentences(in: note).map { String(decoding: bytes[$0], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) }
                .filter { !$0.isEmpty }
            honest.append((.keyPoints, note, sentences.map { "- " + $0 }.joined(separator: "\n")))
            honest.append((.list, note, sentences.map { "- " + $0 }.joined(separator: "\n")))
            honest.append((.summary, note, sentences.first ?? note))
            let frame = frames[index % frames.count]
            honest.append((.rewriteFriendly, note, frame.0 + note + frame.1))
            let invention = inventions[index % inventions.count]
            invented.append((.rewriteFriendly, note, note + " " + invention))
            invented.append((.keyPoints, note, (sentences + [invention]).map { "- " + $0 }.joined(separator: "\n")))
        }
        func refusals(_ cases: [(WritingTool, String, String)]) -> (before: Int, after: Int, byRule: [String]) {
            var before = 0, after = 0
            var byRule: [String] = []
            for (tool, source, result) in cases {
                let all = FactGuard.check(tool: tool, source: source, result: result)?.changes ?? []
                let shaped = tool == .keyPoints || tool == .list ? FactGuard.withoutScaffolding(result).body : result
                let added = Set(AddedStatements.find(tool: tool, sourceWords: FactWords.words(in: source), promptWords: [],
                                                     resultWords: FactWords.words(in: shaped)).map { "adds ‘\($0)’" })
                if all.contains(where: { !added.contains($0) }) { before += 1 }
                if !all.isEmpty { after += 1 }
                if !added.isEmpty { byRule.append("\(tool.name): \(added.sorted())") }
            }
            return (before, after, byRule)
        }
        let fair = refusals(honest), unfair = refusals(invented)
        print("added statements over benchmarks/facts notes: honest results refused \(fair.before)/\(honest.count) before, "
              + "\(fair.after)/\(honest.count) after; invented events caught \(unfair.before)/\(invented.count) before, "
              + "\(unfair.after)/\(invented.count) after")
        XCTAssertEqual(fair.byRule, [], "no honest result is refused for an added statement")
        XCTAssertGreaterThanOrEqual(unfair.after * 10, invented.count * 8, "at least 8 of 10 invented events caught")
    }
}
