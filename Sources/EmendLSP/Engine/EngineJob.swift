import EmendCore

/// Work for an engine worker, each with the server's id for it.
public enum EngineJob: Sendable {
    /// Proofread these units (combined providers) and report their findings.
    case check(id: Int, units: [UnitKey])
    /// Run `tool` on `selection` of `text` (a whole document, with its protected ranges).
    case tool(id: Int, tool: WritingTool, text: [UInt8], selection: Range<Int>, protected: [Range<Int>])

    var id: Int {
        switch self {
        case .check(let id, _), .tool(let id, _, _, _, _): return id
        }
    }
}

/// What a worker reports back to the server's loop.
public enum EngineReport: Sendable {
    /// `partial`: what the result lacks (a checker that timed out or failed; see
    /// `Completeness`), nil when every checker that took part answered.
    case checked(id: Int, findings: [(UnitKey, [UnitFinding])], partial: String?)
    case checkFailed(id: Int, units: [UnitKey], message: String)
    case toolFinished(id: Int, outcome: ToolOutcome)
}

/// How a tool run ended.
public enum ToolOutcome: Sendable, Equatable {
    /// `range` of the text (bytes) becomes `text`.
    case replaced(range: Range<Int>, text: String)
    /// A result to show or insert rather than apply (summary, key points).
    case presented(text: String)
    /// The result was not good enough to apply; why.
    case poor(String)
    case failed(String)
    case cancelled
}
