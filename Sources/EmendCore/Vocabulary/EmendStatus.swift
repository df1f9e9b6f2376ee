import EmendText

/// Status codes shared by the Swift API and the C ABI (same numbers as emend.h).
public enum EmendStatus: Int32, Sendable, Error {
    case ok = 0
    case invalidArgument = 1
    case structSize = 2
    case invalidUTF8 = 3
    case range = 4
    case notFound = 5
    case state = 6
    case wrongThread = 7
    case timeout = 8
    case refused = 9
    case stale = 10
    case provider = 11
    case unsupported = 12
    case cancelled = 13
    case protected = 14
    case `internal` = 15
    case poorResult = 16
    /// run_until_idle's own time limit passed while work was still going on. Nothing failed:
    /// call again. (Was `.timeout` before; `.timeout` now always means a failed session.)
    case busy = 17
    /// A call that changes the coordinator was made inside a delegate callback: make it
    /// after the callback returns. (Was `.state`.)
    case inCallback = 18
    /// The answer is not known yet and has been asked for (a suggestion's rectangles):
    /// dispatch, then ask again. (Was `.state`.)
    case again = 19

    /// The C name of the status, e.g. "EMEND_E_RANGE".
    public var cName: StaticString {
        switch self {
        case .ok: return "EMEND_OK"
        case .invalidArgument: return "EMEND_E_INVALID_ARGUMENT"
        case .structSize: return "EMEND_E_STRUCT_SIZE"
        case .invalidUTF8: return "EMEND_E_INVALID_UTF8"
        case .range: return "EMEND_E_RANGE"
        case .notFound: return "EMEND_E_NOT_FOUND"
        case .state: return "EMEND_E_STATE"
        case .wrongThread: return "EMEND_E_WRONG_THREAD"
        case .timeout: return "EMEND_E_TIMEOUT"
        case .refused: return "EMEND_E_REFUSED"
        case .stale: return "EMEND_E_STALE"
        case .provider: return "EMEND_E_PROVIDER"
        case .unsupported: return "EMEND_E_UNSUPPORTED"
        case .cancelled: return "EMEND_E_CANCELLED"
        case .protected: return "EMEND_E_PROTECTED"
        case .internal: return "EMEND_E_INTERNAL"
        case .poorResult: return "EMEND_E_POOR_RESULT"
        case .busy: return "EMEND_E_BUSY"
        case .inCallback: return "EMEND_E_IN_CALLBACK"
        case .again: return "EMEND_E_AGAIN"
        }
    }
}

/// A failed call: a status and a message for a person.
public struct EmendError: Error, Sendable, Equatable {
    public let status: EmendStatus
    /// The message, with any offsets and ranges in UTF-8 bytes (the core's units).
    public let message: String
    /// The message with the places it names kept apart (nil when it names none), so that a
    /// caller counting UTF-16 units or code points can say them in its units: message(in:).
    public let located: ErrorMessage?

    public init(_ status: EmendStatus, _ message: String) {
        self.status = status
        self.message = message
        self.located = nil
    }

    /// An error whose message names offsets or ranges of a text (see ErrorMessage).
    public init(_ status: EmendStatus, located message: ErrorMessage) {
        self.status = status
        self.message = message.text(in: .utf8)
        self.located = message.hasPlaces ? message : nil
    }

    /// The message with its offsets and ranges counted in `encoding`.
    public func message(in encoding: PositionEncoding) -> String {
        located?.text(in: encoding) ?? message
    }
}
