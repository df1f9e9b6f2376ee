import EmendCore

/// A selection tool running on the tool worker: who waits for it, how far its progress
/// report got, and where its selection is now that the user may have typed elsewhere.
struct ToolRun {
    enum Reply {
        /// codeAction/resolve: the action comes back with its edit.
        case resolve(RequestIdentifier, JSON)
        /// workspace/executeCommand: answered at once (a client never waits for a model);
        /// the edit goes out as workspace/applyEdit when the model has finished.
        case applyEdit

        var requestID: RequestIdentifier? {
            switch self {
            case .resolve(let id, _): return id
            case .applyEdit: return nil
            }
        }
    }

    /// Progress is reported only after the client created the token, so a run that ends
    /// before that waits for the answer (then reports begin and end) rather than answering
    /// with no progress at all.
    enum Progress {
        case none
        case creating(finished: ToolOutcome?)
        /// Begun; the last report (or the begin) went out at `reported` (monotonic ms).
        case begun(reported: Int64)
    }

    /// Where the selection the model read is in the document as it is now. Edits the user
    /// makes elsewhere while the model writes only move it; the result is mapped, not lost.
    enum Placement: Equatable {
        case at(Range<Int>)
        /// An edit touched the selection (or replaced the whole text, or the document was
        /// closed): the result was written for text that is no longer there.
        case overwritten
    }

    let reply: Reply
    let uri: String
    let version: Int
    /// The selection as the model read it (bytes of the text at `version`).
    let selection: Range<Int>
    var placement: Placement
    let tool: SelectionTool
    /// The `$/progress` token: the request's `workDoneToken`, or one the server creates.
    let token: JSON
    var progress = Progress.none
    /// When the run started (monotonic ms), for the progress reports.
    let started: Int64

    init(reply: Reply, uri: String, version: Int, selection: Range<Int>, tool: SelectionTool, token: JSON) {
        self.reply = reply
        self.uri = uri
        self.version = version
        self.selection = selection
        self.placement = .at(selection)
        self.tool = tool
        self.token = token
        self.started = MonotonicClock.nowMilliseconds()
    }

    /// The document's bytes `range` became `length` bytes (nil range: the whole text was
    /// replaced). An edit that ends at or before the selection moves it; one that starts at
    /// or after its end leaves it; anything else overwrites it.
    mutating func see(_ range: Range<Int>?, becameLength length: Int) {
        guard case .at(let now) = placement else { return }
        guard let range else { return placement = .overwritten }
        if range.upperBound <= now.lowerBound {
            let delta = length - range.count
            placement = .at((now.lowerBound + delta)..<(now.upperBound + delta))
        } else if range.lowerBound >= now.upperBound {
            return
        } else {
            placement = .overwritten
        }
    }

    /// `range` of the text the model read, in the text as it is now; nil when it cannot be
    /// placed (the selection was overwritten, or the range reaches outside the selection
    /// and the document changed at all).
    func mapped(_ range: Range<Int>, currentVersion: Int) -> Range<Int>? {
        guard case .at(let now) = placement else { return nil }
        guard range.lowerBound >= selection.lowerBound && range.upperBound <= selection.upperBound else {
            return currentVersion == version ? range : nil
        }
        let shift = now.lowerBound - selection.lowerBound
        return (range.lowerBound + shift)..<(range.upperBound + shift)
    }
}

/// A tool's workspace/applyEdit waiting for its time (`LanguageServer.applyEditGapMilliseconds`).
struct HeldEdit {
    let due: Int64
    let params: JSON
    let title: String
}
