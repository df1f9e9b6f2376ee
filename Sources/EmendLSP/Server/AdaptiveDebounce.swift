import EmendCore

/// How long to wait after a keystroke before checking the changed paragraph, from how fast
/// the checkers answered such checks lately. Why not a fixed pause: the measure is the
/// user's, last keystroke to updated diagnostics, and a fixed 250 ms alone was five times
/// the goal of 50 ms. When a paragraph comes back within `immediateMilliseconds` (about the
/// time between two keystrokes of a fast typist), checking at every keystroke does not pile
/// up work and the diagnostics are there at once; when the checkers are
/// slow, checking every keystroke would only queue work that the next keystroke makes
/// stale, so the pause grows with their time (up to `longestMilliseconds`).
///
/// Measured per set of checkers (the providers the client names for proofreading, or the
/// default ones): changing the setting starts from what that set showed before.
struct AdaptiveDebounce {
    /// A paragraph check this fast is run at once.
    static let immediateMilliseconds: Double = 100
    /// The longest pause (the fixed debounce it replaces).
    static let longestMilliseconds: Double = 250
    /// Only checks of at most this many bytes are measured: the time of a keystroke's check,
    /// not of opening a large document.
    static let measuredBytes = 8 * 1024

    /// The recent time of a small check, by checker set (an exponential average).
    private var estimates: [String: Double] = [:]

    /// The pause after a keystroke for checkers `key` (ms).
    func delay(for key: String) -> Int64 {
        guard let estimate = estimates[key], estimate > Self.immediateMilliseconds else { return 0 }
        return Int64(min(estimate, Self.longestMilliseconds))
    }

    /// A check of `bytes` by checkers `key` took `milliseconds`.
    mutating func record(_ milliseconds: Int64, bytes: Int, for key: String) {
        guard bytes <= Self.measuredBytes, milliseconds >= 0 else { return }
        let sample = Double(milliseconds)
        if let old = estimates[key] {
            estimates[key] = old * 0.7 + sample * 0.3
        } else {
            estimates[key] = sample
        }
    }

    /// The current estimate for `key` (ms), for logs and tests.
    func estimate(for key: String) -> Double? { estimates[key] }
}
