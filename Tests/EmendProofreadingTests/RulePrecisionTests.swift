import XCTest
import EmendCore
@testable import EmendProofreading

/// The combiner keeps a flag when its rule's estimated precision (from the development set,
/// `RulePrecision`) or the agreement of independent checkers says so.
final class RulePrecisionTests: XCTestCase {
    private let harper = "org.emend.harper", lt = "org.emend.lingotweaker", hunspell = "org.emend.hunspell"

    private func combiner(_ table: [String: Double]) -> ProofreadingCombiner {
        var evidence = EvidenceModel.standard
        evidence.precision = { provider, rule in table[provider + " " + rule] ?? RulePrecision.priorPrecision }
        return ProofreadingCombiner(evidence: evidence, lexicon: .none)
    }

    private func flagged(_ combiner: ProofreadingCombiner, _ text: String, _ members: [(String, [ProviderEdit])]) -> [String] {
        let bytes = Array(text.utf8)
        return combiner.combine(members.enumerated().map { MemberEdits(providerID: $0.element.0, rank: $0.offset, edits: $0.element.1) },
                                text: text).map { String(decoding: bytes[$0.edit.range], as: UTF8.self) + "→" + $0.edit.replacement }
    }

    func testALoneFlagOfAnImpreciseRuleIsDroppedAndKeptWhenASecondCheckerAgrees() {
        let text = "However we left early."
        let noisy = ProviderEdit(range: byteRange(of: "However", in: text), replacement: "However,", category: "punctuation", ruleID: "NOISY")
        let other = ProviderEdit(range: byteRange(of: "However", in: text), replacement: "However,", category: "punctuation", ruleID: "Other")
        let combiner = combiner(["\(lt) NOISY": 0.2])
        XCTAssertEqual(flagged(combiner, text, [(lt, [noisy])]), [], "alone, a rule mostly wrong on the development set")
        XCTAssertEqual(flagged(combiner, text, [(lt, [noisy]), (harper, [other])]), ["However→However,"], "two checkers agree")
        // The same rule with a good record stands alone.
        XCTAssertEqual(flagged(self.combiner(["\(lt) NOISY": 0.9]), text, [(lt, [noisy])]), ["However→However,"])
        // A rule the development set never saw keeps the prior, above the threshold.
        XCTAssertEqual(flagged(self.combiner([:]), text, [(lt, [noisy])]), ["However→However,"])
    }

    func testSpellingIsWeighedByTheSpellersNotByTheRulesAverage() {
        let text = "See you tomorow."
        let slip = ProviderEdit(range: byteRange(of: "tomorow", in: text), replacement: "tomorrow", category: "spelling", ruleID: "HUNSPELL")
        XCTAssertEqual(flagged(combiner(["\(hunspell) HUNSPELL": 0.1]), text, [(hunspell, [slip]), (harper, [])]), ["tomorow→tomorrow"])
    }

    func testTheEstimateHasAPriorAndFollowsTheCounts() {
        XCTAssertEqual(RulePrecision.Record(right: 0, fired: 0).estimate, RulePrecision.priorPrecision, accuracy: 1e-9)
        XCTAssertLessThan(RulePrecision.Record(right: 0, fired: 1).estimate, 0.5, "never right, once wrong: not alone")
        XCTAssertGreaterThan(RulePrecision.Record(right: 1, fired: 2).estimate, 0.5)
        XCTAssertLessThan(RulePrecision.Record(right: 2, fired: 20).estimate, 0.2)
        XCTAssertGreaterThan(RulePrecision.Record(right: 40, fired: 42).estimate, 0.9)
    }

    /// The table the combiner reads is the benchmark's, not empty: the shipped spellers' rules
    /// are in it with the counts of the development set.
    func testTheShippedTableComesFromTheDevelopmentSet() {
        XCTAssertFalse(RulePrecision.estimates.isEmpty)
        for key in ["org.emend.hunspell HUNSPELL", "org.emend.harper SpellCheck"] {
            let record = RulePrecision.estimates[key]
            XCTAssertNotNil(record, key)
            XCTAssertGreaterThan(record?.fired ?? 0, 100, key)
            XCTAssertLessThanOrEqual(record?.right ?? 0, record?.fired ?? 0, key)
        }
    }
}
