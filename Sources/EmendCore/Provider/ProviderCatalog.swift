/// Where a coordinator finds the provider for a tool: a fixed list, or the registry of
/// discovered plugins.
public protocol ProviderCatalog: Sendable {
    /// The provider named `id` (which must serve `tool`), or the preferred one for `tool`.
    func provider(for tool: WritingTool, named id: String?) throws(EmendError) -> WritingProvider
    /// The one provider that proofreads when none is named. Why one: several checkers
    /// (spelling + grammar) are combined before the coordinator sees them, the same way in
    /// every front end (EmendProofreading's `Proofreader`), so the session has one provider's
    /// suggestions to deliver and nothing to merge.
    func proofreader(for tool: WritingTool) throws(EmendError) -> WritingProvider
    /// The proofreader made of the one checker `id` (an engine's or a request's choice):
    /// built as `proofreader(for:)` builds its combination, so a named checker gets the
    /// same filter, time limit, completeness report and language detection as the default.
    func proofreader(for tool: WritingTool, named id: String) throws(EmendError) -> WritingProvider
}

extension ProviderCatalog {
    /// By default the preferred provider does the work.
    public func proofreader(for tool: WritingTool) throws(EmendError) -> WritingProvider {
        try provider(for: tool, named: nil)
    }

    /// By default the named provider does the work as it is.
    public func proofreader(for tool: WritingTool, named id: String) throws(EmendError) -> WritingProvider {
        try provider(for: tool, named: id)
    }
}

/// A catalog over a fixed list: the first provider that serves a tool is preferred.
public struct ProviderList: ProviderCatalog {
    public let providers: [WritingProvider]
    public init(_ providers: [WritingProvider]) { self.providers = providers }

    public func provider(for tool: WritingTool, named id: String?) throws(EmendError) -> WritingProvider {
        if let id {
            guard let named = providers.first(where: { $0.id == id }) else {
                throw EmendError(.notFound, "no provider \"\(id)\"")
            }
            guard named.tools.contains(tool) else {
                throw EmendError(.unsupported, "provider \"\(id)\" does not serve \(tool.name)")
            }
            return named
        }
        guard let any = providers.first(where: { $0.tools.contains(tool) }) else {
            throw EmendError(.unsupported, "no provider serves \(tool.name)")
        }
        return any
    }
}
