import ArgumentParser
import CEmendSandbox
import Glibc
import EmendCore
import EmendProviders

/// `emend doctor`: checks the installation the way a user would find its problems — the
/// library, the scanner, the provider host, the configuration, every provider (each tried on one sentence),
/// the dictionaries, the model — and says what to do about each problem.
struct Doctor: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check the installation (library, scanner, provider host, configuration, providers tried on one sentence, dictionaries, model) and say what to do for each problem.",
        discussion: "Exit status: 0 when everything works (warnings aside), 1 when something needs fixing."
    )

    @Flag(help: "Only look: do not try each provider on a sentence.")
    var quick = false

    @Option(help: ArgumentHelp("Seconds each provider may take for its sentence.", valueName: "seconds"))
    var timeout: Double = 60

    @Flag(help: "Print machine-readable JSON.")
    var json = false

    func run() throws {
        let environment = ProviderEnvironment()
        var report = DoctorReport()
        report.add(.ok, "command", "\(EmendVersion.string) at \(ProviderEnvironment.executablePath() ?? "?")")
        checkLibrary(environment, &report)
        checkScanner(environment, &report)
        checkProviderHost(environment, &report)
        checkSandbox(&report)
        let registry: ProviderRegistry
        do {
            registry = try environment.registry()
            report.add(.ok, "configuration", environment.configFile.map { Paths.exists($0) ? "\($0) reads well" : "no \($0) (the defaults apply)" } ?? "defaults")
            for warning in registry.configuration.warnings { report.add(.warning, "configuration", warning) }
        } catch {
            report.add(.problem, "configuration", error.message, fix: "fix the file it names (see `emend config`), or move it aside to use the defaults")
            return finish(report)
        }
        checkService(environment, registry.configuration.service, &report)
        checkProviders(registry, &report)
        for id in registry.configuration.unsandboxed.sorted() {
            report.add(.warning, "sandbox", "\(id) runs unconfined (sandbox = \"off\" in config.toml): it can read and write "
                       + "every file you can, use the network and see your environment")
        }
        checkDictionaries(environment, &report)
        checkModel(registry, environment, &report)
        if !quick { tryProviders(registry, &report) }
        finish(report)
    }

    private func finish(_ report: DoctorReport) {
        if json {
            Terminal.out(JSONOutput.string(report))
        } else {
            Terminal.out(report.text(color: Palette.forStream(STDOUT_FILENO, environment: ProcessEnvironment.current).enabled))
        }
        if report.hasProblems { Glibc.exit(1) }
    }

    private func checkLibrary(_ environment: ProviderEnvironment, _ report: inout DoctorReport) {
        guard let directory = environment.libraryDirectory else {
            return report.add(.warning, "library", "cannot tell where the command runs from")
        }
        let candidates = ["libemend.so.0", "libemend.so"].map { Paths.join(directory, $0) }
        guard let path = candidates.first(where: Paths.exists) else {
            return report.add(.warning, "library", "no libemend.so.0 in \(directory) (engines in C need it; the command itself does not)",
                              fix: "bash scripts/install.sh PREFIX installs it next to bin/emend")
        }
        switch Self.probeLibrary(path) {
        case .success:
            report.add(.ok, "library", "\(path) loads")
        case .failure(let failure):
            report.add(.problem, "library", "\(path) does not load: \(failure.reason)",
                       fix: "install the Debian packages it needs (bash scripts/install-deps.sh), then reinstall with bash scripts/install.sh PREFIX")
        }
    }

    /// Loads the library in a child process (a Swift library must never be unloaded from
    /// this one) and looks for its first entry point; the reason when that fails.
    static func probeLibrary(_ path: String) -> Result<Void, DoctorFailure> {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { return .failure(DoctorFailure("cannot make a pipe")) }
        let child = fork()
        if child == 0 {
            close(pipeEnds[0])
            var message = ""
            if let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) {
                if dlsym(handle, "emend_coordinator_create") == nil { message = "it exports no emend_coordinator_create" }
            } else {
                message = dlerror().map { String(cString: $0) } ?? "unknown error"
            }
            _ = message.withCString { write(pipeEnds[1], $0, strlen($0)) }
            _exit(message.isEmpty ? 0 : 1)
        }
        close(pipeEnds[1])
        defer { close(pipeEnds[0]) }
        guard child > 0 else { return .failure(DoctorFailure("cannot start a child process")) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 512)
        while true {
            let count = read(pipeEnds[0], &buffer, buffer.count)
            if count <= 0 { break }
            bytes += buffer[..<count]
        }
        var status: Int32 = 0
        waitpid(child, &status, 0)
        let exited = (status & 0x7F) == 0, code = (status >> 8) & 0xFF
        if exited && code == 0 { return .success(()) }
        let reason = String(decoding: bytes, as: UTF8.self)
        return .failure(DoctorFailure(reason.isEmpty ? "loading it killed the process (status \(status))" : reason))
    }

    private func checkScanner(_ environment: ProviderEnvironment, _ report: inout DoctorReport) {
        guard let scanner = environment.scannerPath, access(scanner, X_OK) == 0 else {
            return report.add(.problem, "scanner", "emend-scan not found (\(environment.scannerPath ?? "no path")): no plugin can be discovered",
                              fix: "reinstall (bash scripts/install.sh PREFIX), or set EMEND_SCANNER to its path")
        }
        report.add(.ok, "scanner", scanner)
    }

    /// Plugins run in emend-provider-host unless config.toml trusts them in process.
    private func checkProviderHost(_ environment: ProviderEnvironment, _ report: inout DoctorReport) {
        guard let host = ProviderHostLocator.locate(environment: environment.environment,
                                                    libraryDirectory: environment.libraryDirectory) else {
            return report.add(.problem, "provider host", "emend-provider-host not found: no plugin can run (except those "
                              + "config.toml trusts with isolation = \"none\")",
                              fix: "reinstall (bash scripts/install.sh PREFIX), or set EMEND_PROVIDER_HOST to its path")
        }
        report.add(.ok, "provider host", host)
    }

    /// The sandbox provider hosts and the scanner enter on this machine: a child process
    /// enters it and reports which layers the kernel allowed (include/emend_sandbox.h).
    private func checkSandbox(_ report: inout DoctorReport) {
        var probe = emend_sandbox_report()
        guard emend_sandbox_probe(&probe) == 0 else {
            return report.add(.warning, "sandbox", "none: the probe could not run (plugins still run, unconfined)")
        }
        let level = String(cString: emend_sandbox_level(&probe))
        let refused = withUnsafeBytes(of: &probe.refused) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let layers = (0..<Int(EMEND_SANDBOX_LAYER_COUNT)).compactMap { bit -> String? in
            probe.applied & (1 << UInt32(bit)) != 0 ? String(cString: emend_sandbox_layer_name(1 << UInt32(bit))) : nil
        }
        let text = "\(level) (Landlock ABI \(probe.landlock_abi); \(layers.joined(separator: ", ")))"
        if level == "full" {
            report.add(.ok, "sandbox", text)
        } else {
            report.add(.warning, "sandbox", "\(text); refused: \(refused)",
                       fix: "plugins still run, with the layers this kernel allows; a newer kernel (Landlock ABI 6+, "
                            + "unprivileged user namespaces) confines them fully")
        }
    }

    private func checkProviders(_ registry: ProviderRegistry, _ report: inout DoctorReport) {
        for broken in registry.discovery.broken {
            report.add(.problem, "provider", "\(broken.path) is broken: \(broken.reason)",
                       fix: "rebuild it (providers/*/build.sh), or remove it from the providers directory")
        }
        for entry in registry.entries where !entry.isBuiltin {
            if let reason = entry.disabledReason {
                report.add(.warning, "provider", "\(entry.id) is off: \(reason)")
            } else {
                report.add(.ok, "provider", "\(entry.id) \(entry.record?.version ?? "") serves \(entry.tools.sorted { $0.rawValue < $1.rawValue }.map(\.name).joined(separator: ", "))")
            }
        }
        if registry.entries.allSatisfy(\.isBuiltin) {
            report.add(.problem, "provider", "no plugin found in \(ProviderEnvironment().searchPath.joined(separator: ":"))",
                       fix: "bash scripts/setup.sh installs the shipped ones (hunspell, harper, llama, openai)")
        }
        let fixtureOnly = WritingTool.allCases.filter { tool in
            guard tool != .followUp else { return false }
            let first = registry.candidates(for: tool).first
            return first == nil || first?.isBuiltin == true
        }
        // The fixture takes part only in tests (EMEND_TEST_FIXTURE=1); otherwise nothing serves these.
        let served = registry.entries.contains { $0.isBuiltin } ? "only the test fixture serves" : "no provider serves"
        if fixtureOnly.contains(.proofread) {
            report.add(.warning, "tools", "proofread: \(served) it (no checker is installed)", fix: "install the hunspell or harper provider")
        }
        let models = fixtureOnly.filter { $0 != .proofread }
        if !models.isEmpty {
            report.add(.warning, "tools", "\(models.map(\.name).joined(separator: ", ")): \(served) them (no model is installed)",
                       fix: "install the llama provider (scripts/setup-llama.sh, then scripts/install.sh), or enable openai with network = true")
        }
    }

    private func checkDictionaries(_ environment: ProviderEnvironment, _ report: inout DoctorReport) {
        var directories = ["/usr/share/hunspell", "/usr/share/myspell/dicts"]
        if let extra = environment.environment["DICPATH"] { directories = extra.split(separator: ":").map(String.init) + directories }
        var languages: [String] = []
        for directory in directories {
            guard let dir = opendir(directory) else { continue }
            defer { closedir(dir) }
            while let entry = readdir(dir) {
                let name = withUnsafePointer(to: entry.pointee.d_name) { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
                if name.hasSuffix(".dic") { languages.append(String(name.dropLast(4))) }
            }
        }
        if languages.isEmpty {
            report.add(.problem, "dictionaries", "no Hunspell dictionary in \(directories.joined(separator: ", "))",
                       fix: "sudo apt-get install hunspell-en-us (or hunspell-de-de, hunspell-fr ...)")
        } else {
            report.add(.ok, "dictionaries", Array(Set(languages)).sorted().joined(separator: " "))
        }
    }

    private func checkModel(_ registry: ProviderRegistry, _ environment: ProviderEnvironment, _ report: inout DoctorReport) {
        guard registry.entries.contains(where: { $0.id == "org.emend.llama" }) else { return }
        // As the plugin chooses (providers/llama/llama.c): its `model` setting, else
        // EMEND_LLAMA_MODEL, else the default model in emend's data directory.
        let configured = registry.configuration.settings(for: "org.emend.llama")["model"]?.plainText
        let variable = environment.environment["EMEND_LLAMA_MODEL"].flatMap { $0.isEmpty ? nil : $0 }
        let home = environment.environment["HOME"]
        let data = environment.environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home.map { $0 + "/.local/share" }
        let path = (configured ?? variable).map { Paths.tilde($0, home: home) }
            ?? data.map { $0 + "/emend/models/SmolLM2-135M-Instruct.Q4_1.gguf" }
        let source = configured != nil ? "" : variable != nil ? " (from EMEND_LLAMA_MODEL)" : ""
        guard let path, Paths.exists(path) else {
            let fix = configured != nil ? "fix model = in [providers.\"org.emend.llama\"] of config.toml"
                : variable != nil ? "point EMEND_LLAMA_MODEL at a .gguf model file, or unset it"
                : "bash scripts/setup-llama.sh installs the default model"
            return report.add(.problem, "model", "no model file at \(path ?? "?")\(source)", fix: fix)
        }
        report.add(.ok, "model", path + source)
    }

    /// Each enabled plugin on one sentence, through a coordinator as any engine would.
    private func tryProviders(_ registry: ProviderRegistry, _ report: inout DoctorReport) {
        for entry in registry.entries where !entry.isBuiltin && entry.isEnabled {
            let tool: WritingTool = entry.tools.contains(.proofread) ? .proofread
                : entry.tools.contains(.rewriteConcise) ? .rewriteConcise : (entry.tools.sorted { $0.rawValue < $1.rawValue }.first ?? .proofread)
            let sentence = "This sentense has a mistake in it."
            let engine = FileEngine(text: Array(sentence.utf8), selection: 0..<0, protectedRanges: [])
            var options = CoordinatorOptions()
            options.providerTimeoutMilliseconds = Int64(timeout * 1000)
            options.providerTimeoutSetting = "emend doctor --timeout SECONDS"
            options.streaming = .wholeResult
            options.animationDuration = 0
            let start = Progress.now()
            do {
                let coordinator = try Coordinator(delegate: engine, options: options, catalog: registry)
                try coordinator.start(tool, scope: .fullDocument, providerID: entry.id)
                // Past the provider's limit and the grace a proofreading combination gets after
                // it (5 s), so that a hung checker is reported as timed out, not as busy.
                try coordinator.runUntilIdle(timeoutMilliseconds: Int(timeout * 1000) + 10_000)
                let found = tool == .proofread ? "\(coordinator.suggestions.count) suggestion(s)" : "a result"
                try? coordinator.revert()
                try? coordinator.stop()
                try? coordinator.runUntilIdle(timeoutMilliseconds: 5_000)
                report.add(.ok, "try", "\(entry.id) \(tool.name): \(found) in \(Progress.now() - start) ms")
            } catch {
                report.add(.problem, "try", "\(entry.id) \(tool.name) failed: \(error.message)",
                           fix: "EMEND_LOG=1 emend \(tool == .proofread ? "proofread" : "rewrite --tone concise") --provider \(entry.id) FILE shows its log")
            }
        }
    }
}

/// Why a check failed.
struct DoctorFailure: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}

/// What `emend doctor` found: a line per check.
struct DoctorReport: Encodable {
    enum Level: String, Encodable { case ok, warning, problem }
    struct Line: Encodable {
        let level: Level
        let check: String
        let detail: String
        let fix: String?
    }
    private(set) var lines: [Line] = []

    var hasProblems: Bool { lines.contains { $0.level == .problem } }

    mutating func add(_ level: Level, _ check: String, _ detail: String, fix: String? = nil) {
        lines.append(Line(level: level, check: check, detail: detail, fix: fix))
    }

    func text(color: Bool) -> String {
        var out = ""
        for line in lines {
            let tag: String
            switch line.level {
            case .ok: tag = color ? "\u{1B}[32mok\u{1B}[0m     " : "ok      "
            case .warning: tag = color ? "\u{1B}[33mwarning\u{1B}[0m " : "warning "
            case .problem: tag = color ? "\u{1B}[31mPROBLEM\u{1B}[0m " : "PROBLEM "
            }
            out += "\(tag)\(line.check.padding(13)) \(line.detail)\n"
            if let fix = line.fix, line.level != .ok { out += "        \("".padding(13)) → \(fix)\n" }
        }
        let problems = lines.filter { $0.level == .problem }.count
        out += problems == 0 ? "emend doctor: everything works\n" : "emend doctor: \(problems) problem(s) to fix\n"
        return out
    }
}

private extension String {
    func padding(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}
