import Glibc
import EmendCore
import EmendProviders

/// Where the CLI finds its providers, as libemend does (Sources/EmendCABI/ProviderSetup.swift):
/// the registry of discovered plugins, plus the built-in fixture provider when a test asks
/// for it (`EMEND_TEST_FIXTURE=1`): in a real install its canned answers would pass for a
/// model's, so a user without a model is told so instead. The scanner is
/// found next to the executable: `$EMEND_SCANNER`, `<bindir>/emend-scan` (a build
/// directory), or `<bindir>/../lib/emend/emend-scan` (an installed prefix).
struct ProviderEnvironment {
    let environment: [String: String]
    let binaryDirectory: String?

    init(environment: [String: String] = ProcessEnvironment.current) {
        self.environment = environment
        self.binaryDirectory = ProviderEnvironment.executableDirectory()
    }

    /// The directory of the running executable (from /proc/self/exe).
    static func executableDirectory() -> String? {
        executablePath().map(Paths.directory)
    }

    /// The running executable's path (from /proc/self/exe).
    static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `<prefix>/lib` for an installed `<prefix>/bin/emend`; the build directory itself
    /// when the executable sits next to libemend.so.
    var libraryDirectory: String? {
        guard let bin = binaryDirectory else { return nil }
        let prefixLib = Paths.join(Paths.directory(of: bin), "lib")
        if Paths.isDirectory(Paths.join(prefixLib, "emend")) { return prefixLib }
        return bin
    }

    var scannerPath: String? {
        if let explicit = environment["EMEND_SCANNER"], !explicit.isEmpty { return explicit }
        guard let bin = binaryDirectory else { return nil }
        let candidates = [Paths.join(bin, "emend-scan"),
                          Paths.join(Paths.join(Paths.join(Paths.directory(of: bin), "lib"), "emend"), "emend-scan")]
        for candidate in candidates where access(candidate, X_OK) == 0 { return candidate }
        return candidates.last
    }

    var searchPath: [String] {
        ProviderSearchPath.standard(environment: environment, libraryDirectory: libraryDirectory)
    }

    var configFile: String? { ProviderSearchPath.configFile(environment: environment) }
    var cacheFile: String? { ProviderSearchPath.cacheFile(environment: environment) }

    /// `$XDG_STATE_HOME/emend` (default `~/.local/state/emend`).
    var stateDirectory: String? {
        if let value = environment["XDG_STATE_HOME"], value.hasPrefix("/") { return Paths.join(value, "emend") }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return Paths.join(home, ".local/state/emend")
    }

    /// The built-in fixture; `EMEND_FIXTURE_CHUNK_DELAY_MS` (tests of editors: a model that
    /// takes its time, deterministically) pauses it between the words it streams, and
    /// `EMEND_FIXTURE_ANSWER` (tests of what a model's answer becomes) is its answer to every
    /// tool but proofreading.
    var fixture: FixtureProvider {
        let milliseconds = environment["EMEND_FIXTURE_CHUNK_DELAY_MS"].flatMap { UInt32($0) } ?? 0
        let answer = environment["EMEND_FIXTURE_ANSWER"].flatMap { $0.isEmpty ? nil : $0 }
        return FixtureProvider(chunkDelayMicroseconds: min(milliseconds, 60_000) * 1000, answer: answer)
    }

    /// Whether the built-in fixture takes part: only when the environment asks for it
    /// (`EMEND_TEST_FIXTURE=1`, as the tests, the editors' test scripts and the benchmarks set).
    var fixtureEnabled: Bool { environment["EMEND_TEST_FIXTURE"] == "1" }

    /// The emend-provider-host this command starts (also as the checker service), or nil.
    var hostPath: String? { ProviderHostLocator.locate(environment: environment, libraryDirectory: libraryDirectory) }

    /// Discovers plugins and reads the configuration. Provider hosts live in the per-user
    /// checker service unless config.toml or EMEND_SERVICE says otherwise. An invalid config.toml is an input
    /// error naming the file and line.
    func registry() throws(CLIFailure) -> ProviderRegistry {
        let logging = environment["EMEND_LOG"].map { !$0.isEmpty && $0 != "0" } ?? false
        let logger: @Sendable (String) -> Void
        if logging {
            logger = { message in Terminal.err("emend: \(message)\n") }
        } else {
            logger = { _ in }
        }
        do {
            return try ProviderRegistry.standard(environment: environment, libraryDirectory: libraryDirectory,
                                                 scannerPath: scannerPath, builtins: fixtureEnabled ? [fixture] : [], serviceByDefault: true,
                                                 logger: logger)
        } catch {
            throw CLIFailure.usage("\(error.message)\n  fix the configuration file (see `emend config`), or move it aside to use the defaults")
        }
    }
}

/// Small path helpers (plain strings; no Foundation needed).
enum Paths {
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        if slash == path.startIndex { return "/" }
        return String(path[..<slash])
    }

    static func baseName(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    static func join(_ a: String, _ b: String) -> String {
        a.hasSuffix("/") ? a + b : a + "/" + b
    }

    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    /// `path` made absolute against the current directory, with "." and ".." resolved
    /// lexically (symlinks are kept).
    static func absolute(_ path: String) -> String {
        var full = path
        if !path.hasPrefix("/") {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            if getcwd(&buffer, buffer.count) != nil {
                let cwd = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
                full = join(cwd, path)
            }
        }
        var parts: [Substring] = []
        for part in full.split(separator: "/") {
            if part == "." || part.isEmpty { continue }
            if part == ".." { _ = parts.popLast(); continue }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }

    /// `path` with `$HOME` shown as `~`.
    static func tilde(_ path: String, home: String?) -> String {
        guard let home, home.count > 1, path.hasPrefix(home + "/") else { return path }
        return "~" + path.dropFirst(home.count)
    }
}
