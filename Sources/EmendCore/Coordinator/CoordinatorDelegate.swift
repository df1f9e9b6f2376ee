import EmendText

/// Identifies one delegate call awaiting the engine's answer.
public typealias RequestID = UInt64

/// A context the engine gives: its text, what is selected, and the engine's own reference.
public struct ContextDescription: Sendable {
    public var text: AttributedText
    /// Selected UTF-8 byte range; empty = a caret, the whole text is worked on.
    public var selection: Range<Int>
    /// The engine's own pointer or tag, handed back in callbacks.
    public var engineContext: UInt
    public init(text: AttributedText, selection: Range<Int>, engineContext: UInt = 0) {
        self.text = text
        self.selection = selection
        self.engineContext = engineContext
    }
}

/// A proposed replacement for the engine to apply.
public struct ReplaceProposal: Sendable {
    public var contextID: UInt64
    public var engineContext: UInt
    /// UTF-8 byte range in the context's current text.
    public var range: Range<Int>
    public var text: String
    public var reason: ReplaceReason
    public var kind: ChangeKind
    public var animationDuration: Double
    /// True when the runs and intents below are the whole styling of `text` (the engine takes
    /// rich results); false for plain text, which takes the styling around it.
    public var styled = false
    /// Attribute runs and block intents of `text`, in UTF-8 bytes of `text`.
    public var attributeRuns: [AttributeRun] = []
    public var blockIntents: [BlockIntent] = []
}

/// A result handed to the engine to present.
public struct PresentedResult: Sendable {
    public var contextID: UInt64
    public var engineContext: UInt
    public var tool: WritingTool
    public var range: Range<Int>
    public var text: String
    /// Attribute runs and block intents of `text` (UTF-8 bytes of `text`); `styled` as in
    /// ReplaceProposal.
    public var attributeRuns: [AttributeRun] = []
    public var blockIntents: [BlockIntent] = []
    public var styled = false
    /// Why the result is poor (shown to the user, not applied silently); nil for a good one.
    public var explanation: String?
}

/// A rectangle in the engine's view coordinates.
public struct Rect: Sendable, Equatable {
    public var x, y, width, height: Double
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    public func contains(x px: Double, y py: Double) -> Bool {
        px >= x && px < x + width && py >= y && py < y + height
    }
}

/// Which optional callbacks the engine implements; the others are "not supported".
public struct DelegateCapabilities: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static let replace = DelegateCapabilities(rawValue: 1 << 0)
    public static let selectRanges = DelegateCapabilities(rawValue: 1 << 1)
    public static let boundingRects = DelegateCapabilities(rawValue: 1 << 2)
    public static let underlineRects = DelegateCapabilities(rawValue: 1 << 3)
    public static let prepareAnimation = DelegateCapabilities(rawValue: 1 << 4)
    public static let preview = DelegateCapabilities(rawValue: 1 << 5)
    public static let finishAnimation = DelegateCapabilities(rawValue: 1 << 6)
    public static let willChangeState = DelegateCapabilities(rawValue: 1 << 7)
    public static let presentResult = DelegateCapabilities(rawValue: 1 << 8)
    /// The engine wants `sessionEnded` (a notification; nothing to answer).
    public static let sessionEnded = DelegateCapabilities(rawValue: 1 << 9)
    /// Every callback of the first versions (the later ones below are asked for by name).
    public static let all = DelegateCapabilities(rawValue: 0x3FF)
    /// The engine wants `suggestionsChanged` (a notification; nothing to answer).
    public static let suggestionsChanged = DelegateCapabilities(rawValue: 1 << 10)
    /// The engine answers `requestsRects`: many ranges' rectangles in one request.
    public static let rectBatches = DelegateCapabilities(rawValue: 1 << 11)
}

/// The engine's side of the coordinator (Apple's WritingToolsCoordinator.Delegate). Every
/// method runs on the engine's thread during dispatch and is answered through the
/// coordinator's `answer…` methods, at once or later. Methods whose capability is missing
/// are never called.
public protocol CoordinatorDelegate: AnyObject {
    var capabilities: DelegateCapabilities { get }
    func requestsContexts(_ coordinator: Coordinator, scope: ContextScope, request: RequestID)
    func replace(_ coordinator: Coordinator, _ proposal: ReplaceProposal, request: RequestID)
    func selectRanges(_ coordinator: Coordinator, contextID: UInt64, engineContext: UInt, ranges: [Range<Int>], request: RequestID)
    func requestsBoundingRects(_ coordinator: Coordinator, contextID: UInt64, engineContext: UInt, range: Range<Int>, request: RequestID)
    func requestsUnderlineRects(_ coordinator: Coordinator, contextID: UInt64, engineContext: UInt, range: Range<Int>, request: RequestID)
    func prepareForTextAnimation(_ coordinator: Coordinator, _ animation: TextAnimation, contextID: UInt64, engineContext: UInt, range: Range<Int>, request: RequestID)
    func requestsPreview(_ coordinator: Coordinator, _ animation: TextAnimation, contextID: UInt64, engineContext: UInt, range: Range<Int>, request: RequestID)
    func finishTextAnimation(_ coordinator: Coordinator, _ animation: TextAnimation, contextID: UInt64, engineContext: UInt, range: Range<Int>, preview: UInt, request: RequestID)
    func willChangeToState(_ coordinator: Coordinator, _ state: CoordinatorState, request: RequestID)
    func presentResult(_ coordinator: Coordinator, _ result: PresentedResult, request: RequestID)
    /// The session ended (state inactive): `.ok` and "" when accepted, reverted or stopped,
    /// else why it failed. A notification, not a request: nothing to answer. Once per
    /// session, during dispatch. Why: an engine driven by its event loop calls `dispatch`,
    /// which does not throw a session's failure; only `runUntilIdle` did.
    func sessionEnded(_ coordinator: Coordinator, status: EmendStatus, message: String)
    /// Suggestions `changed` (indices) were added, removed, changed state, got a range of
    /// their own (delivered, put back) or new underline rectangles; `total` is how many there
    /// are now (indices at or past it were removed). A notification, at most once per
    /// dispatch, at its end. Why: reading every suggestion after every dispatch to find the
    /// few that changed made a GUI's cost grow with the session.
    func suggestionsChanged(_ coordinator: Coordinator, _ changed: Range<Int>, total: Int)
    /// The rectangles of each of `ranges` (underlines or hit-testing bounds), answered with
    /// `.rectBatch`: one list per range, in order. Replaces one `requestsUnderlineRects` /
    /// `requestsBoundingRects` per suggestion for engines that have it.
    func requestsRects(_ coordinator: Coordinator, _ purpose: RectPurpose, contextID: UInt64, engineContext: UInt,
                       ranges: [Range<Int>], request: RequestID)
}

/// What a batch of rectangles is for.
public enum RectPurpose: Int, Sendable {
    /// Proofreading marks (underlines).
    case underline = 0
    /// Hit testing a click (emend_session_suggestion_at_point).
    case bounding = 1
}

extension CoordinatorDelegate {
    /// Not told by default: delegates written before the notification keep compiling.
    public func sessionEnded(_ coordinator: Coordinator, status: EmendStatus, message: String) {}
    public func suggestionsChanged(_ coordinator: Coordinator, _ changed: Range<Int>, total: Int) {}
    /// Never called without the `.rectBatches` capability.
    public func requestsRects(_ coordinator: Coordinator, _ purpose: RectPurpose, contextID: UInt64, engineContext: UInt,
                              ranges: [Range<Int>], request: RequestID) {}
}
