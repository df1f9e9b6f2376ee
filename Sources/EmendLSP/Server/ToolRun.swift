/// A selection tool running on the tool worker: who waits for it and how far its progress
/// report got.
struct ToolRun {
    enum Reply {
        /// codeAction/resolve: the action comes back with its edit.
        case resolve(RequestIdentifier, JSON)
        /// workspace/executeCommand (clients that cannot resolve): the edit goes out as
        /// workspace/applyEdit.
        case command(RequestIdentifier)

        var id: RequestIdentifier {
            switch self {
            case .resolve(let id, _), .command(let id): return id
            }
        }
    }

    /// Progress is reported only after the client created the token, so a run that ends
    /// before that waits for the answer (then reports begin and end) rather than answering
    /// with no progress at all.
    enum Progress {
        case none
        case creating(finished: ToolOutcome?)
        case begun
    }

    let reply: Reply
    let uri: String
    let version: Int
    let selection: Range<Int>
    let tool: SelectionTool
    var progress = Progress.none

    var token: JSON { .string("emend-tool-\(reply.id)") }
}
