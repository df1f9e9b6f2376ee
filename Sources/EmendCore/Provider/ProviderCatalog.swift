/// Where a coordinator finds the provider for a tool: a fixed list, or the registry of
/// discovered plugins.
public protocol ProviderCatalog: Sendable {
    /// The provider named `id` (which must serve `tool`), or the preferred one for `tool`.
    func provider(for tool: WritingTool, named id: String?) throws(EmendError) -> WritingProvider
    /// The providers whose results are combined for `tool` (proofread: spelling + grammar),
    /// most preferred first; where one provider's suggestion overlaps another's, the more
    /// preferred one wins.
    func providersToCombine(for tool: WritingTool) throws(EmendError) -> [WritingProvider]
}

extension ProviderCatalog {
    /// By default one provider does the work.
    public func providersToCombine(for tool: WritingTool) throws(EmendError) -> [WritingProvider] {
        [try provider(for: tool, named: nil)]
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
