import Glibc

/// What a provider host's sandbox lets one plugin do, decided by libemend from the plugin's
/// record and the user's config.toml and carried by CREATE; the host enters the sandbox
/// (include/emend_sandbox.h, Sources/CEmendSandbox) before it loads the plugin.
///
/// A plugin may read the system's libraries and data, its own file and directory, emend's
/// data and cache directories (models), the paths its settings name, the paths it declares
/// next to its file (`PLUGIN.paths`, below) and the user's `sandbox_paths`; it may write only
/// a private runtime directory (`TMPDIR`); it may connect over TCP only when it declares
/// EMEND_PROVIDER_USES_NETWORK (the registry runs such a plugin only with `network = true`).
public struct HostSandbox: Sendable, Equatable {
    /// false: `sandbox = "off"` for this provider (the user trusts it).
    public var enabled: Bool
    public var network: Bool
    /// Absolute paths the plugin may read (files or directories; missing ones are skipped).
    public var readPaths: [String]
    /// Absolute paths it may also write: only what the user grants (`sandbox_write_paths`).
    public var writePaths: [String]

    public init(enabled: Bool, network: Bool, readPaths: [String], writePaths: [String] = []) {
        self.enabled = enabled
        self.network = network
        self.readPaths = readPaths
        self.writePaths = writePaths
    }

    /// The suffix of the file a plugin ships next to itself to declare the paths it reads
    /// (`harper.so.paths`): one absolute path a line, `#` starts a comment.
    public static let declarationSuffix = ".paths"

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
        for declared in declaredPaths(record.path) where acceptable(declared, home: home, allowed: emendDirectories) {
            paths.append(declared)
        }
        paths += userPaths.compactMap { expand($0, home: home) }
        var seen = Set<String>()
        return HostSandbox(enabled: enabled, network: record.usesNetwork, readPaths: paths.filter { seen.insert($0).inserted },
                           writePaths: userWritePaths.compactMap { expand($0, home: home) })
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

    /// The paths `PLUGIN.paths` declares (none when there is no such file).
    static func declaredPaths(_ pluginPath: String) -> [String] {
        guard case .success(let text) = TextFile.read(pluginPath + declarationSuffix) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            let content = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let path = content.trimmingSpaces()
            return path.hasPrefix("/") ? path : nil
        }
    }

    /// Whether a plugin may declare `path` for itself: never `/`, the home directory or
    /// anything in a hidden directory of it (~/.ssh, ~/.config, ~/.gnupg: the user's secrets),
    /// but emend's own data and cache directories. The user grants more with `sandbox_paths`.
    static func acceptable(_ path: String, home: String?, allowed: [String]) -> Bool {
        let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        if trimmed == "/" || trimmed.split(separator: "/").contains("..") { return false }
        if allowed.contains(where: { trimmed == $0 || trimmed.hasPrefix($0 + "/") }) { return true }
        guard let home else { return true }
        if trimmed == home { return false }
        if trimmed.hasPrefix(home + "/") { return !trimmed.dropFirst(home.count + 1).hasPrefix(".") }
        return true
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

    fileprivate func trimmingSpaces() -> String {
        var text = self
        while let first = text.first, first == " " || first == "\t" || first == "\r" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" || last == "\r" { text = text.dropLast() }
        return String(text)
    }
}
