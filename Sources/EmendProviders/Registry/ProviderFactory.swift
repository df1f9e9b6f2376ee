import CEmend
import EmendCore

/// Makes the provider for a discovered record when it is first chosen; nothing is loaded
/// before that. Tests replace it to count creations.
struct ProviderFactory: Sendable {
    var make: @Sendable (ProviderRecord, ProviderConfiguration) throws(EmendError) -> WritingProvider

    /// Plugins and manifests run in a provider host (IsolatedProvider, started on the first
    /// run) at `hostPath`; those config.toml trusts with `isolation = "none"` run in process:
    /// plugins as PluginProvider (which dlopens on its first run), manifests as SimpleFormProvider.
    /// A plugin found broken (its host kept crashing) is remembered in the discovery cache at
    /// `cachePath`, so later processes list it as broken too.
    /// `route` says whether hosts are this process's children or the checker service's.
    static func standard(logger: @escaping @Sendable (String) -> Void, hostPath: String?, cachePath: String?,
                         route: HostRoute = .ownProcesses) -> ProviderFactory {
        ProviderFactory { (record, configuration) throws(EmendError) -> WritingProvider in
            let remember: @Sendable (String) -> Void = { reason in
                if let cachePath { DiscoveryCache.rememberBroken(path: record.path, reason: reason, cachePath: cachePath) }
            }
            switch (configuration.isolation(for: record.id), record.kind) {
            case (.none, .plugin):
                return PluginProvider(record: record, settings: configuration.settingPairs(for: record.id), logger: logger)
            case (.none, .simple):
                return try SimpleFormProvider(manifestPath: record.path, settings: configuration.settings(for: record.id))
            case (.process, .plugin):
                return IsolatedProvider(record: record, settings: configuration.settings(for: record.id),
                                        limits: configuration.limits(for: record.id), executable: hostPath,
                                        writesMarkdown: record.outputs & UInt32(EMEND_OUTPUT_MARKDOWN) != 0,
                                        sandbox: configuration.sandbox(for: record), route: route, logger: logger,
                                        onBroken: remember)
            case (.process, .simple):
                // Parsed here too, so that a bad manifest or setting fails as it does in process.
                _ = try SimpleFormProvider(manifestPath: record.path, settings: configuration.settings(for: record.id))
                return IsolatedProvider(record: record, settings: configuration.settings(for: record.id),
                                        limits: configuration.limits(for: record.id), executable: hostPath,
                                        writesMarkdown: false, sandbox: configuration.sandbox(for: record), route: route, logger: logger,
                                        onBroken: remember)
            }
        }
    }
}
