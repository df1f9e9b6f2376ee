import EmendCore
import EmendProofreading

extension ProviderRegistry {
    /// The registry of a normal process: providers from the standard search path
    /// (`EMEND_PROVIDER_PATH`, `$XDG_DATA_HOME/emend/providers`, `<libdir>/emend/providers`),
    /// the cache in `$XDG_CACHE_HOME/emend/providers.cache`, the configuration in
    /// `$XDG_CONFIG_HOME/emend/config.toml` (XDG defaults under `$HOME`), and `builtins`
    /// after every discovered provider; the user's dictionary and ignored rules in
    /// `$XDG_CONFIG_HOME/emend`. Throws when the configuration file is invalid. Plugins run
    /// in `emend-provider-host`, found by ProviderHostLocator from `environment` and
    /// `libraryDirectory`: each process's own, or the per-user checker service's when
    /// `[service] hosts`, `EMEND_SERVICE` or else `serviceByDefault` (the CLI's and the
    /// language server's default, not libemend's) say so.
    public static func standard(environment: [String: String], libraryDirectory: String?, scannerPath: String?,
                                builtins: [WritingProvider], serviceByDefault: Bool = false,
                                logger: @escaping @Sendable (String) -> Void = { _ in }) throws(EmendError) -> ProviderRegistry {
        try standard(environment: environment, libraryDirectory: libraryDirectory, scannerPath: scannerPath, builtins: builtins,
                     hosts: serviceByDefault ? .serviceUnlessConfigured : .ownUnlessConfigured, logger: logger)
    }

    /// The same, with the front end's `hosts` preference said whole (libemend's
    /// emend_provider_hosts, which can also insist on own processes).
    public static func standard(environment: [String: String], libraryDirectory: String?, scannerPath: String?,
                                builtins: [WritingProvider], hosts: HostPreference,
                                logger: @escaping @Sendable (String) -> Void = { _ in }) throws(EmendError) -> ProviderRegistry {
        let configuration = try ProviderSearchPath.configFile(environment: environment)
            .map { path throws(EmendError) in try ProviderConfiguration.load(path: path) } ?? ProviderConfiguration()
        let discovery = ProviderDiscovery(
            searchPath: ProviderSearchPath.standard(environment: environment, libraryDirectory: libraryDirectory),
            cachePath: ProviderSearchPath.cacheFile(environment: environment),
            scannerPath: scannerPath)
        // A test's slow checker (see SlowFixtureChecker), only when the environment asks for it.
        let builtins = builtins + (SlowFixtureChecker.fromEnvironment(environment).map { [$0] } ?? [])
        return ProviderRegistry(discovery: discovery.run(), configuration: configuration, builtins: builtins,
                                dictionaryDirectory: PersonalDictionary.standardDirectory(environment: environment), logger: logger,
                                hostPath: ProviderHostLocator.locate(environment: environment, libraryDirectory: libraryDirectory),
                                cachePath: discovery.cachePath,
                                route: HostRoute.resolve(environment: environment, settings: configuration.service,
                                                         preference: hosts, logger: logger))
    }
}
