import EmendCore
import EmendText

#if canImport(Glibc)
import Glibc
#endif

/// The fact guard's cost by the size of the text: a rewrite of a generated document with
/// names, numbers, dates and negations in every few sentences, 1% of its words changed (no
/// fact among them), checked as a friendly rewrite and as key points. Each size also checks
/// that one changed number is still caught, so a fast guard that stopped looking would fail.
struct FactsBenchmark {
    let runs: Int

    /// Sentences with facts, mixed into the generated prose.
    static let factSentences = [
        "Priya moved the review to Thursday at 10:30 in Room 4B.",
        "The annual plan costs $240 per seat, 15% less for teams over 50.",
        "Do not tell customers a date before March 14.",
        "Invoice 4471 for 930 euros is overdue by 14 days.",
        "We never share data with advertisers, only with DHL.",
    ]

    /// Whether a generated word (with its punctuation) is one of the vocabulary's negations.
    static func isNegation(_ word: String) -> Bool {
        ["no", "never", "without"].contains(word.prefix(while: { $0.isLetter }).lowercased())
    }

    /// Whether a generated word can be part of a fact: a negation, a number word, or a word
    /// of a relative date ("last evening", "this summer").
    static func makesFacts(_ word: String) -> Bool {
        isNegation(word) || ["last", "next", "this", "one", "two", "three", "first", "morning", "evening", "summer", "winter",
                             "year", "years", "day", "time", "minute", "moment", "once"]
            .contains(word.prefix(while: { $0.isLetter }).lowercased())
    }

    func run() {
        print("fact guard (FactGuard.check, best of \(runs)):")
        for bytes in [2_000, 20_000, 200_000, 1_000_000] {
            var rng = SplitMix64(seed: 0x4641_4354 &+ UInt64(bytes))  // "FACT"
            // The vocabulary's "no", "never" and "without" become "some": the negations are the
            // fact sentences' (a random word swapped next to a negation changes what it
            // negates, which the guard rightly reports).
            var words = generateWords(bytes: bytes, rng: &rng).map { word -> String in
                let core = word.prefix(while: { $0.isLetter })
                return Self.isNegation(word) ? "some" + word.dropFirst(core.count) : word
            }
            // A fact sentence after every fifth sentence end.
            var sentenceEnds = 0
            for index in words.indices where words[index].contains(".") {
                sentenceEnds += 1
                if sentenceEnds % 5 == 0 {
                    // Every fact sentence after the first five has a number of its own, so a
                    // long text has thousands of distinct facts.
                    let number = sentenceEnds / 5 - 1
                    let sentence = number < Self.factSentences.count ? Self.factSentences[number]
                        : "Order \(10_000 + number) ships in \(number % 28 + 2) days."
                    words[index] += sentence + " "
                }
            }
            var (changed, _) = changeWords(words, percent: 1, rng: &rng)
            // A swap that makes a fact ("last" + "evening", "no" + ...) is a changed fact the
            // guard rightly reports; such swaps are put back.
            for index in changed.indices where changed[index] != words[index] {
                let neighbours = [index > 0 ? changed[index - 1] : "", changed[index], index + 1 < changed.count ? changed[index + 1] : ""]
                if neighbours.contains(where: Self.makesFacts) { changed[index] = words[index] }
            }
            let source = words.joined(), result = changed.joined()
            for tool in [WritingTool.rewriteFriendly, .keyPoints] {
                var best = UInt64.max
                var report: FactGuard.Report?
                for _ in 0..<runs {
                    best = min(best, nanoseconds { report = FactGuard.check(tool: tool, source: source, result: result) })
                }
                if let report, tool == .rewriteFriendly {
                    fail("the guard found changes in a rewrite that kept every fact: \(report.changes.prefix(3))")
                }
                let seconds = Double(best) / 1e9
                print("  \(source.utf8.count) bytes, \(tool): \(fmt(seconds * 1000, 2)) ms (\(fmt(Double(source.utf8.count) / 1e6 / seconds, 2)) MB/s)")
            }
            // One number changed must still be caught.
            let wrong = result.replacing("4471", with: "4417", maxReplacements: 1)
            guard wrong != result else { fail("\(source.utf8.count) bytes: no invoice number to change") }
            guard FactGuard.check(tool: .rewriteFriendly, source: source, result: wrong) != nil else {
                fail("\(source.utf8.count) bytes: a changed invoice number went unnoticed")
            }
        }
    }
}
