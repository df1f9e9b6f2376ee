extension DiscoveryCache {
    /// Records that the provider file at `path` is broken (its host kept crashing), so that
    /// every later discovery — the next editor, `emend providers` — lists it as broken with
    /// `reason` until the file changes, as it does for a file the scanner found broken. Only
    /// an entry for the file as it is now is changed: a file replaced since it was scanned
    /// gets a fresh chance.
    static func rememberBroken(path: String, reason: String, cachePath: String) {
        var cache = load(from: cachePath)
        guard var entry = cache.entries[path], entry.key == Key.current(path) else { return }
        entry.verdict = .broken(reason)
        cache.entries[path] = entry
        cache.write(to: cachePath)
    }
}
