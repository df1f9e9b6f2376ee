import EmendCore

/// A catalog whose one proofreader checks each paragraph in the language it is written in
/// (`Proofreader.detectingLanguage`); everything else as `base` gives it. Why a catalog: a
/// libemend coordinator asks its catalog for the proofreader, and only the engine's options
/// say whether the user fixed a language (then the registry is handed over as it is). The
/// CLI and the language server wrap their own catalogs' proofreaders the same way.
public struct LanguageDetectingCatalog: ProviderCatalog, ProviderListing {
    public let base: ProviderCatalog
    public let detector: LanguageDetector?

    public init(base: ProviderCatalog, detector: LanguageDetector? = LanguageDetector.shared) {
        self.base = base
        self.detector = detector
    }

    public func provider(for tool: WritingTool, named id: String?) throws(EmendError) -> WritingProvider {
        try base.provider(for: tool, named: id)
    }

    public func proofreader(for tool: WritingTool) throws(EmendError) -> WritingProvider {
        Proofreader.detectingLanguage(try base.proofreader(for: tool), detector: detector)
    }

    public func proofreader(for tool: WritingTool, named id: String) throws(EmendError) -> WritingProvider {
        Proofreader.detectingLanguage(try base.proofreader(for: tool, named: id), detector: detector)
    }

    public var summaries: [ProviderSummary] { (base as? ProviderListing)?.summaries ?? [] }
}
