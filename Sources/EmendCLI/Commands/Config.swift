import ArgumentParser
import EmendCore
import EmendProofreading
import EmendProviders

struct Config: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Show where the configuration lives and what is in effect (network, provider order per tool, settings)."
    )

    @Flag(help: "Print machine-readable JSON.")
    var json = false

    struct ConfigOut: Encodable {
        let configFile: String?
        let configFileExists: Bool
        let network: Bool
        let toolOrder: [String: [String]]
        let providerSettings: [String: [String: String]]
        let disabled: [String]
        let warnings: [String]
        let searchPath: [String]
        let cacheFile: String?
        let scanner: String?
        let scannerFound: Bool
        let stateDirectory: String?
        /// `[proofreading]`: the rule families on, and from how many uses a word counts as meant.
        let proofreadingFamilies: [String]
        let recurringWords: Int
        /// The user's words and ignored rules (`dictionary.txt`, `ignored-rules.txt`).
        let dictionaryFile: String?
        let ignoredRulesFile: String?
        let dictionaryWords: Int
        let ignoredRules: Int
    }

    func run() throws {
        let environment = ProviderEnvironment()
        let registry = try environment.registry()
        let configuration = registry.configuration
        let file = environment.configFile
        let exists = file.map(Paths.exists) ?? false
        var settings: [String: [String: String]] = [:]
        for (id, table) in configuration.providerSettings {
            var values: [String: String] = [:]
            for key in table.keys { values[key] = table[key]?.plainText ?? "" }
            settings[id] = values
        }
        var order: [String: [String]] = [:]
        for (tool, ids) in configuration.toolOrder { order[tool.name] = ids }
        let scanner = environment.scannerPath
        let dictionary = PersonalDictionary.load(environment: environment.environment)
        let dictionaryFile = dictionary.directory.map { Paths.join($0, PersonalDictionary.wordFileName) }
        let rulesFile = dictionary.directory.map { Paths.join($0, PersonalDictionary.ruleFileName) }
        let families = configuration.proofreading.families.map(\.rawValue).sorted()
        let out = ConfigOut(configFile: file, configFileExists: exists, network: configuration.network, toolOrder: order,
                            providerSettings: settings, disabled: configuration.disabled.sorted(), warnings: configuration.warnings,
                            searchPath: environment.searchPath, cacheFile: environment.cacheFile, scanner: scanner,
                            scannerFound: scanner.map { Paths.exists($0) } ?? false, stateDirectory: environment.stateDirectory,
                            proofreadingFamilies: families, recurringWords: configuration.proofreading.recurringWords,
                            dictionaryFile: dictionaryFile, ignoredRulesFile: rulesFile, dictionaryWords: dictionary.words.count,
                            ignoredRules: dictionary.ignoredRules.count)
        if json {
            Terminal.out(JSONOutput.string(out))
            return
        }
        let palette = Palette.forStream(1, environment: environment.environment)
        let home = environment.environment["HOME"]
        func show(_ path: String?) -> String { path.map { Paths.tilde($0, home: home) } ?? "(unknown: set HOME)" }
        var text = palette.bold("Configuration file") + "\n  \(show(file))"
        text += exists ? "\n" : palette.dim(" (not present: the defaults below are in effect)") + "\n"
        text += "\n" + palette.bold("In effect") + "\n"
        text += "  network = \(configuration.network)" + palette.dim(configuration.network ? "  (providers that use the network may run)" : "  (providers that use the network stay off)") + "\n"
        if order.isEmpty {
            text += "  [tools] " + palette.dim("no order set: the enabled provider with the highest priority serves each tool") + "\n"
        } else {
            text += "  [tools]\n"
            for (tool, ids) in order.sorted(by: { $0.key < $1.key }) {
                text += "    \(tool) = [\(ids.map { "\"\($0)\"" }.joined(separator: ", "))]\n"
            }
        }
        for (id, values) in settings.sorted(by: { $0.key < $1.key }) {
            text += "  [providers.\"\(id)\"]\n"
            let table = configuration.providerSettings[id] ?? TOMLTable()
            for key in table.keys { text += "    \(key) = \(values[key] ?? "")\n" }
        }
        let off = RuleFamily.allCases.filter { !configuration.proofreading.families.contains($0) }.map(\.rawValue)
        text += "  [proofreading] on: \(families.isEmpty ? "-" : families.joined(separator: ", "))"
            + palette.dim(off.isEmpty ? "" : "  (off: \(off.joined(separator: ", ")); turn on with \(off[0]) = true)") + "\n"
        text += "  [proofreading] recurring_words = \(configuration.proofreading.recurringWords)\n"
        if !configuration.disabled.isEmpty {
            text += "  disabled: \(configuration.disabled.sorted().joined(separator: ", "))\n"
        }
        for warning in configuration.warnings { text += palette.yellow("  warning: \(warning)") + "\n" }
        text += "\n" + palette.bold("Providers are searched in") + "\n"
        for directory in environment.searchPath { text += "  \(show(directory))\n" }
        text += "\n" + palette.bold("Other files") + "\n"
        text += "  discovery cache: \(show(environment.cacheFile))\n"
        text += "  plugin scanner:  \(show(scanner))" + (out.scannerFound ? "" : palette.dim(" (not found: new plugins cannot be probed; set EMEND_SCANNER)")) + "\n"
        text += "  follow-up state: \(show(environment.stateDirectory.map { Paths.join($0, "rewrites") }))\n"
        text += "  your words:      \(show(dictionaryFile)) (\(dictionary.words.count) word\(dictionary.words.count == 1 ? "" : "s"))\n"
        text += "  ignored rules:   \(show(rulesFile)) (\(dictionary.ignoredRules.count))\n"
        text += "\nExample \(show(file)):\n" + palette.dim("""
              network = false
              [tools]
              proofread = ["org.emend.example.c", "org.emend.fixture"]
              [providers."org.emend.example.c"]
              word_delay_ms = 0
            """) + "\n"
        Terminal.out(text)
    }
}
