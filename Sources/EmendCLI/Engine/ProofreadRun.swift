import EmendCore
import EmendProofreading

/// Proofreading a whole document: one coordinator session over all of it, as an editor that
/// gives its whole document as the context would run it. (It used to cut large files into
/// 256 KB pieces, one session each, because a delivered suggestion cost time in proportion
/// to the document; the session's text is a rope now, so a 10 MB file with thousands of
/// suggestions takes one session.)
final class ProofreadRun {
    let setup: ToolSetup
    private(set) var driver: SessionDriver?
    /// Every suggestion, in document order and document offsets.
    private(set) var findings: [Finding] = []
    /// The providers of the run (started once; a re-check uses them again).
    private var catalog: CLICatalog?

    init(setup: ToolSetup) {
        self.setup = setup
    }

    /// Runs proofread; the session rests with its suggestions delivered.
    func run() throws(CLIFailure) {
        let progress = Progress(label: "proofreading \(setup.name)")
        defer { progress.clear() }
        // `--provider ID` goes to the catalog's one proofreader, not to the coordinator by id:
        // the named checker is combined, bounded and language-detected as the default ones.
        var setup = setup
        if setup.catalog == nil {
            setup.catalog = CLICatalog(base: setup.registry, extras: setup.extras, language: setup.options.language,
                                       proofreadProvider: setup.options.provider, stream: StreamBuffer())
        }
        catalog = setup.catalog
        let driver = try setup.makeDriver()
        self.driver = driver
        try driver.run(.proofread, progress: progress)
        findings = Finding.from(driver.coordinator.suggestions)
    }

    /// The suggestions of the same checkers for `bytes` (another text than the document's: the
    /// sentences `NeighbourRecheck` asks about), or nil when some checker's part is missing
    /// from them (it timed out or failed). The document's session is left as it rests.
    func recheck(_ bytes: [UInt8]) throws(CLIFailure) -> [NeighbourRecheck.Candidate]? {
        var setup = setup
        setup.catalog = catalog
        let progress = Progress(label: "re-checking sentences with several suggestions in \(setup.name)")
        defer { progress.clear() }
        let driver = try setup.makeDriver(bytes: bytes, selection: 0..<0, protected: [])
        try driver.run(.proofread, progress: progress)
        defer { try? driver.coordinator.revert(); try? driver.settle() }
        if driver.coordinator.completeness?.isPartial == true { return nil }
        return Finding.from(driver.coordinator.suggestions).map { .init(range: $0.range, replacement: $0.replacement) }
    }

    /// What became of each checker's part (nil: one provider served it whole).
    var completeness: Completeness? { driver?.coordinator.completeness }

    /// Ids of the providers that served the document.
    var providers: [String] { driver?.catalog.lastChosen ?? [] }

    func accept(_ finding: Finding) throws(CLIFailure) {
        guard let driver else { return }
        do { try driver.coordinator.acceptSuggestion(finding.index) } catch { throw CLIFailure.from(error, subject: setup.name) }
        try driver.settle()
    }

    func reject(_ finding: Finding) throws(CLIFailure) {
        guard let driver else { return }
        do { try driver.coordinator.rejectSuggestion(finding.index) } catch { throw CLIFailure.from(error, subject: setup.name) }
        try driver.settle()
    }

    /// Done: the session keeps its text (the pending suggestions stay applied).
    func acceptAll() throws(CLIFailure) {
        guard let driver, driver.coordinator.state != .inactive else { return }
        do { try driver.coordinator.accept() } catch { throw CLIFailure.from(error, subject: setup.name) }
        try driver.settle()
    }

    /// The session puts the original back.
    func revertAll() {
        guard let driver, driver.coordinator.state != .inactive else { return }
        try? driver.coordinator.revert()
        try? driver.settle()
    }

    /// The document as the session left it.
    var resultBytes: [UInt8] { driver?.engine.bytes ?? setup.bytes }

    /// The driver to route signals through while reviewing.
    var anyDriver: SessionDriver? { driver }
}
