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
