import XCTest
import Glibc
import EmendCore
@testable import EmendProofreading

/// The combination of several checkers' suggestions: ranking, deduplication, evidence.
final class ProofreadingCombinerTests: XCTestCase {
    private let hunspell = "org.emend.hunspell", harper = "org.emend.harper", lt = "org.emend.lingotweaker"

    private func spelling(_ text: String, _ word: String, _ replacement: String, rule: String = "S") -> ProviderEdit {
        let range = byteRange(of: word, in: text)
        return ProviderEdit(range: range, replacement: replacement, category: "spelling", ruleID: rule)
    }

    private func combine(_ text: String, _ members: [(String, [ProviderEdit])]) -> [String] {
        let input = members.enumerated().map { MemberEdits(providerID: $0.element.0, rank: $0.offset, edits: $0.element.1) }
        let bytes = Array(text.utf8)
        return ProofreadingCombiner().combine(input, text: text).map {
            String(decoding: bytes[$0.edit.range], as: UTF8.self) + "→" + $0.edit.replacement
        }
    }

    func testHunspellsSuggestionBeatsAWordCutInTwo() {
        let text = "He attemped it."
        // Harper is preferred by rank (listed first), but its split loses to a one-letter slip.
        XCTAssertEqual(combine(text, [(harper, [spelling(text, "attemped", "at temped")]),
                                      (hunspell, [spelling(text, "attemped", "attempted")])]), ["attemped→attempted"])
        // A split that is the only reading stays.
        let alot = "We had alot of fun."
        XCTAssertEqual(combine(alot, [(harper, [spelling(alot, "alot", "a lot")]), (hunspell, [spelling(alot, "alot", "allot")])]),
                       ["alot→allot"], "one edit away beats a split")
        XCTAssertEqual(combine(alot, [(harper, [spelling(alot, "alot", "a lot")]), (hunspell, [spelling(alot, "alot", "a lot")]),
                                      (lt, [spelling(alot, "alot", "allot")])]), ["alot→a lot"], "agreement beats everything")
    }

    func testOnEqualFootingTheMoreReliableSpellerWins() {
        let text = "I am doign it."
        XCTAssertEqual(combine(text, [(harper, [spelling(text, "doign", "deign")]), (hunspell, [spelling(text, "doign", "doing")])]),
                       ["doign→doing"])
    }

    func testASuggestionSeveralCheckersAgreeOnComesFirst() {
        let text = "I recieve it."
        XCTAssertEqual(combine(text, [(hunspell, [spelling(text, "recieve", "relieve")]),
                                      (harper, [spelling(text, "recieve", "receive")]),
                                      (lt, [spelling(text, "recieve", "receive")])]), ["recieve→receive"])
    }

    func testOverlappingAdviceFromTwoRuleFamiliesIsOneFlag() {
        let text = "The the cat sat."
        let repeated = ProviderEdit(range: 0..<7, replacement: "The", category: "grammar", ruleID: "RepeatedWords")
        let lower = ProviderEdit(range: 4..<7, replacement: "", category: "grammar", ruleID: "WORD_REPEAT")
        XCTAssertEqual(combine(text, [(harper, [repeated]), (lt, [lower])]), ["The the→The"], "the preferred provider's")
        // Different places are different flags.
        let other = ProviderEdit(range: 8..<11, replacement: "dog", category: "grammar", ruleID: "X")
        XCTAssertEqual(combine(text, [(harper, [repeated]), (lt, [other])]).count, 2)
    }

    func testASpellingFlagNeedsAMajorityOfTheSpellers() {
        let text = "Install pixbuf and tomorow."
        let pixbuf = spelling(text, "pixbuf", "pix's"), tomorow = spelling(text, "tomorow", "tomorrow")
        // Three spellers checked: one alone is outvoted, two carry it.
        XCTAssertEqual(combine(text, [(harper, [pixbuf, tomorow]), (hunspell, [tomorow]), (lt, [])]), ["tomorow→tomorrow"])
        // Two spellers: one alone is believed for a one-keystroke slip, not for a far guess.
        XCTAssertEqual(combine(text, [(harper, [pixbuf, tomorow]), (hunspell, [])]), ["tomorow→tomorrow"])
        XCTAssertEqual(combine(text, [(harper, [pixbuf]), (hunspell, [spelling(text, "pixbuf", "pix's")])]), ["pixbuf→pix's"],
                       "both flag it")
        // Grammar is not voted on: checkers cover different rules.
        let grammar = ProviderEdit(range: byteRange(of: "and", in: text), replacement: "or", category: "grammar", ruleID: "G")
        XCTAssertEqual(combine(text, [(harper, [grammar]), (hunspell, []), (lt, [])]), ["and→or"])
    }

    func testSpellersThatEachGuessADifferentFartherWordSeeAName() {
        let text = "Check it with mypy and tokio, then adress the lisence."
        // Three different guesses, none a slip of one keystroke: a name none of them knows.
        XCTAssertEqual(combine(text, [(lt, [spelling(text, "mypy", "MYP")]), (harper, [spelling(text, "mypy", "many")]),
                                      (hunspell, [spelling(text, "mypy", "pygmy")])]), [])
        // Two of them agree: kept.
        XCTAssertEqual(combine(text, [(lt, [spelling(text, "mypy", "pygmy")]), (harper, [spelling(text, "mypy", "many")]),
                                      (hunspell, [spelling(text, "mypy", "many")])]), ["mypy→many"])
        // Different guesses, but one is a slip of one keystroke with no letter lost: kept.
        XCTAssertEqual(combine(text, [(lt, [spelling(text, "adress", "address")]), (harper, [spelling(text, "adress", "a dress")]),
                                      (hunspell, [spelling(text, "adress", "dress")])]), ["adress→address"])
        // ... or the same letters in another order.
        XCTAssertEqual(combine(text, [(lt, [spelling(text, "lisence", "absence")]), (harper, [spelling(text, "lisence", "license")]),
                                      (hunspell, [spelling(text, "lisence", "silence")])]).count, 1)
        // A guess that only drops a letter is no slip's fix: names are often a word and a letter.
        XCTAssertEqual(combine(text, [(lt, [spelling(text, "tokio", "toki")]), (harper, [spelling(text, "tokio", "token")])]), [])
        // One speller alone: nothing to compare, the other rules decide.
        XCTAssertEqual(combine(text, [(harper, [spelling(text, "mypy", "many")]), (hunspell, [])]), [])
        XCTAssertEqual(combine(text, [(harper, [spelling(text, "adress", "address")]), (hunspell, [])]), ["adress→address"])
    }

    func testInALongWordAGuessTwoKeystrokesAwayIsASlipsFix() {
        // Each speller guesses a different word, but one is two keystrokes from a word of seven
        // letters or more, keeps its first letter and is not shorter: a misspelling, not a name.
        let day = "I will see you on wensday."
        XCTAssertEqual(combine(day, [(lt, [spelling(day, "wensday", "Wednesday")]), (harper, [spelling(day, "wensday", "weekday")]),
                                     (hunspell, [])]), ["wensday→Wednesday"])
        let text = "Yesterday she wrote occurance in her notes."
        XCTAssertEqual(combine(text, [(lt, [spelling(text, "occurance", "occurrence")]),
                                      (harper, [spelling(text, "occurance", "occupancy")]),
                                      (hunspell, [spelling(text, "occurance", "procurance")])]), ["occurance→occurrence"])
        // A short name has words two keystrokes away by chance: still a name.
        let names = "Run pytest, mypy and luarocks."
        XCTAssertEqual(combine(names, [(harper, [spelling(names, "pytest", "patent")]), (hunspell, [spelling(names, "pytest", "testes")])]), [])
        XCTAssertEqual(combine(names, [(lt, [spelling(names, "mypy", "MYP")]), (harper, [spelling(names, "mypy", "many")]),
                                       (hunspell, [spelling(names, "mypy", "pygmy")])]), [])
        // Two keystrokes in a long word, but the first letter changes or the guess is shorter: a name.
        XCTAssertEqual(combine(names, [(harper, [spelling(names, "luarocks", "lacks")]),
                                       (hunspell, [spelling(names, "luarocks", "oarlocks")])]), [])
        let ffi = "The FFI layer is generated with bindgen."
        XCTAssertEqual(combine(ffi, [(lt, [spelling(ffi, "bindgen", "Bingen")]), (harper, [spelling(ffi, "bindgen", "binder")])]), [],
                       "shorter")
        // A compound's readings are pieced together from edits on its parts: two keystrokes
        // across it ("was-bind gen") are no slip in one word.
        let wasm = "It is supported through wasm-bindgen."
        XCTAssertEqual(combine(wasm, [(lt, [spelling(wasm, "wasm-bindgen", "Wasm-bindgen")]),
                                      (harper, [spelling(wasm, "wasm", "warm"), spelling(wasm, "bindgen", "binder")]),
                                      (hunspell, [spelling(wasm, "wasm", "was"), spelling(wasm, "bindgen", "bind gen")])]), [])
    }

    func testASpellingFlagAndAGrammarFlagWithTheSameReplacementAgree() {
        // heldout4's shape: LingoTweaker's speller and Harper's RegularIrregulars both propose
        // "taught", Hunspell guesses "teased": agreement, kept, and the agreed word first.
        let text = "She teached us how to swim."
        let grammar = ProviderEdit(range: byteRange(of: "teached", in: text), replacement: "taught", category: "grammar",
                                   ruleID: "RegularIrregulars")
        XCTAssertEqual(combine(text, [(lt, [spelling(text, "teached", "taught")]), (harper, [grammar]),
                                      (hunspell, [spelling(text, "teached", "teased")])]), ["teached→taught"])
        // The providers' order does not decide it.
        XCTAssertEqual(combine(text, [(hunspell, [spelling(text, "teached", "teased")]), (harper, [grammar]),
                                      (lt, [spelling(text, "teached", "taught")])]), ["teached→taught"])
        let baby = "The baby has sleeped all afternoon."
        let slept = ProviderEdit(range: byteRange(of: "sleeped", in: baby), replacement: "slept", category: "grammar",
                                 ruleID: "RegularIrregulars")
        XCTAssertEqual(combine(baby, [(lt, [spelling(baby, "sleeped", "slept")]), (harper, [slept]),
                                      (hunspell, [spelling(baby, "sleeped", "seeped")])]), ["sleeped→slept"])
    }

    func testANameSpellersGuessDifferentlyIsDroppedEvenWithAGrammarFlag() {
        // Three different guesses, and a grammar flag proposing a fourth: no two agree, a name.
        let text = "Check it with mypy first."
        let grammar = ProviderEdit(range: byteRange(of: "mypy", in: text), replacement: "my", category: "grammar", ruleID: "G")
        XCTAssertEqual(combine(text, [(lt, [spelling(text, "mypy", "MYP"), grammar]), (harper, [spelling(text, "mypy", "many")]),
                                      (hunspell, [spelling(text, "mypy", "pygmy")])]), [])
        // Two spellers share a guess on one part of a name and differ on the rest: the spread
        // of guesses at a name, not agreement on a fix (heldout4's "Mensah-Bonsu").
        let name = "Maintained by Kwame Mensah-Bonsu."
        XCTAssertEqual(combine(name, [(lt, [spelling(name, "Mensah-Bonsu", "Mensa-Bonsu")]),
                                      (harper, [spelling(name, "Mensah", "Mensch"), spelling(name, "Bonsu", "Bonus")]),
                                      (hunspell, [spelling(name, "Mensah", "Mensa"), spelling(name, "Bonsu", "Bonus")])]), [])
    }

    func testALoneGrammarFlagOfOneCheckerIsKept() {
        // "I'm not agree": LingoTweaker alone flags "agree" (BEEN_PART_AGREEMENT); grammar is not
        // voted on by the spellers, and the rule is not among the noisy ones, so it stays.
        let text = "I'm not agree with this idea."
        let flag = ProviderEdit(range: byteRange(of: "agree", in: text), replacement: "agreed", category: "grammar",
                                ruleID: "BEEN_PART_AGREEMENT")
        XCTAssertEqual(combine(text, [(lt, [flag]), (harper, []), (hunspell, [])]), ["agree→agreed"])
    }

    func testANoisyRuleNeedsASecondChecker() {
        let text = "It is very unique."
        let noisy = ProviderEdit(range: byteRange(of: "very", in: text), replacement: "", category: "style", ruleID: "VeryUnique")
        var evidence = EvidenceModel.standard
        evidence.needsCorroboration = ["VeryUnique"]
        let combiner = ProofreadingCombiner(evidence: evidence)
        XCTAssertEqual(combiner.combine([MemberEdits(providerID: harper, rank: 0, edits: [noisy])], text: text).count, 0)
        let same = ProviderEdit(range: byteRange(of: "very unique", in: text), replacement: "unique", category: "style", ruleID: "Y")
        let both = combiner.combine([MemberEdits(providerID: harper, rank: 0, edits: [noisy]),
                                     MemberEdits(providerID: lt, rank: 1, edits: [same])], text: text)
        XCTAssertEqual(both.count, 1)
        XCTAssertEqual(both.first?.flaggedBy, [harper, lt])
    }

    func testTheCombinedProviderRunsMembersSideBySideAndSurvivesAFailure() {
        struct Member: WritingProvider {
            let id: String
            let tools: Set<WritingTool> = [.proofread]
            let edits: [ProviderEdit]
            let fails: Bool
            func run(_ request: ProviderRequest, sink: ProviderSink) -> ProviderOutcome {
                if fails { return .failed("no dictionary") }
                for edit in edits { sink.emitEdit(edit) }
                return .finished
            }
        }
        let text = "He attemped it."
        let combined = CombinedProofreader(members: [
            Member(id: harper, edits: [spelling(text, "attemped", "at temped")], fails: false),
            Member(id: lt, edits: [], fails: true),
            Member(id: hunspell, edits: [spelling(text, "attemped", "attempted")], fails: false),
        ])
        let sink = RecordingSink()
        XCTAssertEqual(combined.run(ProviderRequest(tool: .proofread, text: text, selection: 0..<text.utf8.count), sink: sink), .finished)
        XCTAssertEqual(sink.edits.map(\.replacement), ["attempted"])
        XCTAssertTrue(sink.logs.contains { $0.contains("org.emend.lingotweaker failed and was left out: no dictionary") }, "\(sink.logs)")
        let none = CombinedProofreader(members: [Member(id: lt, edits: [], fails: true)])
        XCTAssertEqual(none.run(ProviderRequest(tool: .proofread, text: text, selection: 0..<1), sink: RecordingSink()),
                       .failed("org.emend.lingotweaker: no dictionary"))
    }

    func testAStopEndsTheCombinationWithoutWaitingForASlowChecker() {
        struct Slow: WritingProvider {
            let id = "org.test.slow"
            let tools: Set<WritingTool> = [.proofread]
            func run(_ request: ProviderRequest, sink: ProviderSink) -> ProviderOutcome {
                let started = MonotonicClock.nowMilliseconds()
                while !sink.isCancelled && MonotonicClock.nowMilliseconds() - started < 10_000 { usleep(10_000) }
                return .failed("cancelled")
            }
        }
        let combined = CombinedProofreader(members: [Slow(), Slow()])
        let started = MonotonicClock.nowMilliseconds()
        let outcome = combined.run(ProviderRequest(tool: .proofread, text: "Some text.", selection: 0..<10),
                                   sink: RecordingSink(cancelAfterSeconds: 0.2))
        XCTAssertEqual(outcome, .failed("cancelled"))
        XCTAssertLessThan(MonotonicClock.nowMilliseconds() - started, 2_000, "the slow checkers saw the stop")
    }
}
