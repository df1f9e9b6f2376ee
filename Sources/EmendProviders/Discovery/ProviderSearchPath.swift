import Glibc

/// The directories searched for providers, earliest first:
/// `EMEND_PROVIDER_PATH` (colon separated), `$XDG_DATA_HOME/emend/providers` (default
/// `~/.local/share/emend/providers`), then `<libdir>/emend/providers` next to libemend.
public enum ProviderSearchPath {
    public static func standard(environment: [String: String], libraryDirectory: String?) -> [String] {
        var directories: [String] = []
        for entry in (environment["EMEND_PROVIDER_PATH"] ?? "").split(separator: ":") where !entry.isEmpty {
            directories.append(absolute(String(entry)))
        }
        if let data = dataHome(environment) { directories.append(data + "/emend/providers") }
        if let libraryDirectory, !libraryDirectory.isEmpty {
            directories.append(absolute(libraryDirectory) + "/emend/providers")
        }
        var seen = Set<String>()
        return directories.map(trimmed).filter { seen.insert($0).inserted }
    }

    /// `$XDG_DATA_HOME` if absolute, else `$HOME/.local/share`.
    static func dataHome(_ environment: [String: String]) -> String? {
        xdg(environment, "XDG_DATA_HOME", fallback: ".local/share")
    }

    /// `$XDG_CACHE_HOME/emend/providers.cache` (default `~/.cache/...`).
    public static func cacheFile(environment: [String: String]) -> String? {
        xdg(environment, "XDG_CACHE_HOME", fallback: ".cache").map { $0 + "/emend/providers.cache" }
    }

    /// `$XDG_CONFIG_HOME/emend/config.toml` (default `~/.config/...`).
    public static func configFile(environment: [String: String]) -> String? {
        xdg(environment, "XDG_CONFIG_HOME", fallback: ".config").map { $0 + "/emend/config.toml" }
    }

    /// An XDG base directory: the variable when it is an absolute path (the specification
    /// says to ignore relative ones), else `$HOME/<fallback>`; nil without either.
    private static func xdg(_ environment: [String: String], _ name: String, fallback: String) -> String? {
        if let value = environment[name], value.hasPrefix("/") { return trimmed(value) }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return trimmed(home) + "/" + fallback
    }

    /// A path made absolute against the current directory.
    private static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return path }
        let cwd = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return (cwd == "/" ? "" : cwd) + "/" + path
    }

    /// Without trailing slashes ("/" stays).
    private static func trimmed(_ path: String) -> String {
        var path = path
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        return path
    }
}
