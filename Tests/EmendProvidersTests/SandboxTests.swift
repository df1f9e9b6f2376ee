import CEmendSandbox
import Foundation
import XCTest
import EmendCore
@testable import EmendProviders

/// A plugin from a stranger (Tests/Fixtures/plugins/intruder.c), found by discovery (the real
/// scanner) and run by the registry in its provider host, tries what it must not: signal,
/// trace or read the editor (this test process), read and write the user's files, connect to
/// the network, see a secret variable, use an inherited descriptor, leave a daemon behind.
/// Each attempt is made twice: in the full sandbox, where it must be BLOCKED, and with the
/// layers that stop it left out (EMEND_SANDBOX_SKIP), where it must work — so each test shows
/// which layers stop the attack, and would fail without them.
final class SandboxTests: XCTestCase {
    static let id = "org.emend.test.intruder"
    private var scratch: ScratchDirectory!
    private var providers = ""
    private var home = ""
    private var savedHome: String?

    override class func setUp() {
        super.setUp()
        var report = emend_sandbox_report()
        if emend_sandbox_probe(&report) == 0 {
            let refused = withUnsafeBytes(of: &report.refused) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            print("sandbox level on this machine: \(String(cString: emend_sandbox_level(&report))), Landlock ABI "
                  + "\(report.landlock_abi)\(refused.isEmpty ? "" : "; refused: \(refused)")")
        } else {
            print("sandbox level on this machine: none (the probe could not run)")
        }
    }

    override func setUpWithError() throws {
        scratch = ScratchDirectory("emend-sandbox")
        providers = scratch.directory("providers")
        home = scratch.directory("home")
        let built = try PluginBuilder.fixture("intruder")
        try FileManager.default.copyItem(atPath: built, toPath: providers + "/intruder.so")
        chmod(providers + "/intruder.so", 0o755)
        savedHome = ProcessInfo.processInfo.environment["HOME"]
        setenv("HOME", home, 1)
    }

    override func tearDown() {
        if let savedHome { setenv("HOME", savedHome, 1) }
        unsetenv("EMEND_SANDBOX_SKIP")
        scratch = nil
    }

    /// The intruder's answer to `prompt`, run through discovery, the registry and its host
    /// with `config` as config.toml, the layers `skipping` left out. The host ends on return.
    private func attempt(_ prompt: String, skipping layers: [String] = [], config: String = "",
                         logger: @escaping @Sendable (String) -> Void = { _ in }) throws -> String {
        if layers.isEmpty { unsetenv("EMEND_SANDBOX_SKIP") } else { setenv("EMEND_SANDBOX_SKIP", layers.joined(separator: ","), 1) }
        defer { unsetenv("EMEND_SANDBOX_SKIP") }
        let discovery = ProviderDiscovery(searchPath: [providers], cachePath: scratch.path + "/providers.cache",
                                          scannerPath: DiscoveryFixtures.scanner).run()
        XCTAssertNotNil(discovery.record(Self.id), "\(discovery.broken)")
        let registry = ProviderRegistry(discovery: discovery, configuration: try ProviderConfiguration.parse(config), builtins: [],
                                        logger: logger)
        let provider = try registry.provider(for: .compose, named: Self.id)
        let sink = PluginTestSink()
        let text = "x"
        let outcome = provider.run(ProviderRequest(tool: .compose, text: text, selection: 0..<1, prompt: prompt), sink: sink)
        XCTAssertEqual(outcome, .finished, prompt)
        return sink.text
    }

    private func assertBlocked(_ answer: String, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(answer.hasPrefix("BLOCKED"), "\(what): \(answer)", file: file, line: line)
    }

    private func assertEscaped(_ answer: String, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(answer.hasPrefix("ESCAPED"), "\(what) should work without its layers: \(answer)", file: file, line: line)
    }

    /// Stopped by: Landlock's signal scope, seccomp (the editor's pid), the pid namespace.
    func testThePluginCannotKillTheEditor() throws {
        let editor = getpid()
        assertBlocked(try attempt("signal:\(editor):9"), "kill(editor, SIGKILL)")
        // Signal 0 asks the same permission without harm.
        assertEscaped(try attempt("signal:\(editor):0", skipping: ["landlock-scope", "seccomp", "pid-ns"]), "kill(editor, 0)")
    }

    /// Stopped by: seccomp (ptrace, process_vm_readv), Landlock (a sandboxed process may not
    /// trace or open the memory of one outside its domain), the user and pid namespaces.
    func testThePluginCannotTraceOrReadTheEditor() throws {
        let editor = getpid()
        let secret = strdup("editor-secret-\(UUID().uuidString)")!
        defer { free(secret) }
        let length = strlen(secret)
        let address = String(UInt(bitPattern: secret), radix: 16)
        let layers = ["seccomp", "landlock-fs", "landlock-net", "landlock-scope", "pid-ns", "user-ns"]
        for (prompt, what) in [("vmread:\(editor):\(address):\(length)", "process_vm_readv"),
                               ("procmem:\(editor):\(address):\(length)", "/proc/editor/mem")] {
            assertBlocked(try attempt(prompt), what)
            XCTAssertEqual(try attempt(prompt, skipping: layers), "ESCAPED " + String(cString: secret), what)
        }
        assertBlocked(try attempt("ptrace:\(editor)"), "PTRACE_SEIZE")
        assertEscaped(try attempt("ptrace:\(editor)", skipping: layers), "PTRACE_SEIZE")
    }

    /// Stopped by: Landlock (filesystem).
    func testThePluginCannotReadTheUsersFiles() throws {
        let keys = home + "/.ssh"
        try FileManager.default.createDirectory(atPath: keys, withIntermediateDirectories: true)
        try "PRIVATE KEY of the user".write(toFile: keys + "/id_test", atomically: false, encoding: .utf8)
        assertBlocked(try attempt("read:\(keys)/id_test"), "~/.ssh/id_test")
        XCTAssertEqual(try attempt("read:\(keys)/id_test", skipping: ["landlock-fs"]), "ESCAPED PRIVATE KEY of the user")
    }

    /// Stopped by: Landlock (filesystem); the file stays as it was.
    func testThePluginCannotWriteTheUsersFiles() throws {
        let profile = home + "/.bashrc"
        try "# the user's\n".write(toFile: profile, atomically: false, encoding: .utf8)
        assertBlocked(try attempt("write:\(profile)"), "~/.bashrc")
        XCTAssertEqual(try String(contentsOfFile: profile, encoding: .utf8), "# the user's\n")
        assertEscaped(try attempt("write:\(profile)", skipping: ["landlock-fs"]), "~/.bashrc")
        XCTAssertEqual(try String(contentsOfFile: profile, encoding: .utf8), "# the user's\nintruder was here\n")
    }

    /// The plugin's own cache directory (ProviderCacheDirectory), named in
    /// EMEND_PROVIDER_CACHE_DIR, is writable in the full sandbox; another provider's is not
    /// (Landlock: a hostile plugin cannot poison a checker's cached suggestions), nor is a
    /// directory named by an inherited EMEND_PROVIDER_CACHE_DIR.
    func testThePluginWritesItsOwnCacheDirectoryOnly() throws {
        let savedCache = ProcessInfo.processInfo.environment["XDG_CACHE_HOME"]
        setenv("XDG_CACHE_HOME", home + "/.cache", 1)
        let elsewhere = home + "/elsewhere"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        setenv("EMEND_PROVIDER_CACHE_DIR", elsewhere, 1)
        defer {
            if let savedCache { setenv("XDG_CACHE_HOME", savedCache, 1) } else { unsetenv("XDG_CACHE_HOME") }
            unsetenv("EMEND_PROVIDER_CACHE_DIR")
        }
        let own = home + "/.cache/emend-providers/" + Self.id
        XCTAssertEqual(try attempt("env:EMEND_PROVIDER_CACHE_DIR"), "ESCAPED " + own)
        var status = stat()
        XCTAssertEqual(lstat(own, &status), 0)
        XCTAssertEqual(status.st_mode & 0o777, 0o700)
        XCTAssertTrue(try attempt("write:\(own)/suggestions").hasPrefix("ESCAPED"), "its own cache directory")
        XCTAssertEqual(try String(contentsOfFile: own + "/suggestions", encoding: .utf8), "intruder was here\n")

        let other = home + "/.cache/emend-providers/org.emend.hunspell"
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        assertBlocked(try attempt("write:\(other)/en_US-poison"), "another provider's cache")
        XCTAssertFalse(FileManager.default.fileExists(atPath: other + "/en_US-poison"))
        // Nor can it read what another checker keeps (the user's misspellings, lines of text).
        try "recieve\treceive\n".write(toFile: other + "/en_US-suggestions", atomically: true, encoding: .utf8)
        assertBlocked(try attempt("read:\(other)/en_US-suggestions"), "another provider's cache, read")
        assertEscaped(try attempt("read:\(other)/en_US-suggestions", skipping: ["landlock-fs"]), "another provider's cache, read")
        assertBlocked(try attempt("write:\(elsewhere)/x"), "the inherited EMEND_PROVIDER_CACHE_DIR")
        assertEscaped(try attempt("write:\(other)/en_US-poison", skipping: ["landlock-fs"]), "another provider's cache")
    }

    /// Stopped by: the network namespace, Landlock (TCP connect), seccomp (no AF_INET socket):
    /// the plugin does not declare network use.
    func testAPluginWithoutNetworkCannotConnect() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        XCTAssertGreaterThanOrEqual(listener, 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        var size = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, size) == 0 && listen(listener, 8) == 0
                && getsockname(listener, $0, &size) == 0 }
        }
        XCTAssertTrue(bound)
        let port = UInt16(bigEndian: address.sin_port)
        assertBlocked(try attempt("connect:\(port)"), "connect 127.0.0.1")
        assertEscaped(try attempt("connect:\(port)", skipping: ["net-ns", "landlock-net", "seccomp"]), "connect 127.0.0.1")
    }

    /// Stopped by: the clean environment libemend gives the host (not even the host's first
    /// environment holds the variable). A variable its settings name is its own.
    func testThePluginSeesNoSecretButTheOnesItsSettingsName() throws {
        setenv("INTRUDER_SECRET_TOKEN", "sk-not-yours", 1)
        setenv("INTRUDER_NAMED_TOKEN", "sk-yours", 1)
        defer {
            unsetenv("INTRUDER_SECRET_TOKEN")
            unsetenv("INTRUDER_NAMED_TOKEN")
        }
        let config = "[providers.\"\(Self.id)\"]\ntoken_env = \"INTRUDER_NAMED_TOKEN\"\n"
        assertBlocked(try attempt("env:INTRUDER_SECRET_TOKEN", config: config), "an unnamed variable")
        XCTAssertEqual(try attempt("env:INTRUDER_NAMED_TOKEN", config: config), "ESCAPED sk-yours", "a variable its settings name")
        XCTAssertEqual(try attempt("env:INTRUDER_SECRET_TOKEN", skipping: ["environment"]), "ESCAPED sk-not-yours")
    }

    /// Stopped by: the descriptors closed before the plugin loads (close_range).
    func testThePluginCannotUseAnInheritedDescriptor() throws {
        let path = home + "/open-in-the-editor.txt"
        let fd = open(path, O_RDWR | O_CREAT, 0o600) // not close-on-exec: inherited by every child
        XCTAssertGreaterThan(fd, 2)
        defer { close(fd) }
        assertBlocked(try attempt("fd:\(fd)"), "descriptor \(fd)")
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "")
        assertEscaped(try attempt("fd:\(fd)", skipping: ["fds"]), "descriptor \(fd)")
    }

    /// Stopped by: the pid namespace (its init ends with the host, and the kernel kills every
    /// process left in it; a setsid daemon escapes a process-group kill).
    func testNoProcessOutlivesTheSession() throws {
        let token = "intruder-daemon-\(UUID().uuidString.prefix(8))"
        XCTAssertEqual(try attempt("daemon:\(token)"), "ESCAPED started")
        XCTAssertTrue(waitUntil(seconds: 5) { Self.processes(named: token).isEmpty }, "the daemon outlived its host")

        let unconfined = "intruder-daemon-\(UUID().uuidString.prefix(8))"
        XCTAssertEqual(try attempt("daemon:\(unconfined)", skipping: ["pid-ns"]), "ESCAPED started")
        usleep(300_000)
        let left = Self.processes(named: unconfined)
        for pid in left { kill(pid, SIGKILL) }
        XCTAssertFalse(left.isEmpty, "without the pid namespace the daemon should outlive its host")
    }

    /// A layer the kernel refuses (here: left out, as on a kernel without it) is logged once
    /// per process, however many hosts start, and the plugin runs as before.
    func testARefusedLayerIsReportedOnceAndThePluginStillRuns() throws {
        let lines = LogLines()
        for _ in 0..<2 {
            XCTAssertEqual(try attempt("read:/etc/hostname-missing", skipping: ["ipc-ns"], logger: lines.add).prefix(7), "BLOCKED")
        }
        let notices = lines.all.filter { $0.hasPrefix("sandbox: ") }
        // Once, whatever else an older kernel refuses beside the layer left out here.
        XCTAssertEqual(notices.count, 1, "\(notices)")
        XCTAssertTrue(notices.first?.hasPrefix("sandbox: partial (refused by this kernel: ") ?? false, "\(notices)")
        XCTAssertTrue(notices.first?.contains("ipc-ns: skipped (EMEND_SANDBOX_SKIP)") ?? false, "\(notices)")
    }

    /// `sandbox = "off"`: the user trusts the plugin; it runs unconfined (here: reads a file
    /// outside its paths).
    func testSandboxOffTrustsThePlugin() throws {
        let note = home + "/note.txt"
        try "the user's note".write(toFile: note, atomically: false, encoding: .utf8)
        assertBlocked(try attempt("read:\(note)"), "a file outside its paths")
        XCTAssertEqual(try attempt("read:\(note)", config: "[providers.\"\(Self.id)\"]\nsandbox = \"off\"\n"), "ESCAPED the user's note")
        XCTAssertEqual(try attempt("read:\(note)", config: "[providers.\"\(Self.id)\"]\nsandbox_paths = [\"\(note)\"]\n"),
                       "ESCAPED the user's note", "a path the user grants")
    }

    /// While it is only scanned, a plugin's constructor runs in emend-scan's sandbox: the
    /// daemon it starts dies with the scan (pid namespace), the file it appends to stays as
    /// it was (Landlock), and it never sees a secret (the scanner's clean environment).
    func testTheScannerConfinesAPluginsConstructor() throws {
        let profile = home + "/.bashrc"
        try "# the user's\n".write(toFile: profile, atomically: false, encoding: .utf8)
        setenv("INTRUDER_SECRET_TOKEN", "sk-not-yours", 1)
        defer {
            unsetenv("INTRUDER_SECRET_TOKEN")
            unsetenv("EMEND_TEST_INTRUDER_ON_LOAD")
        }
        func scan(_ cache: String) {
            let discovery = ProviderDiscovery(searchPath: [providers], cachePath: scratch.path + "/" + cache,
                                              scannerPath: DiscoveryFixtures.scanner).run()
            XCTAssertNotNil(discovery.record(Self.id), "\(discovery.broken)")
        }
        let token = "intruder-scan-\(UUID().uuidString.prefix(8))"
        setenv("EMEND_TEST_INTRUDER_ON_LOAD", token, 1)
        scan("confined.cache")
        XCTAssertTrue(waitUntil(seconds: 5) { Self.processes(named: token).isEmpty }, "a daemon outlived the scan")
        XCTAssertEqual(try String(contentsOfFile: profile, encoding: .utf8), "# the user's\n")

        // Without the pid namespace and Landlock: both escape; the environment stays clean.
        let unconfined = "intruder-scan-\(UUID().uuidString.prefix(8))"
        setenv("EMEND_TEST_INTRUDER_ON_LOAD", unconfined, 1)
        setenv("EMEND_SANDBOX_SKIP", "pid-ns,landlock-fs", 1)
        scan("unconfined.cache")
        unsetenv("EMEND_SANDBOX_SKIP")
        usleep(300_000)
        let left = Self.processes(named: unconfined)
        for pid in left { kill(pid, SIGKILL) }
        XCTAssertFalse(left.isEmpty, "without the pid namespace the daemon should outlive the scan")
        XCTAssertEqual(try String(contentsOfFile: profile, encoding: .utf8), "# the user's\nloaded; secret=none\n")
    }

    /// The openai plugin declares network use: in its sandboxed host it reaches a local
    /// server (no network namespace, no connect rule, AF_INET allowed); the same host
    /// without the network (as for a plugin that does not declare it) cannot.
    func testANetworkPluginReachesTheNetworkInItsSandbox() throws {
        let server = try FaultServer(script: "200")
        defer { server.stop() }
        let record = try PluginLibrary.load(path: try OpenAIPluginBuild.path()).record
        XCTAssertTrue(record.usesNetwork)
        var settings = TOMLTable()
        settings["base_url"] = .string(server.baseURL)
        settings["retry_delay_ms"] = .integer(10)
        settings["retries"] = .integer(0)
        let host = try XCTUnwrap(ProviderHostLocator.locate(environment: [:], libraryDirectory: nil))
        let text = "hello cafe world"
        for network in [true, false] {
            var sandbox = HostSandbox.policy(record: record, settings: settings, enabled: true, userPaths: [])
            sandbox.network = network
            let provider = IsolatedProvider(record: record, settings: settings, limits: ProviderLimits(), executable: host,
                                            writesMarkdown: false, sandbox: sandbox)
            let sink = PluginTestSink()
            let outcome = provider.run(ProviderRequest(tool: .rewriteFriendly, text: text, selection: 0..<text.utf8.count), sink: sink)
            if network {
                XCTAssertEqual(outcome, .finished)
                XCTAssertEqual(sink.text, "Hello, café 😀 world.")
            } else {
                XCTAssertNotEqual(outcome, .finished, "reached the network without it: \(sink.text)")
            }
        }
    }

    private func waitUntil(seconds: Double, _ condition: () -> Bool) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }

    /// The pids whose argv[0] is `name`.
    static func processes(named name: String) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry in
            guard let pid = pid_t(entry), let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { return nil }
            let first = data.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false).first ?? Data()
            return String(decoding: first, as: UTF8.self) == name ? pid : nil
        }
    }
}

/// Log lines from several threads.
final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func add(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}
