import EmendCore
import EmendText

/// The server's state for one open document: the text, what kind of prose it holds, when
/// its next check is due, its units as last cut, and what was last published.
struct OpenDocument {
    var document: TextDocument
    var kind: DocumentKind
    /// When the debounce for the last change ends (monotonic ms); nil: nothing to do.
    var checkDue: Int64?
    /// The units of `unitsVersion` of the text.
    var units: [CheckUnit] = []
    var unitsVersion: Int?
    var check = CheckState.idle
    var publishedVersion: Int?
    var lastPublish: Int64 = 0

    init(_ document: TextDocument) {
        self.document = document
        self.kind = DocumentKind.forLanguage(document.languageID)
    }

    /// Recuts the units when the text changed since they were cut.
    mutating func refreshUnits() {
        guard unitsVersion != document.version else { return }
        units = CheckUnits.units(of: document.bytes, kind: kind)
        unitsVersion = document.version
    }
}
