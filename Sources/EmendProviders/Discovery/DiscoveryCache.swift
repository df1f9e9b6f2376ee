import EmendCore

/// What earlier scans found, keyed by path, mtime (ns) and size, so that a warm start runs
/// no scanner and loads nothing. Stored as `key=value` lines; a cache that cannot be read
/// completely is ignored as a whole.
struct DiscoveryCache: Equatable {
    /// Identifies one version of a file.
    struct Key: Equatable {
        var path: String
        var modified: Int64
        var size: Int64

        /// The key of the file as it is now; a missing file gets (-1, -1).
        static func current(_ path: String) -> Key {
            let status = FileStatus.of(path)
            return Key(path: path, modified: status?.modified ?? -1, size: status?.size ?? -1)
        }
    }

    /// The verdict on one file.
    struct Entry: Equatable {
        var key: Key
        /// For a simple-form manifest: the library it names (its changes count too).
        var dependency: Key?
        var verdict: Verdict
    }

    enum Verdict: Equatable {
        case record(ProviderRecord)
        case broken(String)
    }

    /// The first line; a different one (older format, other ABI) means an empty cache.
    static let header = "emend-provider-cache 1 abi 1"

    var entries: [String: Entry] = [:]

    /// The entry for `key` if it is still current (and its dependency too).
    func entry(for key: Key) -> Entry? {
        guard let entry = entries[key.path], entry.key == key else { return nil }
        if let dependency = entry.dependency, Key.current(dependency.path) != dependency { return nil }
        return entry
    }

    /// The cache at `path`; empty when missing, unreadable, writable by others or corrupt.
    static func load(from path: String) -> DiscoveryCache {
        guard let status = FileStatus.of(path), status.isRegularFile, !status.isWritableByOthers,
              case .success(let text) = TextFile.read(path) else { return DiscoveryCache() }
        return parse(text) ?? DiscoveryCache()
    }

    /// Writes the cache atomically; false on failure.
    @discardableResult
    func write(to path: String) -> Bool {
        TextFile.writeAtomically(serialized(), to: path, mode: 0o600)
    }

    static func parse(_ text: String) -> DiscoveryCache? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: true)
        guard lines.first == Substring(header) else { return nil }
        var cache = DiscoveryCache()
        var block: [Substring] = []
        for line in lines.dropFirst() + ["[file]"] {
            guard line == "[file]" else { block.append(line); continue }
            if !block.isEmpty {
                guard let fields = LineEscaping.fields(block), let entry = entry(from: fields) else { return nil }
                cache.entries[entry.key.path] = entry
            }
            block = []
        }
        return cache
    }

    func serialized() -> String {
        var out = Self.header + "\n"
        for path in entries.keys.sorted() {
            guard let entry = entries[path] else { continue }
            out += "[file]\n"
            var fields: [(String, String)] = [("path", entry.key.path), ("mtime", String(entry.key.modified)), ("size", String(entry.key.size))]
            if let dependency = entry.dependency {
                fields += [("depends", dependency.path), ("depends-mtime", String(dependency.modified)),
                           ("depends-size", String(dependency.size))]
            }
            switch entry.verdict {
            case .broken(let reason):
                fields += [("status", "broken"), ("reason", reason)]
            case .record(let r):
                fields += [("status", "ok"), ("kind", r.kind.rawValue), ("id", r.id), ("name", r.name),
                           ("version", r.version), ("tools", String(ScanReport.bits(of: r.tools))),
                           ("languages", r.languages.joined(separator: ",")), ("outputs", String(r.outputs)),
                           ("streams", String(r.streams)), ("network", String(r.usesNetwork)),
                           ("priority", String(r.priority)), ("paths", r.declaredPaths.joined(separator: "\n"))]
            }
            for (key, value) in fields { out += key + "=" + LineEscaping.escape(value) + "\n" }
        }
        return out
    }

    private static func entry(from f: [String: String]) -> Entry? {
        guard let path = f["path"], let modified = f["mtime"].flatMap({ Int64($0) }),
              let size = f["size"].flatMap({ Int64($0) }) else { return nil }
        var dependency: Key?
        if let dependsPath = f["depends"] {
            guard let m = f["depends-mtime"].flatMap({ Int64($0) }), let s = f["depends-size"].flatMap({ Int64($0) }) else { return nil }
            dependency = Key(path: dependsPath, modified: m, size: s)
        }
        let key = Key(path: path, modified: modified, size: size)
        switch f["status"] {
        case "broken":
            guard let reason = f["reason"] else { return nil }
            return Entry(key: key, dependency: dependency, verdict: .broken(reason))
        case "ok":
            guard let kind = f["kind"].flatMap(ProviderRecord.Kind.init(rawValue:)), let id = f["id"],
                  let name = f["name"], let version = f["version"],
                  let tools = f["tools"].flatMap({ UInt32($0) }), let languages = f["languages"],
                  let outputs = f["outputs"].flatMap({ UInt32($0) }),
                  let streams = f["streams"].flatMap({ Bool($0) }), let network = f["network"].flatMap({ Bool($0) }),
                  let priority = f["priority"].flatMap({ Int($0) }) else { return nil }
            var record = ProviderRecord(path: path, kind: kind, id: id, name: name, version: version,
                                        tools: ScanReport.tools(bits: tools), languages: ScanReport.languages(languages),
                                        outputs: outputs, streams: streams, usesNetwork: network, priority: priority)
            record.declaredPaths = ScanReport.paths(f["paths"])
            return Entry(key: key, dependency: dependency, verdict: .record(record))
        default:
            return nil
        }
    }
}
