// The discovery figures of EmendBenchmarks: ProviderDiscovery.run() over a directory of
// plugins, cold (empty cache: every file probed by emend-scan in a child process) and warm
// (the cache written by a cold run: nothing probed, nothing loaded).
//
// Usage: EmendBenchmarks --providers DIR --scanner PATH [--cold-runs N] [--warm-runs N]
// benchmarks/run.sh fills DIR with 50 copies of benchmarks/discovery/plugin.c, each with its
// own id, and builds the scanner with scripts/build-scanner.sh.
import EmendProviders

#if canImport(Glibc)
import Glibc
#endif

struct DiscoveryBenchmark {
    /// The directory of plugins: the whole search path.
    var providers: String
    /// The emend-scan executable.
    var scanner: String
    /// Cold runs, each with a new, empty cache path (best of these).
    var coldRuns = 3
    /// Warm runs, all with the cache written by the first cold run (best of these).
    var warmRuns = 7

    /// Why a check failed (reported after the cache files are removed).
    struct Failure: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }

    /// Prints the two figures; exits with FAIL if a check does not hold.
    func run() {
        let directory = Self.temporaryDirectory()
        var caches: [String] = []
        var failure: Failure?
        do { try measure(directory: directory, caches: &caches) } catch { failure = error }
        for cache in caches { unlink(cache) }
        rmdir(directory)
        if let failure { fail("discovery: " + failure.message) }
    }

    private func measure(directory: String, caches: inout [String]) throws(Failure) {

        // Cold: a cache path that does not exist yet, so every file goes to the scanner.
        var coldTimes: [UInt64] = []
        var reference: DiscoveryResult?
        for index in 0..<coldRuns {
            let cache = "\(directory)/cold-\(index).cache"
            caches.append(cache)
            let discovery = ProviderDiscovery(searchPath: [providers], cachePath: cache, scannerPath: scanner)
            var result = DiscoveryResult()
            coldTimes.append(nanoseconds { result = discovery.run() })
            try check(cold: result, label: "cold run \(index + 1)")
            if let reference, reference.records != result.records {
                throw Failure("cold run \(index + 1) found other records than cold run 1")
            }
            if reference == nil { reference = result }
            guard access(cache, R_OK) == 0 else { throw Failure("cold run \(index + 1) wrote no cache at \(cache)") }
        }
        guard let reference else { throw Failure("no cold run") }
        let plugins = reference.records.count

        // Warm: the cache of the first cold run; every file is answered from it.
        let warm = ProviderDiscovery(searchPath: [providers], cachePath: caches[0], scannerPath: scanner)
        var warmTimes: [UInt64] = []
        for index in 0..<warmRuns {
            var result = DiscoveryResult()
            warmTimes.append(nanoseconds { result = warm.run() })
            guard result.probed.isEmpty else {
                throw Failure("warm run \(index + 1) probed \(result.probed.count) files (expected none)")
            }
            guard result.broken.isEmpty, result.records == reference.records else {
                throw Failure("warm run \(index + 1) found \(result.records.count) records and \(result.broken.count) broken files, "
                    + "the cold run \(plugins) records")
            }
        }

        let cold = Self.milliseconds(coldTimes)
        let warmMs = Self.milliseconds(warmTimes)
        print("discovery, cold (\(plugins) plugins, empty cache): \(fmt(cold.best, 1)) ms total,"
            + " \(fmt(cold.best / Double(plugins), 2)) ms per plugin — best of \(coldRuns) (mean \(fmt(cold.mean, 1)) ms);"
            + " \(plugins) of \(plugins) files probed by emend-scan, \(warm.parallelScans) at a time")
        print("discovery, warm (\(plugins) plugins, cache of the cold run): \(fmt(warmMs.best, 2)) ms total,"
            + " \(fmt(warmMs.best * 1000 / Double(plugins), 1)) µs per plugin — best of \(warmRuns) (mean \(fmt(warmMs.mean, 2)) ms);"
            + " probed: none (0 files), \(plugins) records from the cache, \(fmt(cold.best / warmMs.best, 0))× faster than cold")
    }

    /// A cold result: every file probed and usable.
    private func check(cold result: DiscoveryResult, label: String) throws(Failure) {
        if let first = result.broken.first {
            throw Failure("\(label): \(result.broken.count) broken files, e.g. \(first.path): \(first.reason)")
        }
        guard !result.records.isEmpty else { throw Failure("\(label): no plugins found in \(providers)") }
        guard result.probed.count == result.records.count else {
            throw Failure("\(label): \(result.probed.count) files probed for \(result.records.count) records (expected all)")
        }
        guard Set(result.records.map(\.id)).count == result.records.count else {
            throw Failure("\(label): the plugins' ids are not all different")
        }
    }

    private static func milliseconds(_ times: [UInt64]) -> (best: Double, mean: Double) {
        let best = Double(times.min() ?? 0) / 1e6
        let mean = Double(times.reduce(0, +)) / Double(max(1, times.count)) / 1e6
        return (best, mean)
    }

    /// A new directory of mode 0700 under $TMPDIR (default /tmp), for the cache files.
    private static func temporaryDirectory() -> String {
        var base = "/tmp"
        if let tmp = getenv("TMPDIR"), tmp[0] == CChar(UInt8(ascii: "/")) { base = String(cString: tmp) }
        var template = Array("\(base)/emend-bench-discovery.XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            fail("discovery: cannot make a temporary directory under \(base)")
        }
        return String(cString: made)
    }
}
