/// The Writing Tools a session can run.
public enum WritingTool: Int, Sendable, CaseIterable {
    case proofread = 0
    case rewriteFriendly = 1
    case rewriteProfessional = 2
    case rewriteConcise = 3
    case rewriteDescribed = 4
    case summary = 5
    case keyPoints = 6
    case list = 7
    case table = 8
    case compose = 9
    case followUp = 10

    /// Tools that cannot run without a prompt from the user.
    public var needsPrompt: Bool { self == .rewriteDescribed || self == .compose || self == .followUp }

    /// Tools whose result is handed to the engine to present, even in complete behavior.
    public var presentsResult: Bool { self == .summary || self == .keyPoints }

    /// Rewrites that a follow-up request can refine.
    public var isRewrite: Bool {
        switch self {
        case .rewriteFriendly, .rewriteProfessional, .rewriteConcise, .rewriteDescribed, .followUp: return true
        default: return false
        }
    }

    /// A stable lower-case name ("proofread", "rewrite-friendly", ...).
    public var name: String {
        switch self {
        case .proofread: return "proofread"
        case .rewriteFriendly: return "rewrite-friendly"
        case .rewriteProfessional: return "rewrite-professional"
        case .rewriteConcise: return "rewrite-concise"
        case .rewriteDescribed: return "rewrite-described"
        case .summary: return "summary"
        case .keyPoints: return "key-points"
        case .list: return "list"
        case .table: return "table"
        case .compose: return "compose"
        case .followUp: return "follow-up"
        }
    }
}
