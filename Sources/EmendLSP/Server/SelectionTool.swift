import EmendCore

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
