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
}

/// A failed call: a status and a message for a person.
public struct EmendError: Error, Sendable, Equatable {
    public let status: EmendStatus
    public let message: String
    public init(_ status: EmendStatus, _ message: String) {
        self.status = status
        self.message = message
    }
}
