import EmendCore

/// Makes the provider for a discovered record when it is first chosen; nothing is loaded
/// before that. Tests replace it to count creations.
struct ProviderFactory: Sendable {
    var make: @Sendable (ProviderRecord, ProviderConfiguration) throws(EmendError) -> WritingProvider

    /// Plugins become PluginProvider (which dlopens on its first run), manifests
    /// SimpleFormProvider.
    static func standard(logger: @escaping @Sendable (String) -> Void) -> ProviderFactory {
        ProviderFactory { (record, configuration) throws(EmendError) -> WritingProvider in
            switch record.kind {
            case .plugin:
                return PluginProvider(record: record, settings: configuration.settingPairs(for: record.id), logger: logger)
            case .simple:
                return try SimpleFormProvider(manifestPath: record.path, settings: configuration.settings(for: record.id))
            }
        }
    }
}
