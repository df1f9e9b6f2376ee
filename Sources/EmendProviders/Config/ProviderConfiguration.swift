import EmendCore
import EmendProofreading

/// The user's choices about providers, from `$XDG_CONFIG_HOME/emend/config.toml`:
///
/// ```toml
/// network = false                  # providers that use the network stay off unless true
/// [tools]
/// proofread = ["org.example.speller", "org.emend.fixture"]   # preferred order per tool
/// [providers."org.example.speller"]  # settings handed to that provider's create()
/// dictionary = "en_US"
/// enabled = true                   # false disables one provider
/// isolation = "none"               # trust it in process (default "process": a provider host)
/// memory_mb = 8192                 # a limit for this provider (see [limits])
/// timeout_ms = 60000               # its proofreading time limit per 256 KB (MemberTimeLimit; the plugin gets it too)
/// sandbox = "off"                  # trust its host unconfined (default "on"; see HostSandbox)
/// sandbox_paths = ["~/corpora"]    # more paths its sandbox may read
/// sandbox_write_paths = ["~/notes/.checker"]   # paths it may also write
/// [limits]                         # every provider host (ProviderLimits has the defaults)
/// memory_mb = 4096
/// max_result_bytes = 16777216
/// max_edit_bytes = 65536
/// cancel_grace_ms = 2000
/// cpu_seconds = 600                # CPU time of one run (RunCPUTime)
/// [service]                        # the per-user checker service (HostRoute)
/// hosts = "service"                # provider hosts in the service, or "process": this process's own
/// idle_timeout_ms = 600000         # the service exits after this long without front ends
/// ```
///
/// A missing file means the defaults. Unknown tool names and wrong types are errors naming
/// the file and line; unknown top-level keys are kept as warnings (other parts of Emend
/// may read the same file).
public struct ProviderConfiguration: Sendable, Equatable {
    /// Whether providers that use the network may run.
    public var network = false
    /// Preferred provider ids per tool, best first.
    public var toolOrder: [WritingTool: [String]] = [:]
    /// Each provider's table, without the host's own `enabled` key.
    public var providerSettings: [String: TOMLTable] = [:]
    /// Providers with `enabled = false`.
    public var disabled: Set<String> = []
    /// Providers with an `isolation` of their own (the default is `.process`).
    public var isolation: [String: ProviderIsolation] = [:]
    /// Providers with `sandbox = "off"`: their host runs unconfined, with libemend's environment.
    public var unsandboxed: Set<String> = []
    /// `sandbox_paths` per provider: more paths its sandbox may read.
    public var sandboxPaths: [String: [String]] = [:]
    /// `sandbox_write_paths` per provider: paths its sandbox may also write.
    public var sandboxWritePaths: [String: [String]] = [:]
    /// The limits of every provider host ([limits] over the defaults).
    public var limits = ProviderLimits()
    /// `timeout_ms` of a provider's table: its time limit in a combined proofread, per
    /// `MemberTimeLimit.unitBytes` of text; the plugin gets it among its settings as well.
    public var providerTimeouts: [String: Int64] = [:]
    /// Limits set for one provider in its table, by key.
    public var providerLimits: [String: [String: Int]] = [:]
    /// Things worth a log line that are not errors.
    public var warnings: [String] = []
    /// The file it came from, if any (for messages).
    public var path: String?
    /// `[proofreading]`: rule families on, recurring words.
    public var proofreading = ProofreadingPreferences()
    /// `[service]`: where provider hosts run, and the service's idle time.
    public var service = ServiceSettings()

    public init() {}

    /// Reads `path`; a missing file gives the defaults.
    public static func load(path: String) throws(EmendError) -> ProviderConfiguration {
        switch TextFile.read(path) {
        case .success(let text):
            var configuration = try parse(text, source: path)
            configuration.path = path
            return configuration
        case .failure(.missing):
            var configuration = ProviderConfiguration()
            configuration.path = path
            return configuration
        case .failure(.failed(let why)):
            throw EmendError(.invalidArgument, "\(path): cannot be read: \(why)")
        }
    }

    /// Parses the text of a config file; `source` names it in errors.
    public static func parse(_ text: String, source: String = "config.toml") throws(EmendError) -> ProviderConfiguration {
        let document = try TOMLParser.parse(text, source: source)
        func fail(_ path: [String], _ message: String) -> EmendError {
            let line = ConfigKeyLocator.line(of: path, in: text).map { ":\($0)" } ?? ""
            return EmendError(.invalidArgument, "\(source)\(line): \(message)")
        }
        var configuration = ProviderConfiguration()
        for key in document.keys {
            guard let value = document[key] else { continue }
            switch key {
            case "network":
                guard let flag = value.boolean else { throw fail([key], "network must be true or false, not \(article(value.typeName))") }
                configuration.network = flag
            case "tools":
                guard let tools = value.table else { throw fail([key], "tools must be a table ([tools])") }
                configuration.toolOrder = try toolOrder(tools, fail: fail)
            case "proofreading":
                guard let table = value.table else { throw fail([key], "proofreading must be a table ([proofreading])") }
                configuration.proofreading = try proofreading(table, fail: fail)
            case "providers":
                guard let providers = value.table else {
                    throw fail([key], "providers must be tables ([providers.\"org.example.id\"])")
                }
                for id in providers.keys {
                    guard let table = providers[id]?.table else {
                        throw fail(["providers", id], "providers.\"\(id)\" must be a table ([providers.\"\(id)\"])")
                    }
                    var settings = TOMLTable()
                    for name in table.keys {
                        guard let setting = table[name] else { continue }
                        if name == "isolation" {
                            guard let text = setting.string, let mode = ProviderIsolation(rawValue: text) else {
                                throw fail(["providers", id, name], "[providers.\"\(id)\"] isolation must be \"process\" or \"none\"")
                            }
                            configuration.isolation[id] = mode
                        } else if name == "sandbox" {
                            guard let text = setting.string, text == "on" || text == "off" else {
                                throw fail(["providers", id, name], "[providers.\"\(id)\"] sandbox must be \"on\" or \"off\"")
                            }
                            if text == "off" { configuration.unsandboxed.insert(id) }
                        } else if name == "sandbox_paths" || name == "sandbox_write_paths" {
                            guard let items = setting.array, let paths = Optional(items.compactMap(\.string)), paths.count == items.count,
                                  paths.allSatisfy({ $0.hasPrefix("/") || $0.hasPrefix("~/") }) else {
                                throw fail(["providers", id, name], "[providers.\"\(id)\"] \(name) must be an array of absolute paths "
                                           + "(or ~/...), e.g. [\"/srv/corpora\"]")
                            }
                            if name == "sandbox_paths" { configuration.sandboxPaths[id] = paths } else { configuration.sandboxWritePaths[id] = paths }
                        } else if ProviderLimits.isKey(name) {
                            let value = try limit(setting, name: "[providers.\"\(id)\"] \(name)", path: ["providers", id, name], fail: fail)
                            configuration.providerLimits[id, default: [:]][name] = value
                        } else if name == "timeout_ms" {
                            guard let number = setting.integer, number > 0 else {
                                throw fail(["providers", id, name], "[providers.\"\(id)\"] timeout_ms must be a whole number of milliseconds above 0, not \(setting.plainText)")
                            }
                            configuration.providerTimeouts[id] = number
                            // Handed to the plugin too: one with a limit of its own (the process
                            // provider stops its checker at it) follows the user's, instead of
                            // stopping Harper at its built-in 60 s after the user allowed more.
                            settings[name] = setting
                        } else if name == "enabled" {
                            guard let enabled = setting.boolean else {
                                throw fail(["providers", id, name], "[providers.\"\(id)\"] enabled must be true or false, not \(article(setting.typeName))")
                            }
                            if !enabled { configuration.disabled.insert(id) }
                        } else if case .table = setting {
                            throw fail(["providers", id, name], "[providers.\"\(id)\"] \(name): settings are plain values, not tables")
                        } else {
                            settings[name] = setting
                        }
                    }
                    configuration.providerSettings[id] = settings
                }
            case "service":
                guard let table = value.table else { throw fail([key], "service must be a table ([service])") }
                for name in table.keys {
                    switch name {
                    case "hosts":
                        guard let text = table[name]?.string, let hosts = ServiceSettings.Hosts(rawValue: text) else {
                            throw fail([key, name], "[service] hosts must be \"service\" or \"process\"")
                        }
                        configuration.service.hosts = hosts
                    case "idle_timeout_ms":
                        configuration.service.idleTimeoutMilliseconds =
                            try limit(table[name]!, name: "[service] idle_timeout_ms", path: [key, name], fail: fail)
                    default:
                        throw fail([key, name], "[service] \"\(name)\" is not a setting (settings: hosts, idle_timeout_ms)")
                    }
                }
            case "limits":
                guard let table = value.table else { throw fail([key], "limits must be a table ([limits])") }
                for name in table.keys {
                    guard let entry = ProviderLimits.keys.first(where: { $0.name == name }) else {
                        let known = ProviderLimits.keys.map(\.name).joined(separator: ", ")
                        throw fail([key, name], "[limits] \"\(name)\" is not a limit (limits: \(known))")
                    }
                    entry.apply(&configuration.limits, try limit(table[name]!, name: "[limits] \(name)", path: [key, name], fail: fail))
                }
            default:
                configuration.warnings.append("\(source): unknown key \"\(key)\" (ignored)")
            }
        }
        return configuration
    }

    private static func toolOrder(_ tools: TOMLTable, fail: ([String], String) -> EmendError) throws(EmendError) -> [WritingTool: [String]] {
        var order: [WritingTool: [String]] = [:]
        for name in tools.keys {
            guard let tool = WritingTool.allCases.first(where: { $0.name == name }) else {
                let known = WritingTool.allCases.map(\.name).joined(separator: ", ")
                throw fail(["tools", name], "[tools] \"\(name)\" is not a tool (tools: \(known))")
            }
            guard let items = tools[name]?.array, let ids = Optional(items.compactMap(\.string)), ids.count == items.count else {
                throw fail(["tools", name], "[tools] \(name) must be an array of provider ids, e.g. [\"org.emend.fixture\"]")
            }
            order[tool] = ids
        }
        return order
    }

    private static func proofreading(_ table: TOMLTable, fail: ([String], String) -> EmendError) throws(EmendError) -> ProofreadingPreferences {
        var preferences = ProofreadingPreferences()
        for name in table.keys {
            guard let value = table[name] else { continue }
            if let family = RuleFamily(rawValue: name) {
                guard let on = value.boolean else {
                    throw fail(["proofreading", name], "[proofreading] \(name) must be true or false, not \(article(value.typeName))")
                }
                if on { preferences.families.insert(family) } else { preferences.families.remove(family) }
            } else if name == "recurring_words" {
                guard let count = value.integer, count >= 0, count <= 1000 else {
                    throw fail(["proofreading", name], "[proofreading] recurring_words must be an integer from 0 to 1000")
                }
                preferences.recurringWords = Int(count)
            } else {
                let known = (RuleFamily.allCases.map(\.rawValue) + ["recurring_words"]).joined(separator: ", ")
                throw fail(["proofreading", name], "[proofreading] \"\(name)\" is not a setting (settings: \(known))")
            }
        }
        return preferences
    }

    /// A limit's value: a whole number, 0 or more.
    private static func limit(_ value: TOMLValue, name: String, path: [String],
                              fail: ([String], String) -> EmendError) throws(EmendError) -> Int {
        guard let number = value.integer, number >= 0, number <= Int64(Int32.max) * 1024 else {
            throw fail(path, "\(name) must be a whole number of 0 or more, not \(value.plainText)")
        }
        return Int(number)
    }

    /// Where provider `id` runs.
    public func isolation(for id: String) -> ProviderIsolation { isolation[id] ?? .process }

    /// What the sandbox of `record`'s host allows (`sandbox`, `sandbox_paths`, `network`).
    public func sandbox(for record: ProviderRecord) -> HostSandbox {
        HostSandbox.policy(record: record, settings: settings(for: record.id), enabled: !unsandboxed.contains(record.id),
                           userPaths: sandboxPaths[record.id] ?? [], userWritePaths: sandboxWritePaths[record.id] ?? [])
    }

    /// The limits of provider `id`'s host: [limits], then its own table.
    public func limits(for id: String) -> ProviderLimits {
        var limits = self.limits
        for (key, value) in providerLimits[id] ?? [:] {
            ProviderLimits.keys.first { $0.name == key }?.apply(&limits, value)
        }
        return limits
    }

    /// "an integer", "a string".
    private static func article(_ typeName: String) -> String {
        (typeName.first.map { "aeiou".contains($0) } ?? false ? "an " : "a ") + typeName
    }

    /// The settings for provider `id` (its table without `enabled`).
    public func settings(for id: String) -> TOMLTable {
        providerSettings[id] ?? TOMLTable()
    }

    /// The settings for provider `id` as text pairs, in file order, for a plugin's create().
    public func settingPairs(for id: String) -> [(key: String, value: String)] {
        let table = settings(for: id)
        return table.keys.compactMap { key in table[key].map { (key: key, value: $0.plainText) } }
    }

    /// The file name for messages ("config.toml" when there is no file).
    var fileName: String {
        guard let path else { return "config.toml" }
        return path.split(separator: "/").last.map(String.init) ?? path
    }
}
