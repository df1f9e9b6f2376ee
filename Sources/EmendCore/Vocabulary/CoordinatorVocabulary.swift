/// Writing Tools behavior; `default` is a request that resolves to one of the others.
public enum Behavior: Int, Sendable {
    case none = -1
    case `default` = 0
    case complete = 1
    case limited = 2
}

/// Shapes of text an engine can show.
public struct ResultOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static let plainText = ResultOptions(rawValue: 1)
    public static let richText = ResultOptions(rawValue: 2)
    public static let list = ResultOptions(rawValue: 4)
    public static let table = ResultOptions(rawValue: 8)
    public static let presentationIntent = ResultOptions(rawValue: 16)
    public static let known: ResultOptions = [.plainText, .richText, .list, .table, .presentationIntent]

    /// What the engine gets: plain text always, rich text when intents are asked for.
    public var resolved: ResultOptions {
        var options = self
        options.insert(.plainText)
        if options.contains(.presentationIntent) { options.insert(.richText) }
        return options
    }
}

/// The coordinator's state.
public enum CoordinatorState: Int, Sendable {
    case inactive = 0
    case noninteractive = 1
    case interactiveResting = 2
    case interactiveStreaming = 3
}

/// Which text the coordinator asks contexts for.
public enum ContextScope: Int, Sendable {
    case userSelection = 0
    case fullDocument = 1
    case visibleArea = 2
}

/// Why the engine's text changed by itself.
public enum TextUpdateReason: Int, Sendable {
    case typing = 0
    case undoRedo = 1
}

/// Why a replace is delivered.
public enum ReplaceReason: Int, Sendable {
    case interactive = 0
    case noninteractive = 1
}

/// What a replace does within the session.
public enum ChangeKind: Int, Sendable {
    case result = 0
    case suggestionReject = 1
    case revert = 2
    case showOriginal = 3
    case showRewritten = 4
    case undo = 5
    case redo = 6
    case cancel = 7
}

/// Text animations the engine may show.
public enum TextAnimation: Int, Sendable {
    case anticipate = 0
    case remove = 1
    case insert = 2
    case anticipateInactive = 3
    case translate = 4
}

/// What the engine did with a presented result.
public enum PresentedAction: Int, Sendable {
    case apply = 0
    case copy = 1
    case dismiss = 2
}

/// State of a proofreading suggestion.
public enum SuggestionState: Int, Sendable {
    case pending = 0
    case accepted = 1
    case rejected = 2
    case invalid = 3
}
