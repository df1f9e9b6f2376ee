import EmendProofreading

extension PersonalDictionary {
    /// `$XDG_CONFIG_HOME/emend` (or `~/.config/emend`): next to config.toml, whose place
    /// this module knows.
    public static func standardDirectory(environment: [String: String]) -> String? {
        guard let config = ProviderSearchPath.configFile(environment: environment) else { return nil }
        return String(config.dropLast("/config.toml".utf8.count))
    }

    /// Reads both files from the standard directory. Unreadable files count as empty: a
    /// broken word list must not stop proofreading.
    public static func load(environment: [String: String]) -> PersonalDictionary {
        load(directory: standardDirectory(environment: environment))
    }
}
