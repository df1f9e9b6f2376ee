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

/// Where a document's check stands.
enum CheckState: Equatable {
    case idle
    /// Some of its units are with the checker; `progress` is how the client hears of it.
    case checking(progress: CheckProgress)
}

/// Progress of a long check (opening a large document), as `$/progress` when the client
/// supports it: an editor shows "checking 40%" instead of nothing for a minute.
enum CheckProgress: Equatable {
    /// A short check (a keystroke's paragraph): nothing to report.
    case silent
    /// window/workDoneProgress/create sent, not answered yet.
    case creating(token: String, total: Int)
    case reporting(token: String, total: Int)
}

/// The tools offered over a selection, as code actions of kind `refactor.rewrite`.
enum SelectionTool: String, CaseIterable {
    case friendly, professional, concise, summarize, list, table

    var title: String {
        switch self {
        case .friendly: return "Rewrite: friendly"
        case .professional: return "Rewrite: professional"
        case .concise: return "Rewrite: concise"
        case .summarize: return "Summarize"
        case .list: return "Make a list"
        case .table: return "Make a table"
        }
    }

    var tool: WritingTool {
        switch self {
        case .friendly: return .rewriteFriendly
        case .professional: return .rewriteProfessional
        case .concise: return .rewriteConcise
        case .summarize: return .summary
        case .list: return .list
        case .table: return .table
        }
    }
}
