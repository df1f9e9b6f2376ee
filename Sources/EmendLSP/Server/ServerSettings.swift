import EmendCore

/// What the client can set (in `initializationOptions` or in the `emend` section of
/// `workspace/configuration`); anything left out falls back to `config.toml` and the
/// defaults below.
///
/// ```json
/// { "language": "en-GB",
///   "providers": { "proofread": ["org.emend.hunspell"], "rewrite": "org.emend.llama" },
///   "severity": { "spelling": "error", "grammar": "warning", "default": "information" },
///   "ignoredRules": ["LongSentences"],
///   "debounceMs": "auto" }
/// ```
public struct ServerSettings: Sendable, Equatable {
    /// BCP 47 tag for every request; nil: each provider's default (en-US).
    public var language: String?
    /// Providers per tool, most preferred first; proofread combines all of them.
    public var providers: [WritingTool: [String]] = [:]
    /// LSP severity (1 error … 4 hint) by suggestion category (lower case).
    public var severities: [String: Int] = ["spelling": 1, "grammar": 2, "style": 3]
    public var defaultSeverity = 3
    /// Rule ids not shown (beside the user's ignored-rules.txt).
    public var ignoredRules: Set<String> = []
    /// How long typing must pause before a changed paragraph is checked: a fixed time, or
    /// nil (the default, "auto") for `AdaptiveDebounce`: at once while the checkers answer a
    /// paragraph quickly, longer when they are slow.
    public var debounceMilliseconds: Int? = nil

    public init() {}

    public func severity(for category: String) -> Int {
        severities[category.lowercased()] ?? defaultSeverity
    }

    /// These settings with what `json` sets (an object; the `emend` section itself or an
    /// object holding it). Unknown keys are ignored; wrong types are reported.
    public func merged(with json: JSON?) -> (ServerSettings, [String]) {
        guard var object = json?.object else { return (self, []) }
        if let inner = object["emend"]?.object { object = inner }
        var settings = self
        var problems: [String] = []
        if let value = object["language"] {
            if let tag = value.string, !tag.isEmpty { settings.language = tag } else if value.isNull { settings.language = nil } else {
                problems.append("language must be a BCP 47 tag such as \"en-US\"")
            }
        }
        if let providers = object["providers"]?.object {
            for (name, value) in providers {
                guard let tool = ServerSettings.tool(named: name) else { problems.append("providers: unknown tool \"\(name)\""); continue }
                let ids = value.string.map { [$0] } ?? value.array?.compactMap(\.string) ?? []
                for target in ServerSettings.tools(for: tool) { settings.providers[target] = ids.isEmpty ? nil : ids }
            }
        }
        if let severity = object["severity"]?.object {
            for (category, value) in severity {
                guard let level = ServerSettings.severityLevel(value) else {
                    problems.append("severity.\(category): use error, warning, information or hint")
                    continue
                }
                if category == "default" { settings.defaultSeverity = level } else { settings.severities[category.lowercased()] = level }
            }
        }
        if let rules = object["ignoredRules"]?.array {
            settings.ignoredRules = Set(rules.compactMap(\.string))
        }
        if let debounce = object["debounceMs"] {
            if let ms = debounce.int, ms >= 0 {
                settings.debounceMilliseconds = ms
            } else if debounce.string == "auto" || debounce.isNull {
                settings.debounceMilliseconds = nil
            } else {
                problems.append("debounceMs must be a number ≥ 0 or \"auto\"")
            }
        }
        return (settings, problems)
    }

    static func severityLevel(_ value: JSON) -> Int? {
        if let level = value.int, (1...4).contains(level) { return level }
        switch value.string?.lowercased() {
        case "error": return 1
        case "warning": return 2
        case "information", "info": return 3
        case "hint": return 4
        default: return nil
        }
    }

    static func tool(named name: String) -> WritingTool? {
        if name == "rewrite" { return .rewriteFriendly }
        return WritingTool.allCases.first { $0.name == name }
    }

    /// "rewrite" names every tone.
    static func tools(for tool: WritingTool) -> [WritingTool] {
        tool == .rewriteFriendly ? [.rewriteFriendly, .rewriteProfessional, .rewriteConcise, .rewriteDescribed] : [tool]
    }
}
