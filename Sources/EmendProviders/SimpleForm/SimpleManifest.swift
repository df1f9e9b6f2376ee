import CEmend
import EmendCore

/// A simple-form manifest: a C function of an existing shared library, its signature and
/// what it provides. Loading parses and validates only; nothing is opened or called.
/// The format is documented in examples/plugins/simple/README.md.
public struct SimpleManifest: Sendable, Equatable {
    /// The manifest file, absolute.
    public let path: String
    public let id: String
    public let name: String
    public let version: String
    public let tools: Set<WritingTool>
    /// BCP 47 tags; ["*"] for any language.
    public let languages: [String]
    public let priority: Int
    public let usesNetwork: Bool
    /// The shared library, absolute (relative `library` values are resolved against the
    /// manifest's directory).
    public let libraryPath: String
    /// The function to call.
    public let symbol: String
    public let returns: SimpleReturn
    /// The function that frees a `string` result; nil for `void`.
    public let freeSymbol: String?
    /// The function's arguments in C order.
    public let arguments: [SimpleArgument]
    /// The manifest's [settings]: a default for every setting argument.
    public let defaults: [String: SimpleSettingValue]

    /// The symbols the library must export: the function, then the free function.
    public var requiredSymbols: [String] { [symbol] + (freeSymbol.map { [$0] } ?? []) }

    /// True for the streaming form (`returns = "void"` with an `emit` argument).
    public var streams: Bool { returns == .void }

    /// The declared settings in argument order, with their types.
    public var settingTypes: [(name: String, type: SimpleSettingType)] {
        arguments.compactMap { if case .setting(let name, let type) = $0 { return (name, type) } else { return nil } }
    }

    /// What discovery records for this manifest, found at `path`.
    public func record(path: String) -> ProviderRecord {
        ProviderRecord(path: path, kind: .simple, id: id, name: name, version: version, tools: tools,
                       languages: languages, outputs: UInt32(EMEND_OUTPUT_PLAIN), streams: streams,
                       usesNetwork: usesNetwork, priority: priority)
    }

    init(path: String, id: String, name: String, version: String, tools: Set<WritingTool>, languages: [String],
         priority: Int, usesNetwork: Bool, libraryPath: String, symbol: String, returns: SimpleReturn,
         freeSymbol: String?, arguments: [SimpleArgument], defaults: [String: SimpleSettingValue]) {
        self.path = path
        self.id = id
        self.name = name
        self.version = version
        self.tools = tools
        self.languages = languages
        self.priority = priority
        self.usesNetwork = usesNetwork
        self.libraryPath = libraryPath
        self.symbol = symbol
        self.returns = returns
        self.freeSymbol = freeSymbol
        self.arguments = arguments
        self.defaults = defaults
    }
}
