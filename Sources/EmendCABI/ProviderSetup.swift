import Glibc
import CEmendSystem
import EmendCore
import EmendProofreading
import EmendProviders
import CEmend

/// Where libemend finds its providers: the registry of discovered plugins (from the process
/// environment and the library's own directory) plus the built-in fixture provider. For
/// proofread the registry hands a coordinator one proofreader, built by `Proofreader`
/// (EmendProofreading) as the CLI and the language server build theirs.
enum ProviderSetup {
    /// The directory libemend.so (or the binary that holds this code) lives in.
    static var libraryDirectory: String? {
        guard let name = emendsys_image_path(#dsohandle) else { return nil }
        let path = String(cString: name)
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return String(path[..<slash])
    }

    /// The scanner executable: $EMEND_SCANNER, else <libdir>/emend/emend-scan, else
    /// <libdir>/emend-scan (a build directory).
    static func scannerPath(environment: [String: String], libraryDirectory: String?) -> String? {
        if let explicit = environment["EMEND_SCANNER"], !explicit.isEmpty { return explicit }
        guard let dir = libraryDirectory else { return nil }
        for candidate in ["\(dir)/emend/emend-scan", "\(dir)/emend-scan"] where access(candidate, X_OK) == 0 {
            return candidate
        }
        return "\(dir)/emend/emend-scan"
    }

    /// `detectsLanguage`: the engine set no language, so its proofreader checks each
    /// paragraph in the language it is written in, as the CLI and the language server do
    /// without one (`LanguageDetectingCatalog`). `hosts`: the engine's
    /// emend_coordinator_options.provider_hosts (see `hostPreference`).
    static func catalog(environment: [String: String], detectsLanguage: Bool, hosts: HostPreference,
                        logger: @escaping @Sendable (String) -> Void) throws(EmendError) -> ProviderCatalog {
        let directory = libraryDirectory
        let registry = try ProviderRegistry.standard(
            environment: environment, libraryDirectory: directory,
            scannerPath: scannerPath(environment: environment, libraryDirectory: directory),
            builtins: [FixtureProvider()], hosts: hosts, logger: logger)
        return detectsLanguage ? LanguageDetectingCatalog(base: registry) : registry
    }

    /// emend_provider_hosts as the registry's preference; nil for a value emend.h does not
    /// define. DEFAULT keeps what libemend did before the field: own processes unless
    /// config.toml says `[service] hosts = "service"`.
    static func hostPreference(_ hosts: emend_provider_hosts) -> HostPreference? {
        switch hosts {
        case EMEND_PROVIDER_HOSTS_DEFAULT: return .ownUnlessConfigured
        case EMEND_PROVIDER_HOSTS_SERVICE: return .serviceUnlessConfigured
        case EMEND_PROVIDER_HOSTS_OWN: return .ownProcesses
        default: return nil
        }
    }
}
