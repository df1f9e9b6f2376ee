import EmendCore

/// What the combined proofreader must know of one checker besides the checker itself: the
/// languages it serves and its own time limit. Why apart from the provider: both come from
/// the catalog (the plugin's descriptor, the user's config.toml), not from the checker's code.
public struct MemberTerms: Sendable, Equatable {
    /// BCP 47 tags it serves; "*" (or none listed) for any.
    public var languages: [String]
    /// `[providers."ID"] timeout_ms`: its time limit for a text of `MemberTimeLimit.unitBytes`
    /// (longer texts get proportionally more); nil for the default.
    public var timeoutMilliseconds: Int64?

    public init(languages: [String] = ["*"], timeoutMilliseconds: Int64? = nil) {
        self.languages = languages
        self.timeoutMilliseconds = timeoutMilliseconds
    }

    /// Whether it serves `language`: a tag it lists, or one of the same language ("en" serves
    /// "en-GB"; "en-US" serves "en-GB" too: a checker that knows one English knows English).
    public func serves(_ language: String) -> Bool {
        if languages.isEmpty || languages.contains("*") { return true }
        let wanted = Self.primary(language)
        return languages.contains { Self.primary($0) == wanted }
    }

    private static func primary(_ tag: String) -> String {
        String(tag.lowercased().split(separator: "-", maxSplits: 1).first ?? "")
    }
}

/// How long one checker may take on a request, from its own start. Why it grows with the
/// text: a grammar checker's time is roughly proportional to the text; one fixed limit either
/// cut large files short (LanguageTool on 1 MB) or waited long for a hung checker on a line.
public struct MemberTimeLimit: Sendable, Equatable {
    /// The limit for a text up to `unitBytes` when config.toml sets none.
    public static let defaultMilliseconds: Int64 = 30_000
    /// Each further `unitBytes` of text adds the base limit again.
    public static let unitBytes = 256 * 1024

    public var milliseconds: Int64
    /// The setting that bounded it, for the message of a time-out.
    public var setting: String

    /// What a person raises when the whole run's limit, not the checker's own, left it out.
    public static let runSetting = "the command's time limit: emend --timeout, the editor's provider timeout"

    /// The time kept before the whole run's limit `overall` (or its deadline) in which the
    /// combination still answers with what the others found.
    public static func answerMargin(overall: Int64) -> Int64 { min(2_000, max(0, overall) / 10) }

    /// The limit of the checker `providerID` with `terms` on a request of `textBytes`, within
    /// the whole run's limit `overall` (the coordinator's: the command's `--timeout`), less
    /// a margin in which the combination still answers. A request with a deadline
    /// (`ProviderRequest.deadline`) passes nil and is bounded by that instant instead.
    public static func of(_ providerID: String, terms: MemberTerms, textBytes: Int, overall: Int64?) -> MemberTimeLimit {
        let base = max(1, terms.timeoutMilliseconds ?? defaultMilliseconds)
        let units = Int64(max(0, textBytes - 1) / unitBytes)
        let own = base.multipliedReportingOverflow(by: units + 1)
        var limit = MemberTimeLimit(milliseconds: own.overflow ? .max : own.partialValue,
                                    setting: "[providers.\"\(providerID)\"] timeout_ms in config.toml")
        if let overall, overall > 0 {
            let margin = answerMargin(overall: overall)
            if overall - margin < limit.milliseconds {
                limit = MemberTimeLimit(milliseconds: max(1, overall - margin), setting: runSetting)
            }
        }
        return limit
    }
}
