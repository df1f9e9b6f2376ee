/// What became of one provider's part in a result: why a result can be missing something.
/// Why an enum with the reason in each case: a front end shows the reason as it is ("did
/// not finish within 42 s; raise ..."), and "partial" is decided from the cases, not a flag.
public enum ProviderPart: Sendable, Equatable {
    /// It answered; its suggestions were weighed.
    case finished
    /// It did not answer within its time limit and was asked to stop; `setting` names what
    /// to raise (e.g. `[providers."ID"] timeout_ms in config.toml`).
    case timedOut(milliseconds: Int64, setting: String)
    /// It did not take part: it does not serve the request's language, or its proofreading
    /// is off. Nothing is missing that it was meant to give.
    case skipped(String)
    /// It failed (a crash, a missing dictionary, a refused request), with its reason.
    case failed(String)

    /// Whether the result lacks what this provider should have given.
    public var leavesGap: Bool {
        switch self {
        case .timedOut, .failed: return true
        case .finished, .skipped: return false
        }
    }
}

/// How complete a result is: each provider asked, and what became of its part. A result is
/// partial when a provider that took part timed out or failed; providers that did not take
/// part (`skipped`) are named but leave it complete.
public struct Completeness: Sendable, Equatable {
    public struct Part: Sendable, Equatable {
        public var providerID: String
        public var part: ProviderPart
        public init(providerID: String, part: ProviderPart) {
            self.providerID = providerID
            self.part = part
        }
    }

    /// A paragraph checked in another language than the request's, found by language
    /// detection (`LanguageDetectingProofreader`): which bytes of the request's text, and the
    /// language (a subtag such as "de") its checkers were asked for.
    public struct DetectedLanguage: Sendable, Equatable {
        public var range: Range<Int>
        public var language: String
        public init(range: Range<Int>, language: String) {
            self.range = range
            self.language = language
        }
    }

    /// In the order the providers were asked.
    public var parts: [Part]
    /// Paragraphs checked in a detected language, in text order; empty when detection was off
    /// or found every paragraph in the request's language.
    public var languages: [DetectedLanguage]

    public init(parts: [Part], languages: [DetectedLanguage] = []) {
        self.parts = parts
        self.languages = languages
    }

    /// Whether a provider that took part timed out or failed.
    public var isPartial: Bool { parts.contains { $0.part.leavesGap } }

    /// For people: "" when every provider asked finished; else one sentence per provider
    /// that did not, each with its reason (and for a time-out the setting to raise), those
    /// that leave a gap first. E.g. "partial result: org.emend.harper did not finish within
    /// 42000 ms and was left out (raise [providers."org.emend.harper"] timeout_ms in config.toml)".
    public var message: String {
        let lines = parts.filter(\.part.leavesGap).map(\.sentence)
            + parts.filter { !$0.part.leavesGap && $0.part != .finished }.map(\.sentence)
        guard !lines.isEmpty else { return "" }
        return (isPartial ? "partial result: " : "") + lines.joined(separator: "; ")
    }
}

extension Completeness.Part {
    /// What became of this provider's part, in a sentence that names it ("" when finished).
    public var sentence: String {
        switch part {
        case .finished:
            return ""
        case .timedOut(let milliseconds, let setting):
            return "\(providerID) did not finish within \(milliseconds) ms and was left out (raise \(setting))"
        case .failed(let why):
            // Messages that already name the provider keep their words.
            return why.hasPrefix(providerID) ? "\(why) (left out)" : "\(providerID) failed and was left out: \(why)"
        case .skipped(let why):
            return "\(providerID) did not take part: \(why)"
        }
    }
}
