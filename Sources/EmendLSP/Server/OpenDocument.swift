import EmendCore
import EmendText

/// The server's state for one open document: the text, what kind of prose it holds, when
/// its next check is due, its units as last cut with their findings, and when it was last published.
struct OpenDocument {
    var document: TextDocument
    var kind: DocumentKind
    /// When the debounce for the last change ends (monotonic ms); nil: nothing to do.
    var checkDue: Int64?
    /// The units of `unitsVersion` of the text.
    var units: [CheckUnit] = []
    var unitsVersion: Int?
    /// The findings of each of `units` (same order), nil while not known. Why kept here:
    /// a keystroke in a large document would otherwise hash every paragraph again at each
    /// step (check, each report, publish); now once per version of the text.
    var findings: [[UnitFinding]?] = []
    /// Units of this document the checker still owes findings for.
    var owed: Set<UnitKey> = []
    var check = CheckState.idle
    var lastPublish: Int64 = 0

    init(_ document: TextDocument) {
        self.document = document
        self.kind = DocumentKind.forLanguage(document.languageID)
    }

    /// Forgets the units' findings (the cache or the failed units changed): the next check
    /// looks every unit up again.
    mutating func forgetFindings() {
        unitsVersion = nil
    }

    /// Recuts the units when the text changed since they were cut.
    mutating func refreshUnits() {
        guard unitsVersion != document.version else { return }
        units = CheckUnits.units(of: document.bytes, kind: kind)
        unitsVersion = document.version
        findings = Array(repeating: nil, count: units.count)
        owed = []
    }
}
