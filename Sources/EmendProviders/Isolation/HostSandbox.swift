import Glibc

/// What a provider host's sandbox lets one plugin do, decided by libemend from the plugin's
/// record and the user's config.toml and carried by CREATE; the host enters the sandbox
/// (include/emend_sandbox.h, Sources/CEmendSandbox) before it loads the plugin.
///
/// A plugin may read the system's libraries and data, its own file and directory, emend's
/// data and cache directories (models), the paths its settings name, the paths it declares
/// (its `emend_provider_read_paths` symbol, which the scanner reads), the paths the user
/// names in the `EMEND_` variables it declares there (`$EMEND_LLAMA_MODEL`) and the user's
/// `sandbox_paths`; it may write only a private runtime directory (`TMPDIR`), its own cache
/// directory (ProviderCacheDirectory: no other provider's) and the user's
/// `sandbox_write_paths`; it may connect over TCP only when it declares
/// EMEND_PROVIDER_USES_NETWORK (the registry runs such a plugin only with `network = true`).
public struct HostSandbox: Sendable, Equatable {
    /// false: `sandbox = "off"` for this provider (the user trusts it).
    public var enabled: Bool
    public var network: Bool
    /// Absolute paths the plugin may read (files or directories; missing ones are skipped).
    public var readPaths: [String]
    /// Absolute paths it may also write: its own cache directory and what the user grants
    /// (`sandbox_write_paths`).
    public var writePaths: [String]

    public init(enabled: Bool, network: Bool, readPaths: [String], writePaths: [String] = []) {
        self.enabled = enabled
        self.network = network
        self.readPaths = readPaths
        self.writePaths = writePaths
    }

    /// The sandbox of the plugin at `record`, with its `settings` and the user's own extra
    /// `userPaths` (`sandbox_paths`) and `userWritePaths` (`sandbox_write_paths`).
    static func policy(record: ProviderRecord, settings: TOMLTable, enabled: Bool, userPaths: [String],
                       userWritePaths: [String] = [],
                       environment: [String: String] = ProcessEnvironment.current) -> HostSandbox {
        let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        var paths: [String] = [record.path, directory(of: record.path)]
        let data = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home.map { $0 + "/.local/share" }
        let cache = environment["XDG_CACHE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home.map { $0 + "/.cache" }
        let emendDirectories = [data, cache].compactMap { $0.map { $0 + "/emend" } }
        paths += emendDirectories
        for key in settings.keys {
            guard let value = settings[key] else { continue }
            paths += namedPaths(in: value, home: home)
        }
        var declared = record.declaredPaths
        // A simple-form manifest names the library its host loads: declared like the rest.
        if record.kind == .simple, let manifest = try? SimpleManifest.load(path: record.path),
           manifest.libraryPath.hasPrefix("/") {
            declared += [manifest.libraryPath, directory(of: manifest.libraryPath)]
        }
        for path in declared where path.hasPrefix("/") && acceptable(path, home: home, allowed: emendDirectories) {
            paths.append(path)
        }
        // `$EMEND_NAME`: the file the user named in a variable the plugin reads (the host
        // passes EMEND_ variables through), e.g. the model of EMEND_LLAMA_MODEL: the user's
        // choice, as a path in its settings is; the plugin names only the variable.
        for variable in declared where variable.hasPrefix("$EMEND_") {
            if let value = environment[String(variable.dropFirst())], let path = expand(value, home: home), path != "/" {
                paths.append(path)
            }
        }
        paths += userPaths.compactMap { expand($0, home: home) }
        var seen = Set<String>()
        // Granted only once it is this user's own real directory (not a symbolic link that
        // would lead the grant elsewhere); HostEnvironment names it to the plugin then too.
        let ownCache = ProviderCacheDirectory.path(for: record.id, environment: environment)
            .flatMap { ProviderCacheDirectory.prepare($0) ? [$0] : nil } ?? []
        return HostSandbox(enabled: enabled, network: record.usesNetwork, readPaths: paths.filter { seen.insert($0).inserted },
                           writePaths: ownCache + userWritePaths.compactMap { expand($0, home: home) })
    }

    /// The absolute paths a setting names: a whole value that is one, and each word of a
    /// command line that is one (`command = "python3 -u /opt/checker.py"`).
    static func namedPaths(in value: TOMLValue, home: String?) -> [String] {
        switch value {
        case .string(let text):
            var found: [String] = []
            if let whole = expand(text, home: home) { found.append(whole) }
            for word in text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "=" }) {
                let trimmed = word.trimmingQuotes()
                if trimmed != text, let path = expand(trimmed, home: home) { found.append(path) }
            }
            return found
        case .array(let items):
            return items.flatMap { namedPaths(in: $0, home: home) }
        default:
            return []
        }
    }

    /// `text` as an absolute path (`~/` expanded), or nil when it is not one.
    static func expand(_ text: String, home: String?) -> String? {
        if text.hasPrefix("/") { return text }
        if text.hasPrefix("~/"), let home { return home + text.dropFirst(1) }
        return nil
    }

    /// The places in the home directory a plugin can never declare for itself: keys,
    /// tokens, credentials, other programs' settings and histories. (The user can still grant
    /// them with `sandbox_paths`.)
    static let secretPlaces = [".ssh", ".gnupg", ".aws", ".azure", ".kube", ".docker", ".config", ".netrc",
                               ".password-store", ".pki", ".mozilla", ".git-credentials", ".gitconfig", ".npmrc",
                               ".pypirc", ".cargo/credentials", ".cargo/credentials.toml", ".bash_history",
                               ".zsh_history", ".python_history", ".lesshst", ".viminfo", ".local/share/keyrings",
                               ".local/state", ".cache", ".local/share"]

    /// Whether a plugin may declare `path` for itself (resolved: a symbolic link is judged by
    /// where it leads): never `/`, the home directory or a directory above it, nor one of the
    /// `secretPlaces` or anything in them — but emend's own data and cache directories.
    static func acceptable(_ path: String, home: String?, allowed: [String]) -> Bool {
        guard let resolved = resolve(path) else { return false }
        if resolved == "/" { return false }
        if allowed.compactMap(resolve).contains(where: { resolved == $0 || resolved.hasPrefix($0 + "/") }) { return true }
        guard let home = home.flatMap(resolve) else { return true }
        if resolved == home || home.hasPrefix(resolved + "/") { return false }
        return !secretPlaces.contains { place in
            let secret = home + "/" + place
            return resolved == secret || resolved.hasPrefix(secret + "/")
        }
    }

    /// The canonical form of an existing path (nil when it does not exist).
    static func resolve(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    func encode(into encoder: inout FrameEncoder) {
        encoder.u8(enabled ? 1 : 0)
        encoder.u8(network ? 1 : 0)
        encoder.u32(UInt32(readPaths.count))
        for path in readPaths { encoder.string(path) }
        encoder.u32(UInt32(writePaths.count))
        for path in writePaths { encoder.string(path) }
    }

    static func decode(_ decoder: inout FrameDecoder) throws(ProtocolViolation) -> HostSandbox {
        let enabled = try decoder.u8() != 0
        let network = try decoder.u8() != 0
        func paths() throws(ProtocolViolation) -> [String] {
            let count = try decoder.u32()
            guard count <= 4096 else { throw ProtocolViolation("\(count) sandbox paths") }
            var paths: [String] = []
            for _ in 0..<count { paths.append(try decoder.string()) }
            return paths
        }
        let read = try paths()
        return HostSandbox(enabled: enabled, network: network, readPaths: read, writePaths: try paths())
    }
}

extension Substring {
    fileprivate func trimmingQuotes() -> String {
        var text = self
        while let first = text.first, first == "'" || first == "\"" { text = text.dropFirst() }
        while let last = text.last, last == "'" || last == "\"" || last == "," { text = text.dropLast() }
        return String(text)
    }

}
