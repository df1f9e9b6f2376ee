import Glibc

/// Finds provider files in the search path and says what each one provides, without
/// loading any of them into this process: new or changed files are probed by the scanner
/// (emend-scan) in child processes with a time limit, and the verdicts are cached.
///
/// Rules: only `*.so` (plugins) and `*.toml` (simple-form manifests) directly in each
/// directory; a file name found earlier hides the same name later; files, directories and
/// manifest libraries writable by other users are refused; the first file to declare an id
/// keeps it.
public struct ProviderDiscovery: Sendable {
    public var searchPath: [String]
    /// The cache file; nil to scan every time.
    public var cachePath: String?
    /// The emend-scan executable.
    public var scannerPath: String?
    /// Time limit for one scan, after which the scanner is killed.
    public var timeoutMilliseconds: Int
    /// Scans running at the same time.
    public var parallelScans: Int

    public init(searchPath: [String], cachePath: String?, scannerPath: String?,
                timeoutMilliseconds: Int = 2000, parallelScans: Int = 4) {
        self.searchPath = searchPath
        self.cachePath = cachePath
        self.scannerPath = scannerPath
        self.timeoutMilliseconds = timeoutMilliseconds
        self.parallelScans = parallelScans
    }

    /// One file waiting for the scanner.
    private struct Probe {
        var slot: Int
        var key: DiscoveryCache.Key
        var dependency: DiscoveryCache.Key?
        var arguments: [String]
        /// For a manifest: what it provides if the library checks out.
        var manifestRecord: ProviderRecord?
    }

    public func run() -> DiscoveryResult {
        let oldCache = cachePath.map(DiscoveryCache.load(from:)) ?? DiscoveryCache()
        var newCache = DiscoveryCache()
        var result = DiscoveryResult()
        var slots: [(path: String, verdict: DiscoveryCache.Verdict?)] = []
        var probes: [Probe] = []
        var names = Set<String>()

        for directory in searchPath {
            guard let dirStatus = FileStatus.of(directory), dirStatus.isDirectory else { continue }
            if let refusal = PermissionCheck.refusal(directory: directory, status: dirStatus) {
                slots.append((directory, .broken(refusal)))
                continue
            }
            guard let files = DirectoryListing.providerFiles(in: directory) else {
                slots.append((directory, .broken("directory \(directory) cannot be read")))
                continue
            }
            for name in files {
                let path = (directory == "/" ? "" : directory) + "/" + name
                guard names.insert(name).inserted else { result.shadowed.append(path); continue }
                guard let status = FileStatus.of(path) else {
                    slots.append((path, .broken("a symbolic link to nothing")))
                    continue
                }
                guard status.isRegularFile else {
                    slots.append((path, .broken("not a regular file")))
                    continue
                }
                if let refusal = PermissionCheck.refusal(file: path, status: status) {
                    slots.append((path, .broken(refusal)))
                    continue
                }
                let key = DiscoveryCache.Key(path: path, modified: status.modified, size: status.size)
                if let cached = oldCache.entry(for: key) {
                    newCache.entries[path] = cached
                    if let library = cached.dependency?.path, let refusal = PermissionCheck.refusal(library: library) {
                        slots.append((path, .broken(refusal)))
                    } else {
                        slots.append((path, cached.verdict))
                    }
                    continue
                }
                slots.append((path, nil))
                if name.hasSuffix(".so") {
                    probes.append(Probe(slot: slots.count - 1, key: key, dependency: nil, arguments: ["plugin", path]))
                    continue
                }
                // A manifest is parsed here (no code of it runs); only its library is probed.
                let manifest: SimpleManifest
                do { manifest = try SimpleManifest.load(path: path) } catch {
                    slots[slots.count - 1].verdict = .broken(error.message)
                    continue
                }
                if let refusal = PermissionCheck.refusal(library: manifest.libraryPath) {
                    slots[slots.count - 1].verdict = .broken(refusal)
                    continue
                }
                probes.append(Probe(slot: slots.count - 1, key: key, dependency: .current(manifest.libraryPath),
                                    arguments: ["symbols", manifest.libraryPath] + manifest.requiredSymbols,
                                    manifestRecord: manifest.record(path: path)))
            }
        }

        if !probes.isEmpty {
            if let scanner = scannerPath, FileStatus.of(scanner)?.isRegularFile == true, access(scanner, X_OK) == 0 {
                let batch = ScannerBatch(scanner: scanner, timeoutMilliseconds: timeoutMilliseconds, parallel: parallelScans)
                for (probe, outcome) in zip(probes, batch.run(probes.map(\.arguments))) {
                    let verdict = Self.verdict(outcome, path: probe.key.path, manifestRecord: probe.manifestRecord)
                    slots[probe.slot].verdict = verdict
                    if outcome.isCacheable {
                        newCache.entries[probe.key.path] = DiscoveryCache.Entry(key: probe.key, dependency: probe.dependency, verdict: verdict)
                        result.probed.append(probe.key.path)
                    }
                }
            } else {
                for probe in probes {
                    slots[probe.slot].verdict = .broken("scanner not found at \(scannerPath ?? "(no path given)")")
                }
            }
        }

        var owners: [String: String] = [:]
        for (path, verdict) in slots {
            switch verdict {
            case .record(let record)?:
                if let owner = owners[record.id] {
                    result.broken.append(BrokenProvider(path: path, reason: "declares id \"\(record.id)\", which \(owner) already provides"))
                } else {
                    owners[record.id] = path
                    result.records.append(record)
                }
            case .broken(let reason)?:
                result.broken.append(BrokenProvider(path: path, reason: reason))
            case nil:
                result.broken.append(BrokenProvider(path: path, reason: "not scanned"))
            }
        }
        if let cachePath, newCache != oldCache { newCache.write(to: cachePath) }
        return result
    }

    /// What a scan says about a file.
    private static func verdict(_ outcome: ScanOutcome, path: String, manifestRecord: ProviderRecord?) -> DiscoveryCache.Verdict {
        guard case .finished(let text) = outcome else { return .broken(outcome.failure ?? "not scanned") }
        switch ScanReport(text) {
        case .broken(let reason)?:
            return .broken(reason)
        case .ok(let fields)?:
            if let manifestRecord { return .record(manifestRecord) }
            guard let record = ScanReport.pluginRecord(path: path, fields: fields) else {
                return .broken("the scanner's report is incomplete")
            }
            return .record(record)
        case nil:
            return .broken(text.isEmpty ? "exits while loading (status 0)" : "the scanner's report is unreadable")
        }
    }
}
