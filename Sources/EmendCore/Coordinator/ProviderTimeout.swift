/// What a session that ran out of time says: that it timed out, after how long, and which
/// setting gives the provider more time. A timeout is not a poor result: the model may be
/// good and the machine busy, and the person should know which of the two to fix.
enum ProviderTimeout {
    static func message(milliseconds: Int64, setting: String) -> String {
        let duration = milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(milliseconds) ms"
        return "timed out: the provider did not finish within \(duration) (the time limit is \(setting); "
            + "raise it, or work on a shorter text)"
    }

    /// How long past a run's deadline (`ProviderRequest.deadline`) the coordinator waits for
    /// a provider that answers by the deadline itself (`WritingProvider.answersByDeadline`)
    /// before it fails the session as timed out. Why so long: it is a backstop for a broken
    /// combination only; a working one has answered (before the deadline) long before, and
    /// on a loaded machine its answer may take seconds to reach the engine's thread.
    static let graceMilliseconds: Int64 = 5_000

    /// `instant` plus `milliseconds`, `Int64.max` when that overflows (no limit).
    static func adding(_ milliseconds: Int64, to instant: Int64) -> Int64 {
        let (sum, overflow) = instant.addingReportingOverflow(milliseconds)
        return overflow ? .max : sum
    }
}
