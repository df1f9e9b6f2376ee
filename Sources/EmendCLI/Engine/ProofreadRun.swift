import EmendCore

/// Proofreading a whole document. A large document is proofread in pieces of about 256 KB,
/// cut at paragraph breaks outside protected text, one coordinator session per piece: each
/// delivered suggestion changes its session's text, and a change costs time in proportion
/// to the length of that text, so a 10 MB file with thousands of suggestions is proofread
/// in seconds instead of minutes. Providers see the same paragraphs either way. With
/// --selection the document is one piece.
final class ProofreadRun {
    struct Piece {
        let offset: Int
        let driver: SessionDriver
    }

    let setup: ToolSetup
    private(set) var pieces: [Piece] = []
    /// Every suggestion, in document order and document offsets.
    private(set) var findings: [Finding] = []

    static let pieceBytes = 256 * 1024

    init(setup: ToolSetup) {
        self.setup = setup
    }

    /// Runs proofread on every piece; the sessions rest with their suggestions delivered.
    func run() throws(CLIFailure) {
        let bytes = setup.bytes
        let spans = setup.selection.isEmpty
            ? PieceSplitter.pieces(of: bytes, protected: setup.protected, target: ProofreadRun.pieceBytes)
            : [0..<bytes.count]
        let progress = Progress(label: "proofreading \(setup.name)")
        defer { progress.clear() }
        for (number, span) in spans.enumerated() {
            if spans.count > 1 { progress.detail = "\(span.lowerBound * 100 / max(bytes.count, 1))%" }
            let protected = setup.protected.filter { $0.lowerBound >= span.lowerBound && $0.upperBound <= span.upperBound }
                .map { ($0.lowerBound - span.lowerBound)..<($0.upperBound - span.lowerBound) }
            let selection = setup.selection.isEmpty ? 0..<0 : setup.selection
            let driver = try setup.makeDriver(bytes: Array(bytes[span]), selection: selection, protected: protected)
            try driver.run(.proofread, providerID: setup.options.provider, progress: progress)
            findings += Finding.from(driver.coordinator.suggestions).map { $0.shifted(by: span.lowerBound, piece: number) }
            pieces.append(Piece(offset: span.lowerBound, driver: driver))
        }
    }

    /// Ids of the providers that served the first piece.
    var providers: [String] { pieces.first?.driver.catalog.lastChosen ?? [] }

    func accept(_ finding: Finding) throws(CLIFailure) {
        let driver = pieces[finding.piece].driver
        do { try driver.coordinator.acceptSuggestion(finding.index) } catch { throw CLIFailure.from(error, subject: setup.name) }
        try driver.settle()
    }

    func reject(_ finding: Finding) throws(CLIFailure) {
        let driver = pieces[finding.piece].driver
        do { try driver.coordinator.rejectSuggestion(finding.index) } catch { throw CLIFailure.from(error, subject: setup.name) }
        try driver.settle()
    }

    /// Done: every session keeps its text (the pending suggestions stay applied).
    func acceptAll() throws(CLIFailure) {
        for piece in pieces where piece.driver.coordinator.state != .inactive {
            do { try piece.driver.coordinator.accept() } catch { throw CLIFailure.from(error, subject: setup.name) }
            try piece.driver.settle()
        }
    }

    /// Every session puts its original back.
    func revertAll() {
        for piece in pieces where piece.driver.coordinator.state != .inactive {
            try? piece.driver.coordinator.revert()
            try? piece.driver.settle()
        }
    }

    /// The document as the sessions left it.
    var resultBytes: [UInt8] {
        pieces.flatMap { $0.driver.engine.bytes }
    }

    /// The driver to route signals through while reviewing.
    var anyDriver: SessionDriver? { pieces.first?.driver }
}

/// Cuts a document into pieces at paragraph breaks (else line breaks) that are not inside
/// protected text.
enum PieceSplitter {
    static func pieces(of bytes: [UInt8], protected: [Range<Int>], target: Int) -> [Range<Int>] {
        guard bytes.count > target * 3 / 2 else { return [0..<bytes.count] }
        var pieces: [Range<Int>] = []
        var start = 0
        var guardIndex = 0
        func isProtected(_ offset: Int) -> Bool {
            while guardIndex < protected.count && protected[guardIndex].upperBound <= offset { guardIndex += 1 }
            guard guardIndex < protected.count else { return false }
            return protected[guardIndex].lowerBound < offset
        }
        while bytes.count - start > target * 3 / 2 {
            var cut: Int?
            var lineCut: Int?
            var j = start + target
            while j < bytes.count {
                if bytes[j - 1] == 0x0A && !isProtected(j) {
                    let blank = bytes[j - 2] == 0x0A || (bytes[j - 2] == 0x0D && j >= 3 && bytes[j - 3] == 0x0A)
                    if blank { cut = j; break }
                    if lineCut == nil { lineCut = j }
                }
                // No paragraph break for a long way: take the first line break.
                if lineCut != nil && j - start > target * 2 { break }
                j += 1
            }
            guard let at = cut ?? lineCut, bytes.count - at > 0 else { break }
            pieces.append(start..<at)
            start = at
        }
        pieces.append(start..<bytes.count)
        return pieces
    }
}
