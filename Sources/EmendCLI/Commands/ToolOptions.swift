import ArgumentParser
import EmendCore
import EmendText
import EmendProviders
import EmendMarkdown

extension EncodingArgument: ExpressibleByArgument {}

/// Options every Writing Tool shares.
struct ToolOptions: ParsableArguments {
    @Option(name: .customLong("provider"), help: ArgumentHelp("Use this provider (an id from `emend providers`).", valueName: "id"))
    var provider: String?

    @Option(help: ArgumentHelp("Language of the text as a BCP 47 tag (default en-US).", valueName: "tag"))
    var language: String?

    @Option(help: ArgumentHelp("Work on part of the text only, START:END in --encoding units (START: or :END for open ends; N alone is a caret for compose).", valueName: "start:end"))
    var selection: String?

    @Option(help: ArgumentHelp("Units of --selection and of offsets in the output: utf8 (bytes), utf16 or codepoint.", valueName: "unit"))
    var encoding: EncodingArgument = .utf8

    @Option(name: .customLong("result-options"),
            help: ArgumentHelp("Shapes of text you accept, comma separated: plain, rich, list, table, intents.", valueName: "list"))
    var resultOptions: String?

    @Flag(help: "Print machine-readable JSON.")
    var json = false

    @Flag(help: "Apply (and print) a result even when it is poor or changes a fact of the text; the reason is printed as a warning. (Without it such a result is not applied: exit status 5.)")
    var force = false

    @Flag(name: .customLong("no-protect"), help: "Let tools change Markdown code, quotes and front matter, or LaTeX markup (protected by default).")
    var noProtect = false

    @Flag(help: "Read the input as Markdown (the default for .md files).")
    var markdown = false

    @Flag(help: "Read the input as LaTeX: commands, math, comments and non-prose environments are never changed (the default for .tex, .ltx, .sty and .cls files).")
    var latex = false

    @Option(help: ArgumentHelp("Give up on the provider after this many seconds (a model tool then exits 3 and says it timed out).", valueName: "seconds"))
    var timeout: Double = 600

    func validate() throws {
        if let selection, SelectionArgument.parse(selection) == nil {
            throw ValidationError("--selection \(selection): write START:END with whole numbers, e.g. --selection 0:120")
        }
        if let resultOptions { _ = try ToolOptions.parseResultOptions(resultOptions) }
        if markdown && latex { throw ValidationError("--markdown and --latex cannot be combined; choose the input's format") }
        guard timeout > 0 else { throw ValidationError("--timeout must be more than 0 seconds") }
        if let language, language.isEmpty || language.contains(where: { $0 == " " || $0 == "/" }) {
            throw ValidationError("--language \(language): give a BCP 47 tag such as en-US or de")
        }
    }

    static func parseResultOptions(_ text: String) throws -> ResultOptions {
        var options: ResultOptions = []
        for name in text.split(separator: ",").map({ $0.trimmingCharacters(in: " ") }) where !name.isEmpty {
            switch name {
            case "plain", "plain-text": options.insert(.plainText)
            case "rich", "rich-text": options.insert(.richText)
            case "list": options.insert(.list)
            case "table": options.insert(.table)
            case "intents", "presentation-intent": options.insert(.presentationIntent)
            default: throw ValidationError("--result-options: unknown option \"\(name)\" (plain, rich, list, table, intents)")
            }
        }
        return options
    }
}

extension Substring {
    func trimmingCharacters(in set: Character) -> String {
        var s = self
        while s.first == set { s = s.dropFirst() }
        while s.last == set { s = s.dropLast() }
        return String(s)
    }
}

/// What a tool command works with once its input is read: the document, the selection in
/// UTF-8 bytes, the protected ranges, and the providers; it makes the drivers (a coordinator
/// over a `FileEngine`) that run the tools.
struct ToolSetup {
    let input: InputDocument
    /// The document the tool works on: the input, or for follow-up the rebuilt original.
    let bytes: [UInt8]
    let selection: Range<Int>
    let protected: [Range<Int>]
    let environment: ProviderEnvironment
    let registry: ProviderRegistry
    let options: ToolOptions
    let extras: [WritingProvider]
    /// The catalog every driver of this setup uses; nil: each driver makes its own. A
    /// many-file proofread shares one, so its checkers start once for all the files.
    var catalog: CLICatalog?

    var name: String { input.displayName }

    /// Reads the input, resolves the selection and protected ranges, discovers providers.
    /// `caretAtEnd`: with no --selection, the selection is a caret at the end (compose).
    static func prepare(file: String?, options: ToolOptions, caretAtEnd: Bool = false, emptyWithoutFile: Bool = false,
                        extras: [WritingProvider] = [], replacingText: [UInt8]? = nil,
                        selectionOverride: Range<Int>? = nil, document: InputDocument? = nil,
                        providers: (environment: ProviderEnvironment, registry: ProviderRegistry)? = nil) throws(CLIFailure) -> ToolSetup {
        let input: InputDocument
        if let document {
            input = document
        } else if file == nil && emptyWithoutFile {
            input = InputDocument(displayName: "<new text>", path: nil, bytes: [], status: nil)
        } else {
            input = try InputDocument.read(file)
        }
        let bytes = replacingText ?? input.bytes
        let text = String(decoding: bytes, as: UTF8.self)
        let selection: Range<Int>
        if let selectionOverride {
            selection = selectionOverride
        } else if let spelled = options.selection, let parsed = SelectionArgument.parse(spelled) {
            selection = try parsed.utf8Range(in: text, encoding: options.encoding.encoding, spelled: spelled, file: input.displayName)
        } else {
            selection = caretAtEnd ? bytes.count..<bytes.count : 0..<0
        }
        let protected: [Range<Int>]
        switch options.noProtect ? .plainText : InputFormat.of(input, options: options) {
        case .plainText: protected = []
        case .markdown: protected = MarkdownProtection.protectedRanges(in: bytes)
        case .latex: protected = LaTeXProtection.protectedRanges(in: bytes)
        }
        let environment: ProviderEnvironment
        let registry: ProviderRegistry
        if let providers {
            (environment, registry) = providers
        } else {
            environment = ProviderEnvironment()
            registry = try environment.registry()
        }
        return ToolSetup(input: input, bytes: bytes, selection: selection, protected: protected, environment: environment,
                         registry: registry, options: options, extras: extras, catalog: nil)
    }

    /// A driver over the whole document.
    func makeDriver() throws(CLIFailure) -> SessionDriver {
        try makeDriver(bytes: bytes, selection: selection, protected: protected)
    }

    /// A driver over `bytes`.
    func makeDriver(bytes: [UInt8], selection: Range<Int>, protected: [Range<Int>]) throws(CLIFailure) -> SessionDriver {
        let engine = FileEngine(text: bytes, selection: selection, protectedRanges: protected)
        var settings = SessionDriver.Settings()
        settings.resultOptions = (try? options.resultOptions.map(ToolOptions.parseResultOptions)) ?? []
        settings.language = options.language
        settings.timeoutSeconds = options.timeout
        settings.extras = extras
        return try SessionDriver(engine: engine, registry: registry, settings: settings, subject: input.displayName,
                                 catalog: catalog)
    }
}
