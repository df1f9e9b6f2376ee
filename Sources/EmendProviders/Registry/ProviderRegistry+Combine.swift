import EmendCore
import EmendProofreading

extension ProviderRegistry: ProofreadingMembers {
    /// The one proofreader for `tool`, as `Proofreader` builds it for every front end: the
    /// checkers of `membersToCombine`, two or more as one `CombinedProofreader`, which decides
    /// between their suggestions with the evidence of all (`ProofreadingCombiner`) before any
    /// is shown. libemend's coordinators get it so; the CLI and the language server ask
    /// `Proofreader` themselves (the server with the checkers its client names).
    public func proofreader(for tool: WritingTool) throws(EmendError) -> WritingProvider {
        try Proofreader.proofreader(for: tool, listed: nil, in: self)
    }

    /// The checker `id` alone, wrapped as a combination of one (`Proofreader.named`): its
    /// time limit from config.toml, the filter, the completeness report.
    public func proofreader(for tool: WritingTool, named id: String) throws(EmendError) -> WritingProvider {
        try Proofreader.named([id], for: tool, in: self)
    }

    /// The providers whose proofreading `proofreader` combines: those `listed` (a front end's setting)
    /// or else those config.toml lists for the tool, in that order; else every enabled plugin
    /// that serves it (by priority); the built-in fixture only when nothing else serves the
    /// tool. Listed ones that are not installed, are off or broken are left out.
    public func membersToCombine(for tool: WritingTool, listed: [String]? = nil) throws(EmendError) -> [WritingProvider] {
        let candidates = candidates(for: tool)
        let listed = listed ?? configuration.toolOrder[tool] ?? []
        let chosen = listed.isEmpty
            ? candidates.filter { !$0.isBuiltin }
            : candidates.filter { listed.contains($0.id) }
                .sorted { listed.firstIndex(of: $0.id) ?? .max < listed.firstIndex(of: $1.id) ?? .max }
        var providers: [WritingProvider] = []
        for entry in chosen where tool != .proofread || proofreadingOffReason(entry.id) == nil {
            do throws(EmendError) {
                providers.append(try provider(for: tool, named: entry.id))
            } catch {
                continue   // marked broken by the registry; the others still work
            }
        }
        return providers.isEmpty ? [try provider(for: tool, named: nil)] : providers
    }

    /// A checker's languages (its descriptor's; a built-in serves any) and its
    /// `[providers."ID"] timeout_ms`.
    public func memberTerms(for providerID: String) -> MemberTerms {
        let entry = entries.first { $0.id == providerID }
        return MemberTerms(languages: entry?.record?.languages ?? ["*"],
                           timeoutMilliseconds: configuration.providerTimeouts[providerID])
    }

    /// Providers whose proofreading is off unless their table says `proofread = true`: the
    /// shipped llama plugin (providers/llama/README.md), which answers a proofread at once
    /// with nothing while it is off. Any provider is off with `proofread = false`.
    public static let proofreadingOffByDefault: Set<String> = ["org.emend.llama"]

    /// Why `id` does not take part in combined proofreading (its proofreading is off), or nil.
    /// Why not ask it: a member that answers at once with nothing looks like a checker that
    /// found nothing, and made a result look more complete than it was.
    public func proofreadingOffReason(_ id: String) -> String? {
        let setting = configuration.settings(for: id)["proofread"]?.boolean
        if setting == false { return "proofread = false in its [providers.\"\(id)\"] table" }
        if setting == nil && Self.proofreadingOffByDefault.contains(id) { return "its proofreading is off (set proofread = true in its [providers.\"\(id)\"] table)" }
        return nil
    }
}
