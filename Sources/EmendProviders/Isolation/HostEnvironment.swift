import Glibc

/// The provider host's environment, with the Swift runtime's backtracer off (a plugin that
/// crashes ends its host at once instead of a backtrace being written to /dev/null first).
///
/// A sandboxed host gets a clean environment, never libemend's own (an editor's environment
/// holds API keys and tokens of every kind): the fixed `allowlist` (paths, locale, time zone,
/// emend's own variables) plus the variables the provider's settings name — the value of
/// every setting whose key ends in `_env` (`api_key_env = "OPENAI_API_KEY"`), for that
/// provider only — and, for a provider that may use the network, the proxy variables. Every
/// host (sandboxed or not) is told its provider's own cache directory in
/// `EMEND_PROVIDER_CACHE_DIR` (ProviderCacheDirectory, created here), never an inherited one. It is
/// made here, before the host starts, because a variable the host removed itself would still
/// sit in its memory. `sandbox = "off"` passes libemend's whole environment, as before.
enum HostEnvironment {
    /// The variables every sandboxed host and the scanner keep (a trailing `*`: a prefix).
    /// Not TERM: a plugin has no terminal, and front ends would differ in it (an editor's
    /// child has "dumb", a terminal's command "xterm-256color"), so the checker service, which
    /// shares a host between front ends whose host environments are equal, would start one
    /// host of each checker per kind of front end.
    static let allowlist = ["PATH", "HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "LC_*", "TZ",
                            "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_DIRS", "XDG_RUNTIME_DIR",
                            "EMEND_*", "LD_LIBRARY_PATH", "SSL_CERT_FILE", "SSL_CERT_DIR", "PYTHONHASHSEED"]
    /// Kept only for a provider that may use the network.
    static let networkAllowlist = ["http_proxy", "https_proxy", "no_proxy", "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY",
                                   "ALL_PROXY", "all_proxy"]

    /// NUL-terminated entries for posix_spawn (free each; the array ends with nil).
    static func make(for create: HostCreate? = nil) -> [UnsafeMutablePointer<CChar>?] {
        var names: [String]? = nil
        // EMEND_SANDBOX_SKIP (tests: the attack works without the layer) may name this layer too.
        let skipped = getenv("EMEND_SANDBOX_SKIP").map { String(cString: $0).split(separator: ",").contains("environment") } ?? false
        if let create, create.sandbox.enabled, !skipped {
            names = allowlist + (create.sandbox.network ? networkAllowlist : []) + namedVariables(create.settings)
        }
        var added: [String] = []
        if let create, let cache = ProviderCacheDirectory.path(for: create.id, environment: ProcessEnvironment.current),
           ProviderCacheDirectory.prepare(cache) {
            added.append(ProviderCacheDirectory.variable + "=" + cache)
        }
        return entries(keeping: names, adding: added)
    }

    /// The same entries as strings, sorted: what a front end sends the checker service, which
    /// starts the host with exactly these (never with its own environment). Front ends whose
    /// entries are the same share a host there, whatever order their environments had.
    static func strings(for create: HostCreate?) -> [String] {
        let entries = make(for: create)
        defer { for entry in entries { free(entry) } }
        return entries.compactMap { $0.map { String(cString: $0) } }.sorted()
    }

    /// The variables `settings` name (values of `*_env` keys that look like variable names).
    static func namedVariables(_ settings: TOMLTable) -> [String] {
        settings.keys.compactMap { key -> String? in
            guard key.hasSuffix("_env"), let name = settings[key]?.string, !name.isEmpty, !name.hasSuffix("*"),
                  name.utf8.allSatisfy({ $0 == 95 || ($0 >= 48 && $0 <= 57) || ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) })
            else { return nil }
            return name
        }
    }

    /// libemend's environment, only the variables `names` allows (nil: all), `added`, and the
    /// backtracer off. An inherited EMEND_PROVIDER_CACHE_DIR is dropped: only libemend names
    /// a provider's cache directory.
    static func entries(keeping names: [String]?, adding added: [String] = []) -> [UnsafeMutablePointer<CChar>?] {
        var entries: [UnsafeMutablePointer<CChar>?] = []
        var index = 0
        let cachePrefix = ProviderCacheDirectory.variable + "="
        while let entry = environ[index] {
            index += 1
            if strncmp(entry, "SWIFT_BACKTRACE=", 16) == 0 || strncmp(entry, cachePrefix, cachePrefix.utf8.count) == 0 { continue }
            if let names, !allows(entry, names) { continue }
            entries.append(strdup(entry))
        }
        entries += added.map { strdup($0) }
        entries.append(strdup("SWIFT_BACKTRACE=enable=no"))
        entries.append(nil)
        return entries
    }

    private static func allows(_ entry: UnsafePointer<CChar>, _ names: [String]) -> Bool {
        let text = String(cString: entry)
        guard let equals = text.firstIndex(of: "=") else { return false }
        let name = text[..<equals]
        return names.contains { allowed in
            allowed.hasSuffix("*") ? name.hasPrefix(allowed.dropLast()) : name == allowed
        }
    }
}
