import EmendCore
import EmendProofreading

extension ProviderRegistry {
    /// The providers whose proofreading is combined: those config.toml lists for the tool
    /// (in its order), else every enabled plugin that serves it (by priority); the built-in
    /// fixture only when nothing else serves the tool. Two or more come back as one
    /// `CombinedProofreader`, which decides between their suggestions with the evidence of all
    /// (`ProofreadingCombiner`) before any is shown.
    public func providersToCombine(for tool: WritingTool) throws(EmendError) -> [WritingProvider] {
        let members = try membersToCombine(for: tool)
        return members.count > 1 ? [CombinedProofreader(members: members)] : members
    }

    /// The providers `providersToCombine` combines, one each.
    public func membersToCombine(for tool: WritingTool) throws(EmendError) -> [WritingProvider] {
        let candidates = candidates(for: tool)
        let listed = configuration.toolOrder[tool] ?? []
        let chosen = listed.isEmpty ? candidates.filter { !$0.isBuiltin } : candidates.filter { listed.contains($0.id) }
        var providers: [WritingProvider] = []
        for entry in chosen {
            do throws(EmendError) {
                providers.append(try provider(for: tool, named: entry.id))
            } catch {
                continue   // marked broken by the registry; the others still work
            }
        }
        return providers.isEmpty ? [try provider(for: tool, named: nil)] : providers
    }
}
