import EmendCore

/// What the registry lists for engines: every entry, then every broken file.
extension ProviderRegistry: ProviderListing {
    public var summaries: [ProviderSummary] {
        let usable = entries.map { entry -> ProviderSummary in
            let record = entry.record
            return ProviderSummary(
                id: entry.id, name: record?.name ?? entry.id, version: record?.version ?? "", path: record?.path ?? "",
                tools: entry.tools, languages: record?.languages ?? ["*"], streams: record?.streams ?? false,
                usesNetwork: record?.usesNetwork ?? false, builtIn: entry.isBuiltin, simpleForm: record?.kind == .simple,
                priority: entry.priority, enabled: entry.isEnabled, reason: entry.disabledReason ?? "")
        }
        let broken = discovery.broken.map { file in
            ProviderSummary(id: "", name: "", version: "", path: file.path, tools: [], languages: [], streams: false,
                            usesNetwork: false, builtIn: false, simpleForm: false, priority: 0, enabled: false,
                            reason: "broken: \(file.reason)")
        }
        return usable + broken
    }
}
