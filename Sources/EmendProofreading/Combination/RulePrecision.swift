/// How often each checker's rule was right on the project's own labelled development set
/// (benchmarks/quality), and what the combiner concludes from it. Why counts and not a list of
/// bad rules: a rule seen a few times says less than one seen a hundred times, and a count
/// written by the benchmark (`RulePrecisionEstimates.swift`) is evidence anyone can regenerate;
/// a hand-kept list was a judgement.
public enum RulePrecision {
    /// One rule's record: flags on the right word (an error's changed word, a misspelt word),
    /// of all its flags (the rest fell elsewhere in a sentence with an error, on a correct or
    /// corrected sentence, or on a technical sentence).
    public struct Record: Sendable, Equatable {
        public var right: Int
        public var fired: Int
        public init(right: Int, fired: Int) {
            self.right = right
            self.fired = fired
        }

        /// The estimated precision: the share of right flags with a prior of
        /// `priorStrength` flags at `priorPrecision`. Why a prior: a rule that fired once on
        /// a correct sentence is not thereby always wrong, and one never seen keeps the prior.
        public var estimate: Double {
            (Double(right) + RulePrecision.priorPrecision * RulePrecision.priorStrength)
                / (Double(fired) + RulePrecision.priorStrength)
        }
    }

    /// What a rule never seen on the development set is taken to be worth: most of the
    /// checkers' rules that fired on it were right more often than not.
    public static let priorPrecision = 0.7
    /// How many flags the prior counts as.
    public static let priorStrength = 2.0

    /// The record of `ruleID` of the checker `providerID`, or nil when the set never saw it.
    public static func record(providerID: String, ruleID: String) -> Record? {
        estimates[providerID + " " + ruleID]
    }

    /// The estimated precision of a rule (the prior for one never seen).
    public static func estimate(providerID: String, ruleID: String) -> Double {
        record(providerID: providerID, ruleID: ruleID)?.estimate ?? priorPrecision
    }
}
