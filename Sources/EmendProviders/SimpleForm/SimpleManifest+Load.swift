import EmendCore

extension SimpleManifest {
    /// Reads and validates the manifest at `path`. Errors name the path, the table and the key.
    public static func load(path: String) throws(EmendError) -> SimpleManifest {
        let absolute = SimplePath.absolute(path)
        return try parse(try SimpleFile.read(absolute), path: absolute)
    }

    /// Validates manifest `text` as if read from `path` (which places a relative `library`).
    public static func parse(_ text: String, path: String) throws(EmendError) -> SimpleManifest {
        let path = SimplePath.absolute(path)
        let reader = SimpleManifestReader(path: path)
        let root = try TOMLParser.parse(text, source: path)
        for key in root.keys where !["provider", "function", "settings"].contains(key) {
            let what = root[key]?.table == nil ? "key \"\(key)\" outside any table" : "unknown table [\(key)]"
            throw EmendError(.invalidArgument, "\(path): \(what) (a manifest has [provider], [function] and [settings])")
        }
        let provider = try readProvider(try table(root, "provider", path, required: true), reader)
        let function = try readFunction(try table(root, "function", path, required: true), reader)
        let defaults = try readSettings(try table(root, "settings", path, required: false), function.arguments, reader)
        return SimpleManifest(path: path, id: provider.id, name: provider.name, version: provider.version, tools: provider.tools,
                              languages: provider.languages, priority: provider.priority, usesNetwork: provider.network,
                              libraryPath: SimplePath.resolve(function.library, in: SimplePath.directory(of: path)),
                              symbol: function.symbol, returns: function.returns, freeSymbol: function.free,
                              arguments: function.arguments, defaults: defaults)
    }

    private static func table(_ root: TOMLTable, _ name: String, _ path: String, required: Bool) throws(EmendError) -> TOMLTable {
        switch root[name] {
        case nil:
            guard !required else { throw EmendError(.invalidArgument, "\(path): [\(name)] is missing") }
            return TOMLTable()
        case .table(let t)?: return t
        case let other?: throw EmendError(.invalidArgument, "\(path): \(name) must be a table, not \(other.typeName)")
        }
    }

    /// [provider]: who it is and what it serves.
    private static func readProvider(_ values: TOMLTable, _ reader: SimpleManifestReader) throws(EmendError)
        -> (id: String, name: String, version: String, tools: Set<WritingTool>, languages: [String], priority: Int, network: Bool) {
        try reader.onlyKeys(values, of: "provider", ["id", "name", "version", "tools", "languages", "priority", "network"])
        let id = try reader.string(values, "provider", "id", "reverse-DNS identifier, e.g. \"org.example.shout\"")!
        guard SimpleName.isProviderID(id) else {
            throw reader.fail("provider", "id", "\"\(id)\" is not a reverse-DNS identifier (letters, digits, \".\", _ and -)")
        }
        let name = try reader.string(values, "provider", "name", "a name for people")!
        let version = try reader.string(values, "provider", "version", "the provider's own version, e.g. \"1.0\"")!
        let toolNames = try reader.strings(values, "provider", "tools", "the Writing Tools it serves, e.g. [\"rewrite-described\"]")!
        guard !toolNames.isEmpty else { throw reader.fail("provider", "tools", "must name at least one tool") }
        var tools = Set<WritingTool>()
        for (index, toolName) in toolNames.enumerated() {
            guard let tool = WritingTool.allCases.first(where: { $0.name == toolName }) else {
                let known = WritingTool.allCases.map(\.name).joined(separator: ", ")
                throw reader.fail("provider", "tools[\(index)]", "unknown tool \"\(toolName)\" (tools: \(known))")
            }
            tools.insert(tool)
        }
        let languages = try reader.strings(values, "provider", "languages", required: false, "BCP 47 tags") ?? ["*"]
        guard !languages.isEmpty else { throw reader.fail("provider", "languages", "must not be empty (use [\"*\"] for any language)") }
        let priority = try reader.integer(values, "provider", "priority", "higher is preferred") ?? 0
        guard let priority32 = Int32(exactly: priority) else { throw reader.fail("provider", "priority", "\(priority) is out of range") }
        let network = try reader.boolean(values, "provider", "network", "true if the function sends text over the network") ?? false
        return (id, name, version, tools, languages, Int(priority32), network)
    }

    /// [function]: the library, the symbol and the signature.
    private static func readFunction(_ values: TOMLTable, _ reader: SimpleManifestReader) throws(EmendError)
        -> (library: String, symbol: String, returns: SimpleReturn, free: String?, arguments: [SimpleArgument]) {
        try reader.onlyKeys(values, of: "function", ["library", "symbol", "returns", "free", "arguments"])
        let library = try reader.string(values, "function", "library", "the shared library, relative to the manifest's directory or absolute")!
        let symbol = try reader.string(values, "function", "symbol", "the C function to call")!
        guard SimpleName.isCIdentifier(symbol) else { throw reader.fail("function", "symbol", "\"\(symbol)\" is not a C identifier") }
        let returnsName = try reader.string(values, "function", "returns", "\"string\" or \"void\"")!
        guard let returns = SimpleReturn(rawValue: returnsName) else {
            throw reader.fail("function", "returns", "unknown return type \"\(returnsName)\" (\"string\" for a char * result, \"void\" for the streaming form)")
        }
        let free = try reader.string(values, "function", "free", required: returns == .string, "the function that frees the returned string")
        if let free {
            guard returns == .string else { throw reader.fail("function", "free", "only for returns = \"string\"; a void function returns nothing to free") }
            guard SimpleName.isCIdentifier(free) else { throw reader.fail("function", "free", "\"\(free)\" is not a C identifier") }
        }
        let spellings = try reader.strings(values, "function", "arguments", "the arguments in C order, e.g. [\"text\"]")!
        var arguments: [SimpleArgument] = []
        for (index, spelling) in spellings.enumerated() {
            let key = "arguments[\(index)]"
            let argument: SimpleArgument
            switch SimpleArgument.parse(spelling) {
            case .success(let parsed): argument = parsed
            case .failure(let problem): throw reader.fail("function", key, problem.reason)
            }
            switch argument {
            case .emit:
                guard returns == .void else {
                    throw reader.fail("function", key, "\"emit\" is only for returns = \"void\" (the streaming form)")
                }
                guard !arguments.contains(.emit) else { throw reader.fail("function", key, "\"emit\" appears twice") }
            case .setting(let settingName, _):
                if settingName == "enabled" {
                    throw reader.fail("function", key, "the setting name \"enabled\" is reserved (config.toml's enabled = false turns a provider off)")
                }
                if arguments.contains(where: { if case .setting(settingName, _) = $0 { return true } else { return false } }) {
                    throw reader.fail("function", key, "setting \"\(settingName)\" appears twice")
                }
            default: break
            }
            arguments.append(argument)
        }
        if returns == .void, !arguments.contains(.emit) {
            throw reader.fail("function", "arguments", "returns = \"void\" needs an \"emit\" argument (the streaming callback)")
        }
        return (library, symbol, returns, free, arguments)
    }

    /// [settings]: a default of the declared type for every setting argument, and nothing else.
    private static func readSettings(_ values: TOMLTable, _ arguments: [SimpleArgument], _ reader: SimpleManifestReader) throws(EmendError)
        -> [String: SimpleSettingValue] {
        let declared = arguments.compactMap { if case .setting(let name, let type) = $0 { return (name, type) } else { return nil } }
        var defaults: [String: SimpleSettingValue] = [:]
        for key in values.keys {
            guard let type = declared.first(where: { $0.0 == key })?.1 else {
                let names = declared.isEmpty ? "none" : declared.map(\.0).joined(separator: ", ")
                throw reader.fail("settings", key, "no setting:\(key):TYPE argument uses it (settings: \(names))")
            }
            switch type.convert(values[key]!) {
            case .success(let value): defaults[key] = value
            case .failure(let problem): throw reader.fail("settings", key, problem.reason)
            }
        }
        for (name, type) in declared where defaults[name] == nil {
            throw reader.fail("settings", name, "missing: every setting argument needs a default (here a \(type.rawValue))")
        }
        return defaults
    }
}
