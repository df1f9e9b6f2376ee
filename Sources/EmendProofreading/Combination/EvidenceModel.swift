/// What the combiner knows about each checker, from the project's own labelled development set
/// (benchmarks/quality: `bash benchmarks/quality/run.sh` prints the per-rule figures these
/// come from). Why a table and not a union: alone, each checker has rules that mostly fire on
/// correct text; together, a flag that others do not share needs to come from a rule that is
/// usually right.
public struct EvidenceModel: Sendable, Equatable {
    /// Providers that check spelling in every language they serve: for a spelling flag, the
    /// ones that stayed silent on the same word vote against it.
    public var spellers: Set<String>
    /// Preference among spelling suggestions when checkers disagree and nothing else decides:
    /// first is best. On the development set LingoTweaker's first spelling suggestion was right
    /// most often, then Hunspell's, then Harper's (which splits unknown words: "attemped" →
    /// "at temped"); see benchmarks/quality.
    public var spellingAuthority: [String]
    /// Rules whose flags on the development set were mostly false alarms: kept only when
    /// another checker flags the same span.
    public var needsCorroboration: Set<String>

    /// A flag no other checker raises is kept only when its rule's estimated precision
    /// (`RulePrecision`, from the development set) is at least this; two checkers flagging the
    /// same span are independent evidence and keep it whatever each rule's record. Spelling
    /// flags are weighed by the spellers' vote and the dictionaries instead (`keeps`).
    public var minimumLonePrecision: Double
    /// The estimated precision of a checker's rule; `RulePrecision.estimate` by default.
    public var precision: @Sendable (_ providerID: String, _ ruleID: String) -> Double

    public init(spellers: Set<String> = [], spellingAuthority: [String] = [], needsCorroboration: Set<String> = [],
                minimumLonePrecision: Double = 0.5,
                precision: @escaping @Sendable (String, String) -> Double = { RulePrecision.estimate(providerID: $0, ruleID: $1) }) {
        self.spellers = spellers
        self.spellingAuthority = spellingAuthority
        self.needsCorroboration = needsCorroboration
        self.minimumLonePrecision = minimumLonePrecision
        self.precision = precision
    }

    public static func == (a: EvidenceModel, b: EvidenceModel) -> Bool {
        a.spellers == b.spellers && a.spellingAuthority == b.spellingAuthority && a.needsCorroboration == b.needsCorroboration
            && a.minimumLonePrecision == b.minimumLonePrecision
    }

    /// The checkers that ship with Emend.
    public static let standard = EvidenceModel(
        spellers: ["org.emend.hunspell", "org.emend.harper", "org.emend.lingotweaker"],
        spellingAuthority: ["org.emend.lingotweaker", "org.emend.hunspell", "org.emend.harper"],
        // Rules that on the development set flagged only correct text, never an error
        // (benchmarks/quality, "per checker and rule": 0 right): LingoTweaker's THAN_I on a
        // corrected sentence, Harper's OrthographicConsistency on a corrected sentence and on
        // "aarch64", Harper's ModalBeAdjective on "can heard" ("can be", where "hear" is meant).
        needsCorroboration: ["THAN_I", "OrthographicConsistency", "ModalBeAdjective"])
}
