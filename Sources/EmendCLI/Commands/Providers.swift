import ArgumentParser
import EmendCore
import EmendProviders

struct Providers: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "providers",
        abstract: "List the providers: discovered plugins and built-ins, what each serves, which one each tool uses, broken ones and why."
    )

    @Flag(help: "Print machine-readable JSON.")
    var json = false

    struct ProviderOut: Encodable {
        let id: String
        let name: String
        let version: String
        let path: String
        let kind: String
        let tools: [String]
        let languages: [String]
        let streams: Bool
        let usesNetwork: Bool
        let priority: Int?
        let enabled: Bool
        let reason: String?
    }
    struct BrokenOut: Encodable {
        let path: String
        let reason: String
    }
    struct Listing: Encodable {
        let searchPath: [String]
        let providers: [ProviderOut]
        let broken: [BrokenOut]
        /// The provider each tool uses when none is named (absent: none serves it).
        let defaults: [String: String]
    }

    func run() throws {
        let environment = ProviderEnvironment()
        let registry = try environment.registry()
        let home = environment.environment["HOME"]
        let providers = registry.entries.map { entry -> ProviderOut in
            let record = entry.record
            return ProviderOut(
                id: entry.id, name: record?.name ?? entry.id, version: record?.version ?? "", path: record?.path ?? "",
                kind: record.map { $0.kind == .simple ? "simple-form manifest" : "plugin" } ?? "built-in",
                tools: entry.tools.sorted { $0.rawValue < $1.rawValue }.map(\.name),
                languages: record?.languages ?? ["*"], streams: record?.streams ?? false, usesNetwork: record?.usesNetwork ?? false,
                priority: entry.isBuiltin ? nil : entry.priority, enabled: entry.isEnabled, reason: entry.disabledReason)
        }
        let broken = registry.discovery.broken.map { BrokenOut(path: $0.path, reason: $0.reason) }
        var defaults: [String: String] = [:]
        for tool in WritingTool.allCases {
            if let first = registry.candidates(for: tool).first { defaults[tool.name] = first.id }
        }
        if json {
            Terminal.out(JSONOutput.string(Listing(searchPath: environment.searchPath, providers: providers, broken: broken, defaults: defaults)))
            return
        }
        let palette = Palette.forStream(1, environment: environment.environment)
        var out = palette.bold("Providers") + "\n"
        for provider in providers {
            let state = provider.enabled ? palette.green("on") : palette.red("off: \(provider.reason ?? "")")
            let version = provider.version.isEmpty ? "" : " \(provider.version)"
            let title = provider.name == provider.id ? "" : " — \(provider.name)\(version)"
            out += "  \(palette.bold(provider.id))\(title) (\(provider.kind), \(state))\n"
            if !provider.path.isEmpty { out += "      file: \(Paths.tilde(provider.path, home: home))\n" }
            out += "      serves: \(provider.tools.joined(separator: ", "))\n"
            var traits = ["languages: \(provider.languages.joined(separator: ", "))"]
            if provider.streams { traits.append("streams") }
            traits.append(provider.usesNetwork ? "uses the network" : "local")
            if let priority = provider.priority { traits.append("priority \(priority)") }
            if provider.id == "org.emend.fixture" { traits.append("a deterministic fixture (fixed table), ranked below every plugin") }
            out += "      " + traits.joined(separator: "; ") + "\n"
        }
        out += "\n" + palette.bold("Used by default") + "\n"
        let width = WritingTool.allCases.map(\.name.count).max() ?? 0
        for tool in WritingTool.allCases {
            let name = tool.name.padding(toLength: width, withPad: " ", startingAt: 0)
            out += "  \(name)  \(defaults[tool.name] ?? palette.red("none (no enabled provider serves it)"))\n"
        }
        if !broken.isEmpty {
            out += "\n" + palette.bold(palette.red("Broken")) + "\n"
            for file in broken { out += "  \(Paths.tilde(file.path, home: home))\n      \(file.reason)\n" }
        }
        out += "\n" + palette.bold("Searched") + " (EMEND_PROVIDER_PATH, then $XDG_DATA_HOME/emend/providers, then <libdir>/emend/providers)\n"
        for directory in environment.searchPath {
            let note = Paths.isDirectory(directory) ? "" : palette.dim(" (does not exist)")
            out += "  \(Paths.tilde(directory, home: home))\(note)\n"
        }
        out += "\nChoose per run with --provider ID, or per tool in the configuration (see `emend config`).\n"
        Terminal.out(out)
    }
}

extension String {
    func padding(toLength length: Int, withPad pad: String, startingAt: Int) -> String {
        count >= length ? self : self + String(repeating: pad, count: length - count)
    }
}
