/// How a session ended, as `sessionEnded` and `lastSessionOutcome` report it.
public enum SessionOutcome: Sendable, Equatable {
    /// Accepted (Done), reverted, stopped, or ended by the engine's own edit of its region.
    case finished
    /// Ended by a failure (a refused replace, a timeout, the provider, the engine's
    /// `.failed` answer); what was delivered was put back as far as the engine allowed.
    case failed(EmendError)

    /// `.ok` when finished, else the failure's status.
    public var status: EmendStatus {
        if case .failed(let error) = self { return error.status }
        return .ok
    }

    /// "" when finished, else the failure's message.
    public var message: String {
        if case .failed(let error) = self { return error.message }
        return ""
    }
}
